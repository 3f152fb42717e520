import DeviceInterfaces
import Foundation
import PetSpotDomain

/// Location Services, the app's location permission, the GPS and the app's location managers
/// (rule 1 to rule 18 in docs/requirements.md). Settings and the permission record outlive the app's process;
/// managers and outstanding requests do not.
@MainActor
final class LocationSubsystem: DeviceSubsystem {
    weak var device: SimulatedDevice?
    let configuration: DeviceConfiguration.Location

    // Settings and the per-install permission record.
    private(set) var servicesEnabled: Bool
    private(set) var restricted: Bool
    private var storedStatus: LocationPermissionStatus
    private(set) var grantIsTemporary = false
    private(set) var alwaysRequestUsed = false
    private var preciseLocation: Bool
    /// Full accuracy granted for this use of the app only (rule 12).
    private var temporaryFullAccuracy = false

    // The GPS.
    private(set) var position: GeoCoordinate?
    var systemFix: TrueFix?
    private var reducedAnchor: (fix: LocationFix, drawnAt: Duration)?

    // The app's process.
    private(set) var managers: [SimulatedLocationManager] = []
    private var managersMade = 0
    private var expiryJob: DeviceScheduler.JobID?
    /// iOS 18: the app's held service sessions and live-update streams (rule 30, rule 31).
    var sessions: [SimulatedServiceSession] = []
    var liveStreams: [SimulatedLiveUpdates] = []
    var sessionsMade = 0
    var sessionProviders: [SimulatedServiceSessions] = []
    var liveStreamsMade = 0

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

    // MARK: Settings and the GPS

    // The device records a Settings change before calling these, and they report the new status to the
    // app's managers last, so the log reads "setting changed", then what the app was told.

    /// The person picks a status on the app's Location page in Settings; a temporary grant ends.
    func choose(_ status: LocationPermissionStatus) {
        if grantIsTemporary {
            grantIsTemporary = false
            if !temporaryFullAccuracy { cancelExpiry() }
        }
        storedStatus = status
        reportIfChanged()
    }

    func setServicesEnabled(_ enabled: Bool) {
        servicesEnabled = enabled
        reportIfChanged()
    }

    func setPreciseLocation(_ precise: Bool) {
        preciseLocation = precise
        temporaryFullAccuracy = false
        reducedAnchor = nil
        reportIfChanged()
    }

    func setRestricted(_ restricted: Bool) {
        self.restricted = restricted
        reportIfChanged()
    }

