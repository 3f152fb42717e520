import PetSpotDomain

/// A closed-loop load: `clients` workers, each sending its next request as soon as the previous one
/// answered, until `requests` requests have been made (`petspot bench store`'s HTTP part).
public enum LoadLoop {
    public struct Result: Sendable {
        /// Each request's time, from sending to its answer, in no particular order.
        public var durations: [Duration]
        /// From the first request sent to the last answer.
        public var elapsed: Duration
        /// How many clients really ran: at least 1, at most one per request.
        public var clients: Int

        public var requestsPerSecond: Double {
            elapsed > .zero ? Double(durations.count) / elapsed.timeInterval : 0
        }
    }

    /// Makes requests `0..<requests`, each exactly once, over `clients` workers (at least 1, at most one
    /// per request): worker `w` of `n` sends `w`, `w + n`, `w + 2n`, …. The first error any request
    /// throws ends the run and is rethrown.
    public static func run(
        requests: Int,
        clients: Int,
        clock: some Clock<Duration> = ContinuousClock(),
        _ request: @escaping @Sendable (_ index: Int) async throws -> Void
    ) async throws -> Result {
        let workers = max(1, min(clients, requests))
        let start = clock.now
        let durations = try await withThrowingTaskGroup(of: [Duration].self) { group in
            for worker in 0..<workers {
                group.addTask {
                    var timings: [Duration] = []
                    for index in stride(from: worker, to: requests, by: workers) {
                        timings.append(try await clock.measure { try await request(index) })
                    }
                    return timings
                }
            }
            return try await group.reduce(into: []) { $0 += $1 }
        }
        return Result(durations: durations, elapsed: start.duration(to: clock.now), clients: workers)
    }
}
