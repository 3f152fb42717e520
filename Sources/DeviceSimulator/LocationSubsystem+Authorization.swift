import LocationService
import PetSpotDomain

/// The app's authorization requests and the person's answers (rules 3–6).
extension LocationSubsystem {
    private typealias Key = SimulatedDevice.InfoPlistKey

    /// Rule 3: the alert only when not determined, in the foreground, with the key; otherwise nothing.
    func requestWhenInUse(from manager: SimulatedLocationManager) {
        let request = "requestWhenInUseAuthorization"
        guard manager.isAlive, let device else { return }
        guard !device.isShowingSystemAlert else { return ignore(request, "a system alert is already showing") }
        guard device.phase.isForeground else { return ignore(request, "the app is not in the foreground") }
        guard device.infoPlistKeys.contains(Key.locationWhenInUse) else {
            return ignore(request, "Info.plist lacks \(Key.locationWhenInUse)")
        }
        guard status == .notDetermined else { return ignore(request, "status is already \(status.rawValue)") }
        device.presentSystemAlert(.locationWhenInUse) { [weak self] button in
            self?.applyWhenInUseAnswer(button, grantsProvisionalAlways: false)
        }
    }

    /// Rule 6: once per install, from not determined or a permanent When-In-Use grant, with both keys.
    func requestAlways(from manager: SimulatedLocationManager) {
        let request = "requestAlwaysAuthorization"
        guard manager.isAlive, let device else { return }
        guard !device.isShowingSystemAlert else { return ignore(request, "a system alert is already showing") }
        guard device.phase.isForeground else { return ignore(request, "the app is not in the foreground") }
        for key in [Key.locationWhenInUse, Key.locationAlwaysAndWhenInUse] where !device.infoPlistKeys.contains(key) {
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
        guard button == .changeToAlwaysAllow else { return }
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
                "NSLocationTemporaryUsageDescriptionDictionary lacks \(purposeKey)"
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
