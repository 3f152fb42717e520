import Foundation
import Testing

@Suite(.timeLimit(.minutes(1))) struct PetspotRunCommandTests {
    private func write(_ json: String) throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("scenario-\(UUID().uuidString).json")
        try Data(json.utf8).write(to: url)
        return url
    }

    @Test func givenAnAlertAnswerWhenNoAlertIsShowing_whenRun_thenExit2NamingTheStepAndTheLogSoFarIsPrinted() async throws {
        let file = try write("""
            {"name": "answering too early", "device": {"authorization": "denied"},
             "steps": [{"atMs": 0, "action": "launch"}, {"atMs": 100, "action": "answerSystemAlert", "choice": "allowOnce"}]}
            """)
        defer { try? FileManager.default.removeItem(at: file) }

        let run = try await PetspotProcess.run(["run", "--scenario", file.path])

        #expect(run.status == 2)
        #expect(run.standardError.contains("$.steps[1] (answerSystemAlert at 100 ms): no system alert is showing"))
        #expect(run.standardOutput.contains("appLaunched"))
    }

    @Test func givenAButtonTheCardDoesNotShow_whenTapped_thenExit2NamingWhatTheCardShows() async throws {
        let file = try write("""
            {"name": "allow on a denied card", "device": {"authorization": "denied"},
             "steps": [{"atMs": 0, "action": "launch"}, {"atMs": 100, "action": "tapPopup", "button": "cancel"},
                       {"atMs": 200, "action": "openPermissions"},
                       {"atMs": 300, "action": "tapPermission", "permission": "location", "button": "allow"}]}
            """)
        defer { try? FileManager.default.removeItem(at: file) }

        let run = try await PetspotProcess.run(["run", "--scenario", file.path])

        #expect(run.status == 2)
        #expect(run.standardError.contains(
            "$.steps[3] (tapPermission at 300 ms): the location card has no allow button now (it shows openSettings and learnMore)"
        ))
        #expect(run.standardOutput.contains("permissionsScreenShown"))
    }

    @Test func givenPetSpot_whenItsMotionCardIsTapped_thenExit2SayingPetSpotHasNone() async throws {
        let file = try write("""
            {"name": "motion in PetSpot", "device": {"authorization": "authorizedWhenInUse"},
             "steps": [{"atMs": 0, "action": "launch"}, {"atMs": 2000, "action": "openPermissions"},
                       {"atMs": 3000, "action": "tapPermission", "permission": "motion", "button": "learnMore"}]}
            """)
        defer { try? FileManager.default.removeItem(at: file) }

        let run = try await PetspotProcess.run(["run", "--scenario", file.path])

        #expect(run.status == 2)
        #expect(run.standardError.contains(
            "$.steps[2] (tapPermission at 3000 ms): PetSpot's permissions screen has no motion card: no feature of the app uses it"
        ))
    }

    @Test func givenNoMotionUsageDescription_whenAllowIsTapped_thenTheRequestIsRefusedAndNothingCrashes() async throws {
        let file = try write("""
            {"name": "no motion key", "app": "paintmytown",
             "device": {"authorization": "authorizedWhenInUse", "infoPlistHasMotionKey": false},
             "steps": [{"atMs": 0, "action": "launch"},
                       {"atMs": 3000, "action": "tapPermission", "permission": "motion", "button": "allow"}]}
            """)
        defer { try? FileManager.default.removeItem(at: file) }

        let run = try await PetspotProcess.run(["run", "--scenario", file.path, "--json"])

        #expect(run.status == 0, "\(run.standardError)")
        #expect(run.standardOutput.contains(
            #"{"atMs":3000,"source":"app","event":"permissionRequestRefused","permission":"motion","reason":"missingUsageDescription"}"#
        ))
        #expect(!run.standardOutput.contains("systemAlertShown"))
    }

    @Test func givenABadScenarioFile_whenRun_thenExit2WithTheJSONPathAndNothingOnStandardOutput() async throws {
        let file = try write(#"{"name": "typo", "steps": [{"atMs": 0, "action": "lanch"}]}"#)
        defer { try? FileManager.default.removeItem(at: file) }

        let run = try await PetspotProcess.run(["run", "--scenario", file.path])

        #expect(run.status == 2)
        #expect(run.standardError.contains("$.steps[0].action: \"lanch\" is not one of"))
        #expect(run.standardOutput.isEmpty)
    }

    @Test func givenAMissingFile_whenRun_thenExit2NamingTheFile() async throws {
        let run = try await PetspotProcess.run(["run", "--scenario", "/nonexistent/scenario.json"])

        #expect(run.status == 2)
        #expect(run.standardError.contains("/nonexistent/scenario.json"))
    }

    @Test(arguments: [["explore", "--server", "ftp://x"], ["appium", "--server", "nope"], ["run", "--scenario", "x.json", "--server", "/pets"]])
    func givenAServerThatIsNotAnHTTPURL_whenACommandStarts_thenAUsageErrorNamesIt(_ arguments: [String]) async throws {
        let run = try await PetspotProcess.run(arguments)

        #expect(run.status != 0)
        #expect(run.standardError.contains("--server must be an http(s) URL"))
        #expect(run.standardError.contains("\"\(arguments[arguments.count - 1])\""))
    }

    @Test func givenTheDemo_whenRunForOneStory_thenItTellsTheStoryAndEndsWithTheTable() async throws {
        let run = try await PetspotProcess.run(["demo", "--only", "us3-4"])

        #expect(run.status == 0, "\(run.standardError)")
        #expect(run.standardOutput.contains("They tap “Cancel”."))
        #expect(run.standardOutput.contains("us3-4-cancel  all (without location)"))
    }
}
