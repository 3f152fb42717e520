import Testing

@testable import PetServer

/// Who builds or catches up a replica's position index: one read at a time, for at most its lease.
@Suite struct PostgresPositionIndexLeaseTests {
    private let start = ContinuousClock.now
    private let lease = Duration.seconds(60)
    private let stats = PostgresPositionIndex.Stats(version: 7, pets: 0, logStartsAfter: 0, lastLogID: 0)

    @Test func givenAReadBuilding_whenAnotherComesWithinTheLease_thenItAnswersFromTheDatabase() {
        var state = PostgresPositionIndex.State()
        let (first, work) = PostgresPositionIndex.plan(&state, at: stats, now: start, lease: lease)
        let (second, _) = PostgresPositionIndex.plan(&state, at: stats, now: start.advanced(by: .seconds(59)), lease: lease)

        guard case .build = first else { Issue.record("the first read should build, not \(first)"); return }
        guard case .answerFromDatabase = second else { Issue.record("the second read should use PostGIS, not \(second)"); return }
        #expect(work == 1)
        #expect(state.answersFromDatabase == 1)
    }

    @Test func givenABuildStuckPastItsLease_whenAnotherReadComes_thenItTakesTheWorkOver() {
        var state = PostgresPositionIndex.State()
        let (_, stuck) = PostgresPositionIndex.plan(&state, at: stats, now: start, lease: lease)
        let (plan, work) = PostgresPositionIndex.plan(&state, at: stats, now: start.advanced(by: .seconds(60)), lease: lease)

        guard case .build = plan else { Issue.record("the later read should build, not \(plan)"); return }
        #expect(work != stuck)
        #expect(state.busy?.work == work)
        #expect(state.answersFromDatabase == 0)
    }

    @Test func givenTheIndexAtTheSnapshotsVersion_whenARead_thenItIsUsedWhateverTheWork() {
        var state = PostgresPositionIndex.State()
        var index = PositionIndex(version: 7)
        index.lastChange = 0
        state.latest = index
        state.busy = (work: 3, until: start.advanced(by: lease))

        let (plan, _) = PostgresPositionIndex.plan(&state, at: stats, now: start, lease: lease)

        guard case .use(let used) = plan else { Issue.record("the held index should answer, not \(plan)"); return }
        #expect(used.version == 7)
    }
}
