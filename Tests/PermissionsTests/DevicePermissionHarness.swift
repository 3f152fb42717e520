import AsyncSupport
import DeviceInterfaces
import DeviceSimulator
import LocationBridge
import PetSpotDomain
import Permissions

/// A permission manager inside the app on a simulated iPhone: its own location manager, the device's
/// Motion and HealthKit, Settings opened through the device, all on a test clock.
@MainActor
final class DevicePermissionHarness {
    static let allKeys: Set<String> = Set(InfoPlistRequirement.all.filter { $0.source == .infoPlist }.map(\.key))

    let clock = VirtualClock()
    let device: SimulatedDevice
    let ledger = InMemoryPermissionLedger()
    let service: LocationService
    let manager: PermissionManager

    /// - Parameters:
    ///   - appKeys: the Info.plist keys of the installed app.
    ///   - managerKeys: the keys the manager believes Info.plist has (defaults to the same).
    init(
        appKeys: Set<String> = allKeys,
        managerKeys: Set<String>? = nil,
        location: DeviceConfiguration.Location = DeviceConfiguration.Location()
    ) throws {
        device = SimulatedDevice(
            configuration: DeviceConfiguration(infoPlistKeys: appKeys, location: location),
            clock: clock
        )
        try device.launch()
        let locationManager = try device.makeLocationManager()
        var values: [String: PropertyList.Value] = [:]
        for key in managerKeys ?? appKeys { values[key] = .string("Why PetSpot asks.") }
        values["NSLocationTemporaryUsageDescriptionDictionary"] = .dictionary(["NearbyPets": .string("Exact distances.")])
        service = LocationService(manager: locationManager, clock: clock)
        manager = PermissionManager(
            locationService: service,
            motion: device.motion,
            health: device.health,
            infoPlist: PropertyList(values),
            ledger: ledger,
            settingsOpener: SettingsOpener { [device] in try? device.openSettings() },
            clock: clock,
            configuration: PermissionManager.Configuration(healthRequest: .readingAndSaving)
        )
    }

    /// Lets the device run what is due now (the creation callback and other queued callbacks).
    func settle() async {
        clock.advance(by: .zero)
        device.runDueWork()
    }

    /// Returns once a system alert of `kind` is on screen, having told the manager that the app
    /// resigned active as the app's scene would; no time involved.
    func alertShown(_ kind: SystemAlert.Kind) async {
        await alertOnScreen(kind)
        await service.applicationWillResignActive()
    }

    private func alertOnScreen(_ kind: SystemAlert.Kind) async {
        if device.systemAlert?.kind == kind { return }
        for await entry in device.logEntries() {
            if case .systemAlertShown(let alert) = entry.event, alert.kind == kind { return }
        }
    }

    /// The person answers the location alert with "Allow Once" (the app active again afterwards).
    func allowOnceGranted() async throws -> PermissionState {
        await settle()
        async let request = try await manager.requestLocationWhenInUse()
        await alertShown(.locationWhenInUse)
        try device.answerSystemAlert(.allowOnce)
        await becameActive()
        return try await request
    }

    /// Requests Always while iOS ignores it (no prompt appears), until the wait ends.
    func alwaysRequestedAndIgnored() async throws -> LocationAlwaysOutcome {
        async let request = try await manager.requestLocationAlways()
        _ = await ignored("requestAlwaysAuthorization")
        clock.advance(by: .seconds(1))
        return try await request
    }

    /// Returns once the device logged that it ignored `request`; no time involved.
    func ignored(_ request: String) async -> String? {
        if let reason = ignoredReasons(request).last { return reason }
        for await entry in device.logEntries() {
            if case .requestIgnored(request, let reason) = entry.event { return reason }
        }
        return nil
    }

    func ignoredReasons(_ request: String) -> [String] {
        device.log.compactMap {
            if case .requestIgnored(request, let reason) = $0.event { reason } else { nil }
        }
    }

    var alertsShown: [SystemAlert.Kind] {
        device.log.compactMap {
            if case .systemAlertShown(let alert) = $0.event { alert.kind } else { nil }
        }
    }

    /// The app is active again, as the app model tells it: the location bridge first (a pending
    /// request whose prompt is gone ends shortly), then every permission is read again.
    func becameActive() async {
        await service.applicationDidBecomeActive()
        await manager.checkAll()
    }
}
