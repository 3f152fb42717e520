import StartupFeature

/// Records a view model's ``AppEvent``s and lets a test wait for one (no time involved: it resumes
/// when the event is recorded).
@MainActor
final class EventRecorder {
    private(set) var events: [AppEvent] = []
    private var waiters: [(event: AppEvent, count: Int, continuation: CheckedContinuation<Void, Never>)] = []

    init(_ viewModel: AnimalListViewModel) {
        viewModel.onEvent = { [weak self] event in self?.record(event) }
    }

    func count(of event: AppEvent) -> Int {
        events.filter { $0 == event }.count
    }

    /// Returns once `event` has been recorded `count` times.
    func waitFor(_ event: AppEvent, count: Int = 1) async {
        if self.count(of: event) >= count { return }
        await withCheckedContinuation { waiters.append((event, count, $0)) }
    }

    private func record(_ event: AppEvent) {
        events.append(event)
        let ready = waiters.filter { self.count(of: $0.event) >= $0.count }
        waiters.removeAll { self.count(of: $0.event) >= $0.count }
        for waiter in ready { waiter.continuation.resume() }
    }
}
