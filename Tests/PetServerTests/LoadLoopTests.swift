import PetServer
import Testing

@Suite(.timeLimit(.minutes(1))) struct LoadLoopTests {
    /// How many requests run at once, and the most that ever did.
    private actor Gauge {
        private(set) var running = 0
        private(set) var most = 0
        private(set) var seen: [Int] = []

        func enter(_ index: Int) {
            running += 1
            most = max(most, running)
            seen.append(index)
        }

        func leave() { running -= 1 }
    }

    @Test func givenTenRequestsOverThreeClients_whenRun_thenEachRequestIsMadeOnceAndAtMostThreeRunAtOnce() async throws {
        let gauge = Gauge()
        let result = try await LoadLoop.run(requests: 10, clients: 3) { index in
            await gauge.enter(index)
            await Task.yield()
            await gauge.leave()
        }
        #expect(result.durations.count == 10)
        #expect(result.clients == 3)
        #expect(await gauge.seen.sorted() == Array(0..<10))
        #expect(await gauge.most <= 3)
        #expect(result.requestsPerSecond > 0)
    }

    @Test func givenMoreClientsThanRequests_whenRun_thenOnlyTheRequestsAreMade() async throws {
        let gauge = Gauge()
        let result = try await LoadLoop.run(requests: 2, clients: 8) { index in await gauge.enter(index) }
        #expect(result.durations.count == 2)
        #expect(result.clients == 2)
        #expect(await gauge.seen.sorted() == [0, 1])
    }

    private struct Refused: Error {}

    @Test func givenARequestThatFails_whenRun_thenTheRunThrowsItsError() async {
        await #expect(throws: Refused.self) {
            _ = try await LoadLoop.run(requests: 6, clients: 2) { index in
                if index == 4 { throw Refused() }
            }
        }
    }
}
