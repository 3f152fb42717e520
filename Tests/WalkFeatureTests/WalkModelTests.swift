import AsyncSupport
import DeviceInterfaces
import Foundation
import PetSpotDomain
import TestSupport
import Synchronization
import Testing
import WalkFeature

/// The walk on the phone: what it starts and stops, what it keeps, what Health gets.
@MainActor
@Suite struct WalkModelTests {
    let location = FakeWalkLocation()
    let motion = FakeWalkMotion()
    let storage = InMemoryWalkStorage()
    let clock = TestDate()

    /// A date the test moves by hand.
    final class TestDate: Sendable {
        private let offset = Mutex(0.0)
        var seconds: Double {
            get { offset.withLock { $0 } }
            set { offset.withLock { $0 = newValue } }
        }
        var now: Date { WalkMachineTests.at(seconds) }
    }

    func model(workouts: FakeWorkouts? = FakeWorkouts(), hasMotion: Bool = true) -> WalkModel {
        WalkModel(
            location: location, motion: hasMotion ? motion : nil, workouts: workouts, storage: storage,
            now: { [clock] in clock.now }
        )
    }

    func record(_ walk: WalkModel, north metres: [Double]) async {
        for (index, north) in metres.enumerated() {
            let count = walk.state.segments.joined().count
            location.send(WalkMachineTests.fix(north, at: clock.seconds + Double(index + 1)))
            #expect(await waitUntilObserved { walk.state.segments.joined().count == count + 1 })
        }
    }

    @Test func givenEveryPermission_whenAWalkIsRecordedAndEnded_thenHealthHasItAndTheTownIsKept() async throws {
        let workouts = FakeWorkouts()
        let walk = model(workouts: workouts)
        var events: [WalkModel.Event] = []
        walk.onEvent = { events.append($0) }
        walk.start(autoPause: true)
        #expect(location.activities.count == 1 && location.activities[0].isValid)
        #expect(motion.stepsFrom == clock.now)
        await record(walk, north: [0, 50, 100])
        motion.send(steps: 140)
        #expect(await waitUntilObserved { walk.state.steps == 140 })
        clock.seconds = 60
        walk.end()
        await walk.waitUntilIdle()
        #expect(!location.activities[0].isValid)
        let saved = try #require(workouts.saved.first)
        #expect(abs(saved.distanceMetres - 100) < 0.1)
        #expect(saved.steps == 140)
        #expect(saved.route.map(\.count) == [3])
        #expect(storage.paintedCells == walk.state.painted && !storage.paintedCells.isEmpty)
        #expect(storage.walks.map(\.savedToHealth) == [true])
        #expect(events.last == .workoutSaved)
    }

    @Test func givenASaveUnansweredWhenTheProcessEnded_whenTheAppLaunchesAgain_thenItIsSavedAsTheSameWalk() async throws {
        let first = FakeWorkouts()
        first.holdsSaves = true
        defer { first.releaseHeldSaves() }
        let walk = model(workouts: first)
        walk.start(autoPause: true)
        await record(walk, north: [0, 50])
        walk.pause()
        clock.seconds = 30
        walk.resume()
        await record(walk, north: [60, 100])
        clock.seconds = 60
        walk.end()
        // The process ends here: Health has not answered, and the walk says so.
        #expect(storage.walks.map(\.savedToHealth) == [nil])
        #expect(await waitUntilObserved { first.attempts.count == 1 })

        let health = FakeWorkouts()
        let next = model(workouts: health)
        var events: [WalkModel.Event] = []
        next.onEvent = { events.append($0) }
        clock.seconds = 600
        next.restore()
        await next.waitUntilIdle()

        let saved = try #require(health.saved.first)
        #expect(health.saved.count == 1)
        // The same walk in Health, with a greater version: it replaces what the first attempt left.
        #expect(saved.syncIdentifier == first.attempts[0].syncIdentifier)
        #expect(saved.syncIdentifier == storage.walks[0].syncIdentifier)
        #expect(saved.syncVersion > first.attempts[0].syncVersion)
        #expect(saved.route.map(\.count) == [2, 2])
        #expect(storage.walks.map(\.savedToHealth) == [true])
        #expect(events == [.workoutSaved])
    }

    @Test func givenWalksHealthAnswered_whenTheAppLaunchesAgain_thenNoneIsSavedAgain() async {
        let walk = model(workouts: FakeWorkouts(refusal: .notAuthorized))
        walk.start(autoPause: true)
        await record(walk, north: [0, 30])
        walk.end()
        await walk.waitUntilIdle()
        let health = FakeWorkouts()
        let next = model(workouts: health)
        next.restore()
        await next.waitUntilIdle()
        #expect(health.saved.isEmpty)
        #expect(storage.walks.map(\.savedToHealth) == [false])
    }

    @Test func givenHealthRefuses_whenAWalkEnds_thenItIsKeptInTheAppAndTheLogSaysWhy() async {
        let walk = model(workouts: FakeWorkouts(refusal: .notAuthorized))
        var events: [WalkModel.Event] = []
        walk.onEvent = { events.append($0) }
        walk.start(autoPause: true)
        await record(walk, north: [0, 30])
        walk.end()
        await walk.waitUntilIdle()
        #expect(events.last == .workoutNotSaved(.notAuthorized))
        #expect(storage.walks.count == 1 && storage.walks[0].savedToHealth == false)
        #expect(storage.walks[0].distanceMetres > 29)
        // Nothing lost: the route is kept too.
        #expect(storage.walks[0].route.map(\.count) == [2])
        #expect(storage.walks[0].route.first?.first == RoutePoint(WalkMachineTests.fix(0, at: 1)))
    }

