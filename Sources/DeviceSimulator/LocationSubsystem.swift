import Foundation
import LocationService
import PetSpotDomain

/// Location Services, the app's location permission, the GPS and the app's location managers
/// (rules 1–18 of `IOS_SEMANTICS.md`). Settings and the permission record outlive the app's process;
/// managers and outstanding requests do not.
@MainActor
final class LocationSubsystem: DeviceSubsystem {
    weak var device: SimulatedDevice?
    let configuration: DeviceConfiguration.Location

    // Settings and the per-install permission record.
    var servicesEnabled: Bool
    var restricted: Bool
    var storedStatus: LocationPermissionStatus
    var grantIsTemporary = false
    var alwaysRequestUsed = false
    var preciseLocation: Bool
    /// Full accuracy granted for this use of the app only (rule 12).
    var temporaryFullAccuracy = false

    // The GPS.
    var position: GeoCoordinate?
    var systemFix: TrueFix?
    var reducedAnchor: (fix: LocationFix, drawnAt: Duration)?

    // The app's process.
    private(set) var managers: [SimulatedLocationManager] = []
    private var managersMade = 0
    private var expiryJob: DeviceScheduler.JobID?

    /// A fix as the GPS took it (before any reduced-accuracy blurring); `at` is virtual elapsed time.
    struct TrueFix {
        var coordinate: GeoCoordinate
        var horizontalAccuracy: Double
        var at: Duration
    }

    init(configuration: DeviceConfiguration.Location) {
        self.configuration = configuration
        servicesEnabled = configuration.servicesEnabled
        restricted = configuration.authorization == .restricted
        storedStatus = configuration.authorization == .restricted ? .notDetermined : configuration.authorization
        preciseLocation = configuration.preciseLocation
        position = configuration.position
        systemFix = configuration.cachedFix.map {
            TrueFix(coordinate: $0.coordinate, horizontalAccuracy: $0.horizontalAccuracy, at: .zero - $0.age)
        }
    }

    /// What the app reads: `.denied` with Location Services off (rule 7), `.restricted` under device
    /// management (rule 8), otherwise the app's own setting.
    var status: LocationPermissionStatus {
        if !servicesEnabled { return .denied }
        if restricted { return .restricted }
        return storedStatus
    }

    var accuracy: LocationAccuracyAuthorization {
        preciseLocation || temporaryFullAccuracy ? .fullAccuracy : .reducedAccuracy
    }

    // MARK: Managers and callbacks

    func makeManager() -> SimulatedLocationManager {
        guard let device else { preconditionFailure("a location subsystem always belongs to a device") }
        managersMade += 1
        let manager = SimulatedLocationManager(id: managersMade, device: device)
        managers.append(manager)
        device.record(.locationManagerCreated(manager: manager.id))
        // Rule 1: once, after creation returns, with the current status even when not determined.
        device.schedule(after: .zero) { [weak self, weak manager] in
            guard let self, let manager else { return }
            manager.lastReported = (status, accuracy)
            deliver(.authorizationChanged(status, accuracy), to: manager)
        }
        return manager
    }

    func deliver(_ event: LocationManagerEvent, to manager: SimulatedLocationManager) {
        guard manager.isAlive else { return }
        manager.continuation.yield(event)
        device?.record(.delegateCallback(manager: manager.id, event))
    }

    /// Tells every manager whose last callback no longer matches, if the app can hear it now. A
    /// backgrounded app hears on its way back (rules 1 and 10).
    func reportIfChanged() {
        guard let device, device.phase.isForeground else { return }
        let current = (status, accuracy)
        for manager in managers where manager.isAlive {
            guard let last = manager.lastReported, last != current else { continue }
            manager.lastReported = current
            deliver(.authorizationChanged(current.0, current.1), to: manager)
        }
    }

    func ignore(_ request: String, _ reason: String) {
        device?.record(.requestIgnored(request: request, reason: reason))
    }

    // MARK: Lifecycle

    func appDidEnterBackground() {
        // Rules 5 and 12: temporary grants lapse shortly after the app leaves the foreground.
        guard grantIsTemporary || temporaryFullAccuracy, expiryJob == nil, let device else { return }
        expiryJob = device.schedule(after: configuration.allowOnceExpiryDelay) { [weak self] in
            self?.expiryJob = nil
            self?.expireTemporaryGrants()
        }
    }

    func appWillEnterForeground() {
        if let job = expiryJob {
            device?.scheduler.cancel(job)
            expiryJob = nil
        }
        if configuration.settingsChangeReport == .beforeActive { reportIfChanged() }
    }

    func appDidBecomeActive() {
        if configuration.settingsChangeReport == .afterActive { reportIfChanged() }
    }

    func appWillTerminate() {
        if let job = expiryJob {
            device?.scheduler.cancel(job)
            expiryJob = nil
        }
        for manager in managers {
            if let job = manager.pendingRequest { device?.scheduler.cancel(job) }
            manager.pendingRequest = nil
            manager.isAlive = false
            manager.continuation.finish()
        }
        managers = []
        expireTemporaryGrants()
    }

    /// Allow Once (rule 5) and temporary full accuracy (rule 12) end with the app's use.
    func expireTemporaryGrants() {
        if grantIsTemporary {
            grantIsTemporary = false
            if storedStatus == .authorizedWhenInUse { storedStatus = .notDetermined }
            device?.record(.allowOnceExpired)
        }
        if temporaryFullAccuracy {
            temporaryFullAccuracy = false
            device?.record(.temporaryFullAccuracyExpired)
        }
        reportIfChanged()
    }

    /// Cancels a pending expiry (the grant was replaced in Settings).
    func cancelExpiry() {
        if let job = expiryJob {
            device?.scheduler.cancel(job)
            expiryJob = nil
        }
    }
}
