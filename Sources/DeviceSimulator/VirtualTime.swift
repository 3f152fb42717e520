import Foundation
import PetSpotDomain

/// The device's view of the injected clock: elapsed virtual time since the device started, a way to
/// sleep until a moment of that time, and the matching `Date`.
struct VirtualTime: Sendable {
    let epoch: Date
    let elapsed: @Sendable () -> Duration
    let sleepUntil: @Sendable (Duration) async throws -> Void

    init<C: Clock>(clock: C, epoch: Date) where C.Duration == Duration {
        let start = clock.now
        self.epoch = epoch
        self.elapsed = { start.duration(to: clock.now) }
        self.sleepUntil = { try await clock.sleep(until: start.advanced(by: $0), tolerance: nil) }
    }

    func date(at elapsed: Duration) -> Date {
        epoch.addingTimeInterval(elapsed.timeInterval)
    }
}