    @Test func givenAnAppWithoutMotion_whenAWalkStartsAskingForAutoPause_thenItHasNoneAndNoSteps() {
        let walk = model(hasMotion: false)
        walk.start(autoPause: true)
        #expect(!walk.state.autoPause)
        #expect(walk.state.steps == nil)
        #expect(motion.stepsFrom == nil)
    }

    @Test func givenMotion_whenThePersonStops_thenTheWalkPausesItself() async {
        let walk = model()
        walk.start(autoPause: true)
        motion.send(MotionActivity(.stationary, confidence: .high, at: WalkMachineTests.at(5)))
        #expect(await waitUntilObserved { walk.state.phase == .paused(.stationary) })
    }

    @Test func givenAStoredTown_whenTheAppStartsAgain_thenTheWalkKnowsWhatWasPainted() async {
        let first = model()
        first.start(autoPause: false)
        await record(first, north: [0, 200])
        first.end()
        await first.waitUntilIdle()
        let painted = storage.paintedCells
        let second = model()
        #expect(second.state.paintedBefore == painted)
        #expect(second.walks.count == 1)
    }

    @Test func givenAWalkUnderWayWhenTheProcessEnded_whenANewProcessRestoresIt_thenItGoesOnAndEndsOnce() async throws {
        let first = model()
        first.start(autoPause: false)
        #expect(location.monitorsForRelaunch)
        await record(first, north: [0, 30])
        first.leftForeground()
        #expect(storage.walkInProgress?.route.joined().count == 2)
        // The process ends without a word: nothing but what was kept survives.
        clock.seconds = 600
        let second = model()
        var events: [WalkModel.Event] = []
        second.onEvent = { events.append($0) }
        second.restore()
        #expect(events == [.walk(.walkRestored(paused: false))])
        #expect(location.activities.count == 2 && location.activities[1].isValid)
        await record(second, north: [500, 540])
        second.end()
        await second.waitUntilIdle()
        #expect(storage.walkInProgress == nil)
        #expect(!location.monitorsForRelaunch)
        #expect(second.walks.count == 1)
        #expect(abs((second.walks.first?.distanceMetres ?? 0) - 70) < 0.1)
        // Nothing is left to restore.
        let third = model()
        third.restore()
        #expect(!third.state.isUnderWay)
    }

    @Test func givenNoWalkKept_whenTheAppLaunches_thenItAsksIOSForNoRelaunch() {
        location.startRelaunchMonitoring()
        let walk = model()
        walk.restore()
        #expect(!location.monitorsForRelaunch)
        #expect(!walk.state.isUnderWay)
    }

    @Test func givenAWalkInProgressInUserDefaults_whenReadBackOrCleared_thenItIsTheSameOrGone() throws {
        let defaults = try #require(UserDefaults(suiteName: "walk-storage-\(UUID().uuidString)"))
        let kept = UserDefaultsWalkStorage(defaults: defaults)
        var state = WalkMachine.State()
        _ = WalkMachine.step(&state, .start(at: WalkMachineTests.at(0), autoPause: true))
        _ = WalkMachine.step(&state, .located(WalkMachineTests.fix(0, at: 1)))
        _ = WalkMachine.step(&state, .pause(at: WalkMachineTests.at(2)))
        kept.walkInProgress = WalkInProgress(state)
        #expect(UserDefaultsWalkStorage(defaults: defaults).walkInProgress == WalkInProgress(state))
        kept.walkInProgress = nil
        #expect(UserDefaultsWalkStorage(defaults: defaults).walkInProgress == nil)
        #expect(defaults.data(forKey: "paintMyTown.walkInProgress") == nil)
    }

    @Test func givenAWalkKeptInUserDefaults_whenReadBack_thenItIsTheSameRouteIncluded() throws {
        let defaults = try #require(UserDefaults(suiteName: "walk-storage-\(UUID().uuidString)"))
        let kept = UserDefaultsWalkStorage(defaults: defaults)
        var state = WalkMachine.State()
        _ = WalkMachine.step(&state, .start(at: WalkMachineTests.at(0), autoPause: false))
        _ = WalkMachine.step(&state, .located(WalkMachineTests.fix(0, at: 1)))
        let step = WalkMachine.step(&state, .end(at: WalkMachineTests.at(2)))
        guard case .walkEnded(let summary)? = step.log.first else {
            Issue.record("no walkEnded")
            return
        }
        kept.walks = [StoredWalk(summary, savedToHealth: false)]
        kept.paintedCells = state.painted
        kept.onboardingCompleted = true
        let read = UserDefaultsWalkStorage(defaults: defaults)
        #expect(read.walks == kept.walks)
        #expect(read.paintedCells == state.painted)
        #expect(read.onboardingCompleted)
    }

    @Test func givenAWalkKeptBeforeRoutesWere_whenReadBack_thenItHasNoRouteAndNothingElseIsLost() throws {
        let json = #"{"startedAt": 0, "endedAt": 60, "distanceMetres": 80, "steps": 100, "newCells": 2, "savedToHealth": true}"#
        let walk = try JSONDecoder().decode(StoredWalk.self, from: Data(json.utf8))
        #expect(walk.route.isEmpty)
        #expect(walk.distanceMetres == 80 && walk.steps == 100 && walk.savedToHealth == true)
    }

    @Test func givenUnreadableWalks_whenRead_thenTheyAreSetAsideNotOverwritten() throws {
        let defaults = try #require(UserDefaults(suiteName: "walk-storage-\(UUID().uuidString)"))
        defaults.set(Data("not json".utf8), forKey: "paintMyTown.walks")
        let storage = UserDefaultsWalkStorage(defaults: defaults)
        #expect(storage.walks.isEmpty)
        storage.walks = []
        #expect(defaults.data(forKey: "paintMyTown.walks.unreadable") == Data("not json".utf8))
    }
}