    func move(to coordinate: GeoCoordinate?) {
        position = coordinate
        refreshSessions(moved: true)
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
    /// backgrounded app hears on its way back (rule 1, rule 10).
    func reportIfChanged() {
        refreshSessions()
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
        refreshSessions()
        // Rule 5, rule 12: temporary grants lapse shortly after the app leaves the foreground.
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
        refreshSessions()
    }

    func appDidBecomeActive() {
        if configuration.settingsChangeReport == .afterActive { reportIfChanged() }
        sessionsAskAgain()
    }

    /// Another alert closed: a held session whose goal is not met may ask now.
    func systemAlertDidClose() {
        sessionsAskAgain()
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
        endSessionsAndUpdates()
        expireTemporaryGrants()
    }

    /// Allow Once (rule 5) and temporary full accuracy (rule 12) end with the app's use.
    private func expireTemporaryGrants() {
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
    private func cancelExpiry() {
        if let job = expiryJob {
            device?.scheduler.cancel(job)
            expiryJob = nil
        }
    }
}

// MARK: - Authorization

/// The app's authorization requests and the person's answers (rule 3 to rule 6).
extension LocationSubsystem {

    /// Rule 3: the alert only when not determined, in the foreground, with the key; otherwise nothing.
    func requestWhenInUse(from manager: SimulatedLocationManager) {
        guard manager.isAlive else { return }
        askWhenInUse(as: "requestWhenInUseAuthorization")
        refreshSessions()
    }

    /// The When-In-Use request itself, made by a manager's call or by a service session (`request`
    /// names which, for the log).
    func askWhenInUse(as request: String) {
        guard let device else { return }
        guard !device.isShowingSystemAlert else { return ignore(request, "a system alert is already showing") }
        guard device.phase.isForeground else { return ignore(request, "the app is not in the foreground") }
        guard device.infoPlistKeys.contains(InfoPlistRequirement.locationWhenInUse.key) else {
            return ignore(request, "Info.plist lacks \(InfoPlistRequirement.locationWhenInUse.key)")
        }
        guard status == .notDetermined else { return ignore(request, "status is already \(status.rawValue)") }
        device.presentSystemAlert(.locationWhenInUse) { [weak self] button in
            self?.applyWhenInUseAnswer(button, grantsProvisionalAlways: false)
        }
    }

    /// Rule 6: once per install, from not determined or a permanent When-In-Use grant, with both keys.
    func requestAlways(from manager: SimulatedLocationManager) {
        guard manager.isAlive else { return }
        askAlways(as: "requestAlwaysAuthorization")
        refreshSessions()
    }

    /// The Always request itself, made by a manager's call or by an `.always` service session.
    func askAlways(as request: String) {
        guard let device else { return }
        guard !device.isShowingSystemAlert else { return ignore(request, "a system alert is already showing") }
        guard device.phase.isForeground else { return ignore(request, "the app is not in the foreground") }
        for key in [InfoPlistRequirement.locationWhenInUse.key, InfoPlistRequirement.locationAlways.key] where !device.infoPlistKeys.contains(key) {
            return ignore(request, "Info.plist lacks \(key)")
        }
        guard !alwaysRequestUsed else { return ignore(request, "Always was already requested on this install") }
        switch status {
        case .notDetermined:
            alwaysRequestUsed = true
            device.presentSystemAlert(.locationWhenInUse) { [weak self] button in
                self?.applyWhenInUseAnswer(button, grantsProvisionalAlways: true)
            }
        case .authorizedWhenInUse where grantIsTemporary:
            ignore(request, "the When-In-Use grant is temporary (Allow Once)")
        case .authorizedWhenInUse:
            alwaysRequestUsed = true
            device.presentSystemAlert(.locationAlwaysUpgrade) { [weak self] button in
                self?.applyAlwaysUpgradeAnswer(button)
            }
        default:
            ignore(request, "status is \(status.rawValue)")
        }
    }

    /// Rule 4: Allow Once and Allow While Using both read `.authorizedWhenInUse`; Don't Allow `.denied`.
    /// From a request for Always, Allow While Using grants provisional Always (rule 6).
    private func applyWhenInUseAnswer(_ button: SystemAlertButton, grantsProvisionalAlways: Bool) {
        switch button {
        case .allowOnce:
            storedStatus = .authorizedWhenInUse
            grantIsTemporary = true
        case .allowWhileUsing:
            storedStatus = grantsProvisionalAlways ? .authorizedAlways : .authorizedWhenInUse
            grantIsTemporary = false
        default:
            storedStatus = .denied
            grantIsTemporary = false
        }
        reportIfChanged()
    }

    /// "Keep Only While Using" changes nothing, so no callback; "Change to Always Allow" reports Always.
    private func applyAlwaysUpgradeAnswer(_ button: SystemAlertButton) {
        guard button == .changeToAlwaysAllow else { return refreshSessions() }
        storedStatus = .authorizedAlways
        reportIfChanged()
    }
}

/// Temporary full accuracy (rule 12).
extension LocationSubsystem {
    func requestTemporaryFullAccuracy(
        from manager: SimulatedLocationManager,
        purposeKey: String,
        completion: @escaping @MainActor (LocationManagerError?) -> Void
    ) {
        let request = "requestTemporaryFullAccuracyAuthorization"
        guard manager.isAlive, let device else { return }
        let declineReason: String? =
            if !device.configuration.temporaryLocationPurposeKeys.contains(purposeKey) {
                "\(InfoPlistRequirement.locationTemporaryFullAccuracy.key) lacks \(purposeKey)"
            } else if !device.phase.isForeground {
                "the app is not in the foreground"
            } else if accuracy == .fullAccuracy {
                "accuracy is already full"
            } else if device.isShowingSystemAlert {
                "a system alert is already showing"
            } else {
                nil
            }
        if let declineReason {
            ignore(request, declineReason)
            device.schedule(after: .zero) { completion(.promptDeclined) }
            return
        }
        device.presentSystemAlert(.locationTemporaryFullAccuracy) { [weak self] button in
            if button == .allowOnce {
                self?.temporaryFullAccuracy = true
                self?.reportIfChanged()
            }
            completion(nil)
        }
    }
}

// MARK: - Fixes

/// `requestLocation()`, the cached fix and reduced accuracy (rule 11, rule 13 to rule 18).
extension LocationSubsystem {
    /// Rule 13 to rule 16: one outcome per request, after the fix delay; one request in flight at a time. A
    /// kilometre-accuracy fix comes sooner than a precise one (rule 14).
    func requestLocation(from manager: SimulatedLocationManager) {
        guard manager.isAlive, let device else { return }
        if manager.pendingRequest != nil {
            return ignore("requestLocation", "a request is already in flight on manager #\(manager.id)")
        }
        let useCachedFix = configuration.deliversCachedFixOnRequest && systemFix != nil && status.isAuthorized
        let delay: Duration =
            if !status.isAuthorized || useCachedFix { .zero }
            else if position == nil { configuration.noFixTimeout }
            else if manager.desiredAccuracy.meters >= 1_000 { min(configuration.coarseFixDelay, configuration.fixDelay) }
            else { configuration.fixDelay }
        device.record(.locationRequestStarted(manager: manager.id))
        manager.pendingRequest = device.schedule(after: delay) { [weak self, weak manager] in
            guard let self, let manager else { return }
            manager.pendingRequest = nil
            deliver(outcome(for: manager, useCachedFix: useCachedFix), to: manager)
        }
    }

    /// Rule 16: cancels the outstanding request; no outcome follows.
    func stopUpdatingLocation(from manager: SimulatedLocationManager) {
        guard let job = manager.pendingRequest else { return }
        device?.scheduler.cancel(job)
        manager.pendingRequest = nil
        device?.record(.locationRequestCancelled(manager: manager.id))
    }

    /// Rule 18: the last fix the system has, as this app may see it; nil if none or not authorized.
    func lastFix(seenBy manager: SimulatedLocationManager) -> LocationFix? {
        guard status.isAuthorized, let fix = systemFix else { return nil }
        return appView(of: fix, desired: manager.desiredAccuracy)
    }

    private func outcome(for manager: SimulatedLocationManager, useCachedFix: Bool) -> LocationManagerEvent {
        guard status.isAuthorized else { return .failed(.denied) }
        if useCachedFix, let cached = systemFix {
            return .locationsUpdated([appView(of: cached, desired: manager.desiredAccuracy)])
        }
        guard let position, let device else { return .failed(.locationUnknown) }
        let fix = TrueFix(
            coordinate: position,
            horizontalAccuracy: max(manager.desiredAccuracy.meters, 5),
            at: device.currentElapsed
        )
        systemFix = fix
        return .locationsUpdated([appView(of: fix, desired: manager.desiredAccuracy)])
    }

    /// The fix as the app gets it: exact with Precise Location, blurred otherwise (rule 11).
    func appView(of fix: TrueFix, desired: LocationAccuracy) -> LocationFix {
        guard let device else {
            return LocationFix(latitude: 0, longitude: 0, horizontalAccuracy: -1, timestamp: Date.distantPast)
        }
        let timestamp = device.time.date(at: fix.at)
        guard accuracy == .reducedAccuracy || desired == .reduced else {
            return LocationFix(
                latitude: fix.coordinate.latitude,
                longitude: fix.coordinate.longitude,
                horizontalAccuracy: fix.horizontalAccuracy,
                timestamp: timestamp
            )
        }
        var blurred = reducedFix(near: fix.coordinate)
        blurred.timestamp = timestamp
        return blurred
    }

    /// An approximate position 1–20 km from `coordinate`, drawn from the device's deterministic
    /// generator and reused for the refresh interval ("refreshed at most a few times per hour").
    private func reducedFix(near coordinate: GeoCoordinate) -> LocationFix {
        guard let device else { return LocationFix(latitude: 0, longitude: 0, horizontalAccuracy: -1, timestamp: .distantPast) }
        let now = device.currentElapsed
        if let anchor = reducedAnchor, now - anchor.drawnAt < configuration.reducedAccuracyRefreshInterval {
            return anchor.fix
        }
        let distance = 1_000 + 19_000 * device.random.unit()
        let bearing = 2 * Double.pi * device.random.unit()
        let metresPerDegree = 111_320.0
        let latitude = min(90, max(-90, coordinate.latitude + distance * cos(bearing) / metresPerDegree))
        let scale = max(cos(coordinate.latitude * .pi / 180), 0.01)
        var longitude = coordinate.longitude + distance * sin(bearing) / (metresPerDegree * scale)
        if longitude > 180 { longitude -= 360 }
        if longitude < -180 { longitude += 360 }
        let fix = LocationFix(
            latitude: latitude,
            longitude: longitude,
            horizontalAccuracy: (distance / 1_000).rounded(.up) * 1_000,
            timestamp: device.time.date(at: now)
        )
        reducedAnchor = (fix, now)
        return fix
    }
}
