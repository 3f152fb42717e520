import DeviceInterfaces

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

/// HealthKit as a device subsystem: its sheet is a ``ForegroundPrompt``; the switches the person sets
/// in it arrive through ``nextAnswer``.
@MainActor
final class HealthSubsystem: DeviceSubsystem {
    let health: SimulatedHealth
    var nextAnswer: SimulatedHealth.Answer?
    private let prompt: ForegroundPrompt

    init(device: SimulatedDevice) {
        let setup = device.configuration.health
        health = SimulatedHealth(
            isHealthDataAvailable: setup.isHealthDataAvailable,
            shareStatus: setup.shareStatus,
            readAllowed: setup.readAllowed,
            hasInfoPlistKey: { [weak device] key in device?.infoPlistKeys.contains(key) ?? false }
        )
        prompt = ForegroundPrompt(device: device, alert: .healthAccess)
        prompt.onAnswer = { [weak self] button in
            guard let self else { return }
            let answer: SimulatedHealth.Answer =
                switch button {
                case .healthTurnOnAll: .turnOnAll
                case .healthAllow: self.nextAnswer ?? .allow(share: [], read: [])
                default: .dontAllow
                }
            self.health.prompt.answer(answer)
        }
        prompt.onDismiss = { [weak health] in health?.prompt.dismiss() }
        health.prompt.visibilityChanged = { [weak prompt] visible in
            if visible { prompt?.show() }
        }
    }

    func appDidBecomeActive() {
        prompt.appDidBecomeActive()
    }

    func systemAlertDidClose() {
        prompt.systemAlertDidClose()
    }

    func appWillTerminate() {
        prompt.appWillTerminate()
    }
}
