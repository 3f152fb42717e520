import Foundation
import ScenarioRunner
import Testing
import WalkFeature

/// Paint My Town on the simulated iPhone, every sequence of actions up to a depth, and the checker of
/// the walk's invariants.
@Suite(.timeLimit(.minutes(3))) struct WalkExplorationTests {
    @Test func givenEverySequenceOfUpToFourActions_whenPlayedByPetspotExplore_thenTheWalksInvariantsHold() async throws {
        let run = try await PetspotProcess.run(["explore", "--app", "paintmytown", "--depth", "4"])

        #expect(run.status == 0, "\(run.standardError)")
        #expect(run.standardOutput.contains("invariants held in every sequence"))
        // The exploration reached walks that ended, where the invariants have most to check.
        let ended = run.standardOutput.firstMatch(of: /\((\d+) with a walk ended/).flatMap { Int($0.1) }
        #expect((ended ?? 0) > 0, "\(run.standardOutput)")
    }

    private func line(_ atMs: Int, _ source: LogLine.Source, _ event: String, _ fields: [(String, LogLine.Value)] = []) -> LogLine {
        LogLine(atMs: atMs, source: source, event: event, fields: fields)
    }

    /// A walk kept by the app, 100 m due north in two fixes taken at `seconds` after the epoch.
    private func keptWalk(at seconds: [Double], distance: Double = 100) throws -> StoredWalk {
        let points = zip(seconds, [0.0, 100]).map { time, north in
            #"{"latitude": \#(52.23 + north / 111_195.0), "longitude": 21.01, "horizontalAccuracy": 5, "timestamp": \#(time)}"#
        }
        let json = #"{"startedAt": 0, "endedAt": 60, "distanceMetres": \#(distance), "newCells": 1, "route": [[\#(points.joined(separator: ","))]]}"#
        return try JSONDecoder().decode(StoredWalk.self, from: Data(json.utf8))
    }

    @Test func givenAWalkStartedWhileLocationIsDenied_whenChecked_thenLocationWasRecordedWithoutPermission() {
        let denied = line(1000, .device, "systemAlertAnswered", [("choice", .string("dontAllow")), ("status", .string("denied"))])
        let started = line(2000, .app, "walkStarted", [("autoPause", .bool(false))])

        #expect(WalkExploration.brokenInvariant(in: .init(lines: [started]), start: .everythingAllowed) == nil)
        #expect(WalkExploration.brokenInvariant(in: .init(lines: [denied, started]), start: .nothingAsked)
            == "walkStarted while the phone says denied")
    }

    @Test func givenARoutePointTakenAfterLocationWasTurnedOff_whenChecked_thenItIsFound() throws {
        let started = line(0, .app, "walkStarted", [("autoPause", .bool(false))])
        let off = line(30_000, .device, "settingChanged", [("setting", .string("Location")), ("value", .string("never"))])
        let ended = line(60_000, .app, "walkEnded", [("distanceM", .int(0)), ("newCells", .int(1)), ("totalCells", .int(1))])
        let saved = line(60_000, .app, "workoutSaved")
        let lines = [started, off, ended, saved]

        // JSONDecoder's dates count from 2001: so does this run.
        let epoch = Date(timeIntervalSinceReferenceDate: 0)
        let within = ScenarioRun.Outcome(lines: lines, walks: [try keptWalk(at: [10, 20])], epoch: epoch)
        #expect(WalkExploration.brokenInvariant(in: within, start: .everythingAllowed) == nil)
        let after = ScenarioRun.Outcome(lines: lines, walks: [try keptWalk(at: [10, 40])], epoch: epoch)
        #expect(WalkExploration.brokenInvariant(in: after, start: .everythingAllowed)
            == "a route point taken at 40000 ms, while the phone did not allow location")
    }

    @Test func givenAKeptWalkWhoseDistanceIsNotItsSegments_whenChecked_thenItIsFound() throws {
        let lines = [
            line(0, .app, "walkStarted", [("autoPause", .bool(false))]),
            line(100_000, .app, "walkEnded", [("distanceM", .int(120)), ("newCells", .int(1)), ("totalCells", .int(1))]),
            line(100_000, .app, "workoutSaved"),
        ]
        let outcome = ScenarioRun.Outcome(lines: lines, walks: [try keptWalk(at: [10, 20], distance: 120)])

        #expect(WalkExploration.brokenInvariant(in: outcome, start: .everythingAllowed)?.hasPrefix("a walk of 120.0 m whose segments add up to 100.0") == true)
    }

    @Test func givenAWalkLongerThanThePersonWalked_whenChecked_thenItIsFound() {
        let lines = [
            line(0, .app, "walkStarted", [("autoPause", .bool(false))]),
            line(10_000, .app, "walkEnded", [("distanceM", .int(50)), ("newCells", .int(1)), ("totalCells", .int(1))]),
        ]

        #expect(WalkExploration.brokenInvariant(in: .init(lines: lines), start: .everythingAllowed)
            == "a walk of 50 m where the person walked 14 m")
    }

    @Test func givenSavingRefusedOnHealthsSheet_whenAWorkoutIsSaved_thenItWasSavedWithoutPermission() {
        let shown = line(0, .device, "systemAlertShown", [("alert", .string("health"))])
        let refused = line(1000, .device, "systemAlertAnswered", [("alert", .string("health")), ("choice", .string("dontAllow"))])
        let saved = line(2000, .app, "workoutSaved")

        #expect(WalkExploration.brokenInvariant(in: .init(lines: [shown, refused, saved]), start: .everythingAllowed)
            == "a workout saved without permission to save workouts")
    }

    @Test func givenAWalkThatEndedWithoutHealthsAnswer_whenChecked_thenItIsFound() {
        let lines = [
            line(0, .app, "walkStarted", [("autoPause", .bool(false))]),
            line(10_000, .app, "walkEnded", [("distanceM", .int(10)), ("newCells", .int(1)), ("totalCells", .int(1))]),
        ]

        #expect(WalkExploration.brokenInvariant(in: .init(lines: lines), start: .everythingAllowed)
            == "1 walk(s) ended, Health answered 0 time(s)")
    }
}
