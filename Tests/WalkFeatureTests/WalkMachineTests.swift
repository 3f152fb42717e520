import AsyncSupport
import DeviceInterfaces
import Foundation
import PetSpotDomain
import Testing
import WalkFeature

/// One walk's rules, event by event.
@Suite struct WalkMachineTests {
    static let t0 = Date(timeIntervalSince1970: 1_700_000_000)
    /// About 1 m of latitude.
    static let metre = 1 / 111_195.0

    var state = WalkMachine.State()

    static func at(_ seconds: Double) -> Date { t0.addingTimeInterval(seconds) }

    /// A fix `north` metres north of (52.23, 21.01), taken `seconds` after the start.
    static func fix(_ north: Double, at seconds: Double, accuracy: Double = 5) -> UserLocation {
        // Coordinates in range: this cannot fail.
        (try? UserLocation(latitude: 52.23 + north * metre, longitude: 21.01, horizontalAccuracy: accuracy, timestamp: at(seconds)))!
    }

    static func activity(_ kind: MotionActivity.Kind, at seconds: Double, _ confidence: MotionActivity.Confidence = .high) -> MotionActivity {
        MotionActivity(kind, confidence: confidence, at: at(seconds))
    }

    @discardableResult
    mutating func send(_ events: WalkMachine.Event...) -> WalkMachine.Step {
        var last = WalkMachine.Step()
        for event in events { last = WalkMachine.step(&state, event) }
        return last
    }

    @Test mutating func givenMotionAllowed_whenAWalkStarts_thenLocationAndMotionStartAndStepsCount() {
        let step = send(.start(at: Self.at(0), autoPause: true))
        #expect(step.effects == [.startLocationUpdates, .startMotionUpdates, .keepWalk(WalkInProgress(state))])
        #expect(step.log == [.walkStarted(autoPause: true)])
        #expect(state.phase == .recording)
        #expect(state.steps == 0)
    }

    // MARK: Kept for a new process (rule 35)

    @Test mutating func givenAWalk_whenTenFixesAreRecordedOrItPauses_thenItIsKeptAndNotBefore() {
        send(.start(at: Self.at(0), autoPause: false))
        for index in 0..<WalkMachine.keepEvery - 1 {
            #expect(send(.located(Self.fix(Double(index) * 10, at: Double(index + 1)))).effects.isEmpty)
        }
        // A fix that is not recorded (too close to the last) does not count.
        #expect(send(.located(Self.fix(80, at: 9.5))).effects.isEmpty)
        let tenth = send(.located(Self.fix(90, at: 10)))
        #expect(tenth.effects == [.keepWalk(WalkInProgress(state))])
        #expect(WalkInProgress(state).route.joined().count == WalkMachine.keepEvery)
        #expect(send(.pause(at: Self.at(11))).effects == [.keepWalk(WalkInProgress(state))])
        #expect(send(.leftForeground).effects == [.keepWalk(WalkInProgress(state))])
    }

    @Test mutating func givenAKeptWalk_whenANewProcessRestoresIt_thenItGoesOnInANewSegmentAndTheGapIsNotCounted() {
        send(.start(at: Self.at(0), autoPause: true), .located(Self.fix(0, at: 1)), .located(Self.fix(40, at: 30)), .stepsCounted(50))
        let kept = WalkInProgress(state)
        state = WalkMachine.State()
        let restored = send(.restore(kept, at: Self.at(300)))
        #expect(restored.log == [.walkRestored(paused: false)])
        #expect(restored.effects.prefix(2) == [.startLocationUpdates, .startMotionUpdates])
        // Taken before the restore: iOS may hand over an old fix first.
        send(.located(Self.fix(400, at: 299)), .located(Self.fix(500, at: 301)), .located(Self.fix(530, at: 320)), .stepsCounted(700))
        let end = send(.end(at: Self.at(330)))
        guard case .walkEnded(let summary)? = end.log.first else {
            Issue.record("the walk did not end")
            return
        }
        #expect(summary.segments.map(\.count) == [2, 2])
        #expect(abs(summary.distanceMetres - 70) < 0.1)
        #expect(summary.steps == 700)
        #expect(summary.startedAt == Self.at(0))
    }

