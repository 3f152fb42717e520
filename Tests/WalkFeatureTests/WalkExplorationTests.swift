import AsyncSupport
import DeviceInterfaces
import Foundation
import PetSpotDomain
import Testing
import WalkFeature

/// Random orders of every event a walk can meet, from fixed seeds, against the invariants of a walk.
@Suite struct WalkExplorationTests {
    static let t0 = Date(timeIntervalSince1970: 1_700_000_000)

    /// One random event around `clock` seconds, which moves on by a few seconds.
    static func event(_ random: inout SplitMix64, clock: inout Double, north: inout Double) -> WalkMachine.Event {
        clock += Double(random.index(20))
        // Sometimes late: an event stamped before the one sent before it.
        let when = t0.addingTimeInterval(clock - (random.index(5) == 0 ? Double(random.index(60)) : 0))
        switch random.index(9) {
        case 0: return .start(at: when, autoPause: random.index(2) == 0)
        case 1: return .pause(at: when)
        case 2: return .resume(at: when)
        case 3: return .end(at: when)
        case 4:
            return .activity(MotionActivity(
                random.pick(MotionActivity.Kind.allCases), confidence: random.pick(MotionActivity.Confidence.allCases), at: when))
        case 5: return .stepsCounted(random.index(5000))
        default:
            north += Double(random.index(40)) - 8
            let accuracy = random.pick([3.0, 10, 49, 50, 51, 200])
            // In range for any walk this short: cannot fail.
            return .located((try? UserLocation(latitude: 52.23 + north / 111_195, longitude: 21.01, horizontalAccuracy: accuracy, timestamp: when))!)
        }
    }

    static func length(_ segment: [UserLocation]) -> Double {
        zip(segment, segment.dropFirst()).reduce(0) { $0 + $1.0.coordinate.distance(to: $1.1.coordinate) }
    }

    @Test(arguments: 0..<200)
    func givenRandomEvents_whenAWalkIsRecorded_thenEveryInvariantHolds(seed: UInt64) {
        var random = SplitMix64(seed: seed)
        var state = WalkMachine.State()
        var clock = 0.0
        var north = 0.0
        var recordedWhileRecording = true
        for _ in 0..<120 {
            let before = state
            let event = Self.event(&random, clock: &clock, north: &north)
            let step = WalkMachine.step(&state, event)
            let recorded = state.segments.joined().count > before.segments.joined().count && before.startedAt == state.startedAt
            if recorded, before.phase != .recording { recordedWhileRecording = false }
            // The distance is the sum of the recorded segments, exactly as they were added up.
            let sum = state.segments.reduce(0) { $0 + Self.length($1) }
            #expect(abs(state.distanceMetres - sum) <= 1e-9 * max(1, sum), "seed \(seed)")
            #expect(state.newCells.isDisjoint(with: state.paintedBefore), "seed \(seed)")
            #expect(state.paintedBefore.isSuperset(of: before.paintedBefore), "seed \(seed): painted cells were lost")
            if let steps = before.steps, let now = state.steps, before.startedAt == state.startedAt {
                #expect(now >= steps, "seed \(seed)")
            }
            for segment in state.segments {
                #expect(segment.allSatisfy { $0.horizontalAccuracy <= 50 }, "seed \(seed)")
                #expect(zip(segment, segment.dropFirst()).allSatisfy { $0.0.timestamp < $0.1.timestamp }, "seed \(seed)")
            }
            if case .walkEnded(let summary) = step.log.last {
                #expect(step.effects.last == .finish(summary), "seed \(seed)")
                #expect(summary.totalCells == state.painted.count, "seed \(seed)")
            }
            // Motion runs exactly while a walk with auto-pause is under way.
            if step.effects.contains(.startMotionUpdates) { #expect(state.autoPause && state.isUnderWay) }
            if step.effects.contains(.stopMotionUpdates) { #expect(before.autoPause && !state.isUnderWay) }
        }
        #expect(recordedWhileRecording, "seed \(seed): a fix was recorded while the walk was not recording")
    }
}
