import DeviceInterfaces
/// What can honestly be known about HealthKit permission: write status per type and whether a
/// request would show a sheet. Read permission is deliberately absent: iOS hides it (rule 24).
public struct HealthAuthorization: Sendable, Equatable {
    /// Whether this device has Health data at all.
    public var isAvailable: Bool
    /// The permission to save each type the app asks to save.
    public var writeStatus: [HealthDataType: HealthShareStatus]
    /// Whether a request would show the sheet.
    public var requestStatus: HealthRequestStatus

    public init(
        isAvailable: Bool,
        writeStatus: [HealthDataType: HealthShareStatus],
        requestStatus: HealthRequestStatus
    ) {
        self.isAvailable = isAvailable
        self.writeStatus = writeStatus
        self.requestStatus = requestStatus
    }

    /// Nothing known yet.
    public static let unknown = HealthAuthorization(isAvailable: true, writeStatus: [:], requestStatus: .unknown)

    /// The card's state.
    ///
    /// `.unavailable` without Health data; `.notDetermined` while a sheet would appear or a write type
    /// is undecided; `.authorized` when saving at least one type is allowed; `.denied` when saving every
    /// type was refused. It says nothing about reading, which iOS does not reveal. With no write types
    /// at all it stays `.notDetermined` until the sheet was answered, then `.authorized`, meaning only
    /// "asked".
    public var permissionState: PermissionState {
        guard isAvailable else { return .unavailable }
        if requestStatus == .shouldRequest { return .notDetermined }
        let statuses = Array(writeStatus.values)
        if statuses.contains(.notDetermined) { return .notDetermined }
        if statuses.contains(.sharingAuthorized) { return .authorized }
        if !statuses.isEmpty { return .denied }
        return requestStatus == .unnecessary ? .authorized : .notDetermined
    }

    /// Types the person allowed the app to save, in a stable order.
    public var savingAllowed: [HealthDataType] {
        writeStatus.filter { $0.value == .sharingAuthorized }.keys.sorted()
    }

    /// Types the person refused the app to save, in a stable order.
    public var savingDenied: [HealthDataType] {
        writeStatus.filter { $0.value == .sharingDenied }.keys.sorted()
    }
}
