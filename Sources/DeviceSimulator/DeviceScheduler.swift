/// Timed work of the device (fix delays, Allow Once expiry, queued callbacks), run in a fixed order.
///
/// Each job has a task sleeping on the injected clock that wakes the device at the job's deadline.
/// The device also catches up before every action and observation, so what a driver sees never
/// depends on which task the executor happens to run first: due jobs always run in
/// (deadline, scheduling order), and each runs "at" its deadline.
@MainActor
final class DeviceScheduler {
    /// Identifies a scheduled job, for cancelling it.
    struct JobID: Hashable, Sendable {
        fileprivate let value: Int
    }

    private struct Job {
        let id: JobID
        let deadline: Duration
        let work: @MainActor () -> Void
    }

    private var jobs: [Job] = []
    private var timers: [JobID: Task<Void, Never>] = [:]
    private var nextID = 0

    /// Adds `work` to run at `deadline`; `wake` is called by the job's timer task when it fires.
    func schedule(
        at deadline: Duration,
        time: VirtualTime,
        wake: @escaping @MainActor () -> Void,
        _ work: @escaping @MainActor () -> Void
    ) -> JobID {
        nextID += 1
        let id = JobID(value: nextID)
        jobs.append(Job(id: id, deadline: deadline, work: work))
        timers[id] = Task { @MainActor in
            do {
                // Already due (a zero delay, or the clock moved on before this task ran): no sleep.
                if time.elapsed() < deadline { try await time.sleepUntil(deadline) }
            } catch {
                return
            }
            wake()
        }
        return id
    }

    func cancel(_ id: JobID) {
        jobs.removeAll { $0.id == id }
        timers.removeValue(forKey: id)?.cancel()
    }

    /// Removes and returns the earliest job due at `now`, with its deadline.
    func popDue(at now: Duration) -> (deadline: Duration, work: @MainActor () -> Void)? {
        var best: Int?
        for index in jobs.indices where jobs[index].deadline <= now {
            if let current = best {
                let a = jobs[index], b = jobs[current]
                if a.deadline < b.deadline || (a.deadline == b.deadline && a.id.value < b.id.value) {
                    best = index
                }
            } else {
                best = index
            }
        }
        guard let index = best else { return nil }
        let job = jobs.remove(at: index)
        timers.removeValue(forKey: job.id)
        return (job.deadline, job.work)
    }
}
