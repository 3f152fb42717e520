import Foundation
import LocationService
import PetSpotDomain

/// `requestLocation()`, the cached fix and reduced accuracy (rules 11, 13–18).
extension LocationSubsystem {
    /// Rule 13–16: one outcome per request, after the fix delay; one request in flight at a time. A
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
    private func appView(of fix: TrueFix, desired: LocationAccuracy) -> LocationFix {
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

    /// An approximate position 1–20 km from `coordinate`, drawn from the seeded generator and reused for
    /// the refresh interval ("refreshed at most a few times per hour").
    private func reducedFix(near coordinate: GeoCoordinate) -> LocationFix {
        guard let device else { return LocationFix(latitude: 0, longitude: 0, horizontalAccuracy: -1, timestamp: .distantPast) }
        let now = device.currentElapsed
        if let anchor = reducedAnchor, now - anchor.drawnAt < configuration.reducedAccuracyRefreshInterval {
            return anchor.fix
        }
        let distance = 1_000 + 19_000 * device.random.nextUnit()
        let bearing = 2 * Double.pi * device.random.nextUnit()
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
