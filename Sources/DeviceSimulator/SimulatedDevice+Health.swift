import Permissions

extension SystemAlert.Kind {
    /// The Health access sheet listing the undecided types.
    public static let healthAccess = SystemAlert.Kind("healthAccess")
}

extension SystemAlertButton {
    /// "Turn On All", then "Allow", on the Health sheet.
    public static let healthTurnOnAll = SystemAlertButton("healthTurnOnAll")
    /// "Allow" with the switches as set (see ``SimulatedDevice/answerHealthSheet(_:)``); tapped
    /// directly, every switch is still off, which allows nothing.
    public static let healthAllow = SystemAlertButton("healthAllow")
}

extension SystemAlert {
    static let healthAccess = SystemAlert(kind: .healthAccess, buttons: [.dontAllow, .healthTurnOnAll, .healthAllow])
}

/// HealthKit on the device: the app's ``SimulatedHealth``, its sheet shown as a system alert, and the
/// app's page in the Health app.
extension SimulatedDevice {
    /// The app's `HKHealthStore`: reads the device's Info.plist keys; its sheet is a ``SystemAlert``
    /// answered with ``answerSystemAlert(_:)`` or ``answerHealthSheet(_:)``.
    public var health: SimulatedHealth {
        catchUp()
        return healthSubsystem.health
    }

    /// The person answers the Health sheet, switch by switch.
    /// - Throws: ``SimulatedDeviceError/noSystemAlertShowing(tried:)`` or
    ///   ``SimulatedDeviceError/buttonNotOnAlert(_:_:)`` when the Health sheet is not the alert showing.
    public func answerHealthSheet(_ answer: SimulatedHealth.Answer) throws(SimulatedDeviceError) {
        healthSubsystem.nextAnswer = answer
        defer { healthSubsystem.nextAnswer = nil }
        try answerSystemAlert(.healthAllow)
    }

    /// The person changes the app's permission to save `type` in the Health app (no callback).
    /// - Throws: ``SimulatedDeviceError/settingsUnreachableWhileAppInForeground``.
    public func setHealthSharing(_ status: HealthShareStatus, for type: HealthDataType) throws(SimulatedDeviceError) {
        catchUp()
        try ensureSettingsReachable()
        healthSubsystem.health.setShareStatusInHealthApp(status, for: type)
        record(.settingChanged(name: "Health: save \(type.displayName)", value: status.rawValue))
    }

    /// The person changes the app's permission to read `type` in the Health app; the app never learns it.
    /// - Throws: ``SimulatedDeviceError/settingsUnreachableWhileAppInForeground``.
    public func setHealthReading(_ allowed: Bool, for type: HealthDataType) throws(SimulatedDeviceError) {
        catchUp()
        try ensureSettingsReachable()
        healthSubsystem.health.setReadAllowedInHealthApp(allowed, for: type)
        record(.settingChanged(name: "Health: read \(type.displayName)", value: allowed ? "on" : "off"))
    }

    var healthSubsystem: HealthSubsystem {
        subsystem(HealthSubsystem.self) { HealthSubsystem(device: self) }
    }
}

/// Shows the Health sheet as the device's alert, in the foreground only; a sheet that could not be
/// shown is shown when the app next becomes active.
@MainActor
final class HealthSubsystem: DeviceSubsystem {
    private weak var device: SimulatedDevice?
    let health: SimulatedHealth
    var nextAnswer: SimulatedHealth.Answer?
    private var awaitingPresentation = false

    init(device: SimulatedDevice) {
        self.device = device
        health = SimulatedHealth(hasInfoPlistKey: { [weak device] key in device?.infoPlistKeys.contains(key) ?? false })
        health.prompt.visibilityChanged = { [weak self] visible in
            if visible { self?.present() }
        }
    }

    func appDidBecomeActive() {
        if awaitingPresentation { present() }
    }

    private func present() {
        guard let device else { return }
        guard device.phase.isForeground, !device.isShowingSystemAlert else {
            awaitingPresentation = true
            return
        }
        awaitingPresentation = false
        device.presentSystemAlert(.healthAccess) { [weak self] button in
            guard let self else { return }
            let answer: SimulatedHealth.Answer =
                switch button {
                case .healthTurnOnAll: .turnOnAll
                case .healthAllow: self.nextAnswer ?? .allow(share: [], read: [])
                default: .dontAllow
                }
            self.health.prompt.answer(answer)
        }
    }
}
