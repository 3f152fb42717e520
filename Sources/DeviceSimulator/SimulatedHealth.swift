import DeviceInterfaces
import Foundation

/// HealthKit of the simulated iPhone (`HKHealthStore`, rule 23 to rule 27).
///
/// - Without Health data (iPadOS 16 and earlier, macOS) every request fails (23).
/// - `authorizationStatus(for:)` reports the WRITE permission only; the person's read answers are
///   kept here but never reported to the app (24).
/// - `requestAuthorization` returns true whether or not anything was granted; the sheet shows only
///   undecided types, and with none it completes at once without UI (25).
/// - `requestStatus` answers whether a sheet would appear (26).
/// - A missing `NSHealthShareUsageDescription` / `NSHealthUpdateUsageDescription` throws
///   ``SimulatedCrash`` (NSInvalidArgumentException); no entitlement fails with an error (27).
@MainActor
public final class SimulatedHealth: HealthAuthorizing {
    /// The person's answer to the Health sheet.
    public enum Answer: Sendable, Equatable {
        /// "Turn On All", then "Allow".
        case turnOnAll
        /// "Don't Allow".
        case dontAllow
        /// Some switches on, then "Allow".
        case allow(share: Set<HealthDataType>, read: Set<HealthDataType>)
    }

    /// Whether the device has Health data.
    public var isHealthDataAvailable: Bool
    /// Whether the app is signed with `com.apple.developer.healthkit`.
    public var hasHealthKitEntitlement: Bool
    /// The write permission per type, as the Health app stores it.
    public private(set) var shareStatus: [HealthDataType: HealthShareStatus]
    /// The person's read answers: the simulation knows them, the app never learns them.
    public private(set) var readAllowed: [HealthDataType: Bool]
    /// The sheet; a test or a device answers it.
    public let prompt: SimulatedPermissionPrompt<Answer>
    /// How many authorization requests the app made.
    public private(set) var requestCount = 0

    private let hasInfoPlistKey: @MainActor (String) -> Bool

    public init(
        isHealthDataAvailable: Bool = true,
        hasHealthKitEntitlement: Bool = true,
        shareStatus: [HealthDataType: HealthShareStatus] = [:],
        readAllowed: [HealthDataType: Bool] = [:],
        hasInfoPlistKey: @escaping @MainActor (String) -> Bool,
        promptVisibilityChanged: @escaping @MainActor (Bool) -> Void = { _ in }
    ) {
        self.isHealthDataAvailable = isHealthDataAvailable
        self.hasHealthKitEntitlement = hasHealthKitEntitlement
        self.shareStatus = shareStatus
        self.readAllowed = readAllowed
        self.hasInfoPlistKey = hasInfoPlistKey
        self.prompt = SimulatedPermissionPrompt(visibilityChanged: promptVisibilityChanged)
    }

    public func authorizationStatus(for type: HealthDataType) -> HealthShareStatus {
        shareStatus[type] ?? .notDetermined
    }

    public func requestStatus(
        toShare share: Set<HealthDataType>,
        read: Set<HealthDataType>
    ) async throws -> HealthRequestStatus {
        guard isHealthDataAvailable else { throw SimulatedHealthError.healthDataUnavailable }
        return undecided(share: share, read: read).isEmpty ? .unnecessary : .shouldRequest
    }

    public func requestAuthorization(
        toShare share: Set<HealthDataType>,
        read: Set<HealthDataType>
    ) async throws -> Bool {
        requestCount += 1
        guard isHealthDataAvailable else { throw SimulatedHealthError.healthDataUnavailable }
        if !read.isEmpty, !hasInfoPlistKey(InfoPlistRequirement.healthShare.key) {
            throw SimulatedCrash.missingUsageDescription(
                InfoPlistRequirement.healthShare.key,
                exception: "NSInvalidArgumentException",
                while: "request read authorization"
            )
        }
        if !share.isEmpty, !hasInfoPlistKey(InfoPlistRequirement.healthUpdate.key) {
            throw SimulatedCrash.missingUsageDescription(
                InfoPlistRequirement.healthUpdate.key,
                exception: "NSInvalidArgumentException",
                while: "request save authorization"
            )
        }
        guard hasHealthKitEntitlement else { throw SimulatedHealthError.missingEntitlement }
        let pending = undecided(share: share, read: read)
        guard !pending.isEmpty else { return true }
        guard let answer = await prompt.present() else {
            try Task.checkCancellation()
            // The sheet went away unanswered: nothing was decided, and HealthKit still reports success.
            return true
        }
        apply(answer, share: share.intersection(pending.share), read: read.intersection(pending.read))
        return true
    }

    /// The person changes the app's write permission for `type` in the Health app (no callback).
    public func setShareStatusInHealthApp(_ status: HealthShareStatus, for type: HealthDataType) {
        shareStatus[type] = status
    }

    /// The person changes the app's read permission for `type` in the Health app (no callback).
    public func setReadAllowedInHealthApp(_ allowed: Bool, for type: HealthDataType) {
        readAllowed[type] = allowed
    }

    private func undecided(
        share: Set<HealthDataType>,
        read: Set<HealthDataType>
    ) -> (share: Set<HealthDataType>, read: Set<HealthDataType>, isEmpty: Bool) {
        let shareLeft = share.filter { authorizationStatus(for: $0) == .notDetermined }
        let readLeft = read.filter { readAllowed[$0] == nil }
        return (shareLeft, readLeft, shareLeft.isEmpty && readLeft.isEmpty)
    }

    private func apply(_ answer: Answer, share: Set<HealthDataType>, read: Set<HealthDataType>) {
        let allowedShare: Set<HealthDataType>
        let allowedRead: Set<HealthDataType>
        switch answer {
        case .turnOnAll: (allowedShare, allowedRead) = (share, read)
        case .dontAllow: (allowedShare, allowedRead) = ([], [])
        case .allow(let someShare, let someRead): (allowedShare, allowedRead) = (someShare, someRead)
        }
        for type in share { shareStatus[type] = allowedShare.contains(type) ? .sharingAuthorized : .sharingDenied }
        for type in read { readAllowed[type] = allowedRead.contains(type) }
    }
}

/// An `HKError` of the simulated HealthKit.
public struct SimulatedHealthError: Error, Sendable, Equatable, CustomStringConvertible {
    /// `HKErrorDomain` code.
    public var code: Int
    public var message: String

    /// `HKError.errorHealthDataUnavailable` (1).
    public static let healthDataUnavailable = SimulatedHealthError(
        code: 1,
        message: "Health data is unavailable on this device"
    )
    /// `HKError.errorAuthorizationDenied` (4) as HealthKit reports a missing entitlement.
    public static let missingEntitlement = SimulatedHealthError(
        code: 4,
        message: "Missing com.apple.developer.healthkit entitlement"
    )

    public var description: String { "HKError \(code): \(message)" }
}

extension SimulatedHealthError: LocalizedError {
    /// What `localizedDescription` gives, as an `HKError`'s does: the message alone.
    public var errorDescription: String? { message }
}
