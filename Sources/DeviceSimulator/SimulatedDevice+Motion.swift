import DeviceInterfaces

extension SystemAlert.Kind {
    /// "“PetSpot” Would Like to Access Your Motion & Fitness Activity" on the first activity query.
    public static let motionActivity = SystemAlert.Kind("motionActivity")
}

extension SystemAlertButton {
    /// "OK" on the Motion & Fitness prompt.
    public static let ok = SystemAlertButton("ok")
}

extension SystemAlert {
    static let motionActivity = SystemAlert(kind: .motionActivity, buttons: [.dontAllow, .ok])
}

/// Motion & Fitness on the device: the app's ``SimulatedMotion``, with its prompt shown as a system
/// alert (the app is inactive while it is up) and its switches in Settings.
extension SimulatedDevice {
    /// The app's `CMMotionActivityManager`: reads the device's Info.plist keys; its prompt is a
    /// ``SystemAlert`` answered with ``answerSystemAlert(_:)`` (`.ok` or `.dontAllow`).
    public var motion: SimulatedMotion {
        catchUp()
        return motionSubsystem.motion
    }

    /// The person switches the app's Motion & Fitness permission in Settings (no callback, rule 19).
    /// - Throws: ``SimulatedDeviceError/settingsUnreachableWhileAppInForeground``.
    public func setMotionAllowed(_ allowed: Bool) throws(SimulatedDeviceError) {
        catchUp()
        try ensureSettingsReachable()
        motionSubsystem.motion.setAllowedInSettings(allowed)
        record(.settingChanged(name: "Motion & Fitness", value: allowed ? "on" : "off"))
    }

    /// The person switches Fitness Tracking for the whole device (rule 22).
    /// - Throws: ``SimulatedDeviceError/settingsUnreachableWhileAppInForeground``.
    public func setFitnessTrackingEnabled(_ enabled: Bool) throws(SimulatedDeviceError) {
        catchUp()
        try ensureSettingsReachable()
        motionSubsystem.motion.setFitnessTrackingEnabled(enabled)
        record(.settingChanged(name: "Fitness Tracking", value: enabled ? "on" : "off"))
    }

    var motionSubsystem: MotionSubsystem {
        subsystem(MotionSubsystem.self) { MotionSubsystem(device: self) }
    }
}

/// Motion & Fitness as a device subsystem: its prompt is a ``ForegroundPrompt``.
@MainActor
final class MotionSubsystem: DeviceSubsystem {
    let motion: SimulatedMotion
    private let prompt: ForegroundPrompt

    init(device: SimulatedDevice) {
        let setup = device.configuration.motion
        let motion = SimulatedMotion(
            hasMotionCoprocessor: setup.hasMotionCoprocessor,
            fitnessTrackingEnabled: setup.fitnessTrackingEnabled,
            status: setup.status,
            hasInfoPlistKey: { [weak device] key in device?.infoPlistKeys.contains(key) ?? false }
        )
        let prompt = ForegroundPrompt(device: device, alert: .motionActivity)
        prompt.onAnswer = { [weak motion] button in motion?.prompt.answer(button == .ok ? .allow : .dontAllow) }
        prompt.onDismiss = { [weak motion] in motion?.prompt.dismiss() }
        motion.prompt.visibilityChanged = { [weak prompt] visible in
            if visible { prompt?.show() }
        }
        self.motion = motion
        self.prompt = prompt
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
