/// A permission prompt shown as the device's system alert the way iOS shows one: only while the app is
/// in the foreground and no other alert is up. A prompt that cannot show yet is shown as soon as it
/// can: when the alert in its way is answered, or when the app is next active. A prompt on screen
/// when the app leaves the foreground (or ends) goes away unanswered, as the location alert does.
@MainActor
final class ForegroundPrompt {
    private weak var device: SimulatedDevice?
    private let alert: SystemAlert
    private var isHeldBack = false
    /// What the person's tap does; set by the subsystem that owns the prompt.
    var onAnswer: @MainActor (SystemAlertButton) -> Void = { _ in }
    /// What happens when the prompt goes away unanswered; set by the subsystem that owns the prompt.
    var onDismiss: @MainActor () -> Void = {}

    init(device: SimulatedDevice, alert: SystemAlert) {
        self.device = device
        self.alert = alert
    }

    /// Shows the prompt now if iOS could, otherwise as soon as the app is next active.
    func show() {
        guard let device else { return }
        guard device.phase.isForeground, !device.isShowingSystemAlert else {
            isHeldBack = true
            return
        }
        isHeldBack = false
        let onAnswer = self.onAnswer
        let onDismiss = self.onDismiss
        device.presentSystemAlert(alert, onAnswer: { onAnswer($0) }, onDismiss: { onDismiss() })
    }

    /// Forward of ``DeviceSubsystem/appDidBecomeActive()``.
    func appDidBecomeActive() {
        if isHeldBack { show() }
    }

    /// Forward of ``DeviceSubsystem/systemAlertDidClose()``.
    func systemAlertDidClose() {
        if isHeldBack { show() }
    }

    /// The app ends with the prompt still waiting to show: it never will (the request died with the
    /// process).
    func appWillTerminate() {
        if isHeldBack {
            isHeldBack = false
            onDismiss()
        }
    }
}
