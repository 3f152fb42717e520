import AsyncSupport
import StartupFeature
import TestSupport

/// Records a view model's ``StartupEvent``s and lets a test wait for one (no time involved: it resumes
/// when the event is recorded).
@MainActor
final class EventRecorder {
    private(set) var events: [StartupEvent] = []
    private let waiters = ConditionWaiters()

    init(_ viewModel: AnimalListViewModel) {
        viewModel.onEvent = { [weak self] event in self?.record(event) }
    }

    /// The causes of every custom popup shown, in order.
    var popupsShown: [PermissionPopupReason] {
        events.compactMap { if case .customPopupShown(let reason) = $0 { reason } else { nil } }
    }

    func count(of event: StartupEvent) -> Int {
        events.filter { $0 == event }.count
    }

    /// Returns once `event` has been recorded `count` times (or the test is cancelled).
    func waitFor(_ event: StartupEvent, count: Int = 1) async {
        await waiters.wait { [unowned self] in self.count(of: event) >= count }
    }

    private func record(_ event: StartupEvent) {
        events.append(event)
        waiters.changed()
    }
}
