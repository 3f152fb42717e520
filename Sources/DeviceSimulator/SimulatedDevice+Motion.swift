import Permissions

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

/// Shows the motion prompt as the device's alert, in the foreground only; a prompt that could not be
/// shown (app in the background, another alert up) is shown when the app next becomes active.
@MainActor
final class MotionSubsystem: DeviceSubsystem {
    private weak var device: SimulatedDevice?
    let motion: SimulatedMotion
    private var awaitingPresentation = false

    init(device: SimulatedDevice) {
        self.device = device
        motion = SimulatedMotion(hasInfoPlistKey: { [weak device] key in device?.infoPlistKeys.contains(key) ?? false })
        motion.prompt.visibilityChanged = { [weak self] visible in
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
        device.presentSystemAlert(.motionActivity) { [weak self] button in
            self?.motion.prompt.answer(button == .ok ? .allow : .dontAllow)
        }
    }
}
