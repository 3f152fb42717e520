import LocationService
import PetSpotDomain

extension PermissionManager {
    /// Step one: asks for When-In-Use location through the app's one ``LocationService``.
    ///
    /// Returns at once when the status is already determined (iOS would show nothing). Otherwise asks
    /// and waits as the service does (its ``LocationService/Configuration/authorizationTimeout``), and
    /// returns the state then. A late answer still arrives through ``stateUpdates(for:)``.
    /// - Throws: ``PermissionRequestError/missingUsageDescription(_:keys:)`` when Info.plist lacks
    ///   `NSLocationWhenInUseUsageDescription` (iOS would silently do nothing).
    @discardableResult
    public func requestLocationWhenInUse() async throws(PermissionRequestError) -> PermissionState {
        locationStatusChanged(to: await locationService.authorizationStatus)
        guard locationStatus == .notDetermined else { return state(for: .location) }
        try requireKeys([.locationWhenInUse], for: .location)
        _ = await shared(.locationWhenInUse, bounded: false) { [weak self] in
            guard let self else { return .state(.notDetermined) }
            let status = await self.locationService.requestWhenInUseAuthorization()
            self.locationStatusChanged(to: status == .notDetermined ? self.locationService.currentAuthorizationStatus : status)
            return .state(self.state(for: .location))
        }
        return state(for: .location)
    }

    /// Step two, a separate explicit call: asks to upgrade a While-Using grant to Always (rule 6).
    ///
    /// Nothing is asked when the status is not While Using (from `.notDetermined` iOS would show the
    /// When-In-Use prompt instead, so that step must come first) or when this install already made its
    /// one Always request. The wait is the service's: "Keep Only While Using" ends it shortly after the
    /// app is active again (``refresh()``). A request iOS ignores (during "Allow Once" no prompt
    /// appears) does not use up the one request of this install.
    /// - Throws: ``PermissionRequestError/missingUsageDescription(_:keys:)`` when Info.plist lacks
    ///   either location usage description.
    public func requestLocationAlways() async throws(PermissionRequestError) -> LocationAlwaysOutcome {
        locationStatusChanged(to: await locationService.authorizationStatus)
        switch locationStatus {
        case .authorizedAlways: return .alreadyAlways
        case .notDetermined: return .needsWhenInUseFirst
        case .denied, .restricted: return .notAllowed(state(for: .location))
        case .authorizedWhenInUse: break
        }
        try requireKeys([.locationWhenInUse, .locationAlways], for: .location)
        if runningRequests[.locationAlways] == nil, ledger.alwaysLocationRequested { return .alreadyAskedOnce }
        let result = await shared(.locationAlways, bounded: false) { [weak self] in
            guard let self else { return .always(.stayedWhenInUse) }
            self.ledger.alwaysLocationRequested = true
            let answer = await self.locationService.requestAlwaysAuthorization()
            // No prompt appeared: iOS ignored the request, so it did not use up the one of this install.
            if !answer.promptAppeared { self.ledger.alwaysLocationRequested = false }
            self.locationStatusChanged(to: answer.status)
            switch answer.status {
            case .authorizedAlways: return .always(.upgraded)
            case .authorizedWhenInUse: return .always(.stayedWhenInUse)
            case .notDetermined, .denied, .restricted: return .always(.notAllowed(PermissionState(answer.status)))
            }
        }
        if case .always(let outcome)? = result { return outcome }
        return locationStatus == .authorizedAlways ? .upgraded : .stayedWhenInUse
    }

    /// Whether the one Always request of this install is still available.
    public var canRequestLocationAlways: Bool {
        locationStatus == .authorizedWhenInUse && !ledger.alwaysLocationRequested
    }

    /// Records a status the location service reported or that was read from it.
    func locationStatusChanged(to status: LocationPermissionStatus) {
        guard status != locationStatus else { return }
        locationStatus = status
        onLocationStatusChange?(status)
        publishChanges()
    }

    func checkLocation() async {
        locationStatusChanged(to: await locationService.authorizationStatus)
        let enabled = await locationService.locationServicesEnabled
        if enabled != locationServicesEnabled { locationServicesEnabled = enabled }
    }
}