    @Test mutating func givenAKeptWalkLastSeenLongAgo_whenRestored_thenItEndsAtItsLastFixAndIsSaved() {
        send(.start(at: Self.at(0), autoPause: false), .located(Self.fix(0, at: 1)), .located(Self.fix(40, at: 30)))
        let kept = WalkInProgress(state)
        state = WalkMachine.State()
        let step = send(.restore(kept, at: Self.at(30 + WalkMachine.longestGap + 1)))
        guard case .walkEnded(let summary)? = step.log.first, case .finish? = step.effects.last else {
            Issue.record("the walk did not end: \(step)")
            return
        }
        #expect(summary.endedAt == Self.at(30))
        #expect(abs(summary.distanceMetres - 40) < 0.1)
        #expect(!state.isUnderWay)
        #expect(step.effects.first == .stopLocationUpdates)
        #expect(step.effects.count == 2)
    }

    @Test mutating func givenAPausedWalkKept_whenRestored_thenItIsStillPausedByThePerson() {
        send(.start(at: Self.at(0), autoPause: false), .pause(at: Self.at(5)))
        let kept = WalkInProgress(state)
        state = WalkMachine.State()
        #expect(send(.restore(kept, at: Self.at(60))).log == [.walkRestored(paused: true)])
        #expect(state.phase == .paused(.person))
        #expect(send(.restore(kept, at: Self.at(61))).log.isEmpty)
    }

    @Test mutating func givenMotionNotAllowed_whenAWalkStarts_thenLocationAloneAndNoSteps() {
        let step = send(.start(at: Self.at(0), autoPause: false), .stepsCounted(40))
        #expect(state.steps == nil)
        #expect(WalkMachine.step(&state, .activity(Self.activity(.stationary, at: 5))).log.isEmpty)
        #expect(state.phase == .recording)
        _ = step
        let start = WalkMachine.step(&state, .end(at: Self.at(9)))
        #expect(start.effects.first == .stopLocationUpdates)
        #expect(!start.effects.contains(.stopMotionUpdates))
    }

