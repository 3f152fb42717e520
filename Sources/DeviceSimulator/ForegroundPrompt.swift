/// A permission prompt shown as the device's system alert the way iOS shows one: only while the app is
/// in the foreground and no other alert is up. A prompt that cannot show yet (app in the background,
/// another alert on screen) is shown when the app next becomes active.
@MainActor
final class ForegroundPrompt {
    private weak var device: SimulatedDevice?
    private let alert: SystemAlert
    private var waitingForActive = false
    /// What the person's tap does; set by the subsystem that owns the prompt.
    var onAnswer: @MainActor (SystemAlertButton) -> Void = { _ in }

    init(device: SimulatedDevice, alert: SystemAlert) {
        self.device = device
        self.alert = alert
    }

    /// Shows the prompt now if iOS could, otherwise as soon as the app is next active.
    func show() {
        guard let device else { return }
        guard device.phase.isForeground, !device.isShowingSystemAlert else {
            waitingForActive = true
            return
        }
        waitingForActive = false
        let onAnswer = self.onAnswer
        device.presentSystemAlert(alert) { onAnswer($0) }
    }

    /// Forward of ``DeviceSubsystem/appDidBecomeActive()``.
    func appDidBecomeActive() {
        if waitingForActive { show() }
    }
}