    @Test mutating func givenFixesWithAPause_whenTheWalkEnds_thenItsDistanceIsTheSumOfItsSegmentsAndTheGapIsNotCounted() throws {
        send(
            .start(at: Self.at(0), autoPause: false),
            .located(Self.fix(0, at: 1)), .located(Self.fix(30, at: 20)), .located(Self.fix(60, at: 40)),
            .pause(at: Self.at(41)),
            .located(Self.fix(500, at: 100)),
            .resume(at: Self.at(200)),
            .located(Self.fix(1000, at: 201)), .located(Self.fix(1040, at: 230))
        )
        let end = send(.end(at: Self.at(240)))
        guard case .walkEnded(let summary) = try #require(end.log.first) else {
            Issue.record("no walkEnded")
            return
        }
        #expect(summary.segments.map(\.count) == [3, 2])
        #expect(abs(summary.distanceMetres - 100) < 0.1, "\(summary.distanceMetres)")
        let sum = summary.segments.reduce(0.0) { total, segment in
            zip(segment, segment.dropFirst()).reduce(total) { $0 + $1.0.coordinate.distance(to: $1.1.coordinate) }
        }
        #expect(summary.distanceMetres == sum)
        #expect(end.effects == [.stopLocationUpdates, .finish(summary)])
    }

    @Test(arguments: [
        ("taken before the walk started", fix(10, at: -5)),
        ("less accurate than 50 m", fix(10, at: 5, accuracy: 65)),
        ("older than the last fix", fix(10, at: 1)),
        ("within 5 m of the last fix", fix(4, at: 5)),
    ])
    func givenAFixThatIsNotPartOfTheRoute_whenItArrives_thenItIsDropped(why: String, fix: UserLocation) {
        var state = WalkMachine.State()
        _ = WalkMachine.step(&state, .start(at: Self.at(0), autoPause: false))
        _ = WalkMachine.step(&state, .located(Self.fix(0, at: 2)))
        _ = WalkMachine.step(&state, .located(fix))
        #expect(state.segments == [[Self.fix(0, at: 2)]], "\(why)")
        #expect(state.distanceMetres == 0, "\(why)")
    }

    @Test mutating func givenAutoPause_whenThePersonStopsAndWalksOn_thenTheWalkPausesAndResumesOnANewSegment() {
        send(.start(at: Self.at(0), autoPause: true), .located(Self.fix(0, at: 1)), .located(Self.fix(20, at: 15)))
        #expect(send(.activity(Self.activity(.stationary, at: 20))).log == [.walkPaused(.stationary)])
        send(.located(Self.fix(40, at: 30)))
        #expect(send(.activity(Self.activity(.walking, at: 60))).log == [.walkResumed(.moving)])
        send(.located(Self.fix(45, at: 61)), .located(Self.fix(70, at: 80)))
        #expect(state.segments.map(\.count) == [2, 2])
    }

    @Test(arguments: [
        ("low confidence", activity(.stationary, at: 20, .low)),
        ("began before the walk started", activity(.stationary, at: -30)),
        ("in a car", activity(.automotive, at: 20)),
    ])
    func givenAnActivityThatSaysNothingOfAStop_whenItArrives_thenTheWalkGoesOn(why: String, activity: MotionActivity) {
        var state = WalkMachine.State()
        _ = WalkMachine.step(&state, .start(at: Self.at(0), autoPause: true))
        #expect(WalkMachine.step(&state, .activity(activity)).log.isEmpty, "\(why)")
        #expect(state.phase == .recording, "\(why)")
    }

    @Test mutating func givenThePersonPaused_whenMotionSaysWalking_thenOnlyThePersonResumes() {
        send(.start(at: Self.at(0), autoPause: true), .pause(at: Self.at(10)))
        #expect(send(.activity(Self.activity(.walking, at: 20))).log.isEmpty)
        #expect(state.phase == .paused(.person))
        #expect(send(.resume(at: Self.at(30))).log == [.walkResumed(.person)])
    }

    @Test mutating func givenAutoPaused_whenThePersonTapsPause_thenThePersonsPauseWins() {
        send(.start(at: Self.at(0), autoPause: true), .activity(Self.activity(.stationary, at: 10)))
        #expect(send(.pause(at: Self.at(12))).log == [.walkPaused(.person)])
        #expect(send(.activity(Self.activity(.walking, at: 20))).log.isEmpty)
    }

    @Test mutating func givenStepCounts_whenALateSmallerOneArrives_thenTheCountNeverGoesBack() {
        send(.start(at: Self.at(0), autoPause: true), .stepsCounted(120), .stepsCounted(90))
        #expect(state.steps == 120)
    }

    @Test mutating func givenAnEndedWalk_whenEventsKeepComing_thenNothingChanges() {
        send(.start(at: Self.at(0), autoPause: true), .located(Self.fix(0, at: 1)), .end(at: Self.at(5)))
        let ended = state
        for event: WalkMachine.Event in [
            .pause(at: Self.at(6)), .resume(at: Self.at(7)), .end(at: Self.at(8)), .located(Self.fix(50, at: 9)),
            .activity(Self.activity(.walking, at: 9)), .stepsCounted(10),
        ] {
            #expect(WalkMachine.step(&state, event) == WalkMachine.Step())
        }
        #expect(state == ended)
    }

    @Test mutating func givenASecondWalkOverTheSameStreet_whenItEnds_thenItPaintsNothingNew() throws {
        send(.start(at: Self.at(0), autoPause: false), .located(Self.fix(0, at: 1)), .located(Self.fix(300, at: 200)))
        let first = send(.end(at: Self.at(210)))
        send(.start(at: Self.at(300), autoPause: false), .located(Self.fix(300, at: 301)), .located(Self.fix(0, at: 500)))
        let second = send(.end(at: Self.at(510)))
        guard case .walkEnded(let one) = try #require(first.log.first), case .walkEnded(let two) = try #require(second.log.first) else {
            Issue.record("no walkEnded")
            return
        }
        #expect(one.newCells >= 3 && one.newCells == one.totalCells)
        #expect(two.newCells == 0)
        #expect(two.totalCells == one.totalCells)
    }
}
