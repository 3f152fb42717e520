import PetSpotDomain
import ScenarioRunner
import Testing

/// The whole app on the simulated iPhone, every sequence of actions on both screens, and the checker
/// of its invariants.
@Suite(.timeLimit(.minutes(2))) struct AppExplorationTests {
    @Test func givenEverySequenceOfUpToFourActions_whenPlayedByPetspotExplore_thenInvariantsHold() async throws {
        let run = try await PetspotProcess.run(["explore", "--depth", "4"])

        #expect(run.status == 0, "\(run.standardError)")
        #expect(run.standardOutput.contains("invariants held in every sequence"))
        // The walk reached the story that matters: a grant on the permissions screen.
        let grants = run.standardOutput.firstMatch(of: /\((\d+) with location granted/).flatMap { Int($0.1) }
        #expect((grants ?? 0) > 0, "\(run.standardOutput)")
    }

    private func line(_ source: LogLine.Source, _ event: String, _ fields: [(String, String)] = []) -> LogLine {
        LogLine(atMs: 0, source: source, event: event, fields: fields.map { ($0.0, .string($0.1)) })
    }

    @Test func givenALocationWhileDenied_whenChecked_thenCoordinatesCameWithoutPermission() {
        let denied = line(.device, "systemAlertAnswered", [("choice", "dontAllow"), ("status", "denied")])
        let obtained = line(.app, "locationObtained")

        #expect(AppExploration.brokenInvariant(in: [obtained], start: .authorizedWhenInUse) == nil)
        #expect(AppExploration.brokenInvariant(in: [denied, obtained], start: .notDetermined)
            == "a location was obtained while the phone says denied")
    }

    @Test func givenThePopupWithALaterCheck_whenChecked_thenItCameTooLate() {
        let launched = line(.device, "appLaunched")
        let checked = line(.app, "permissionChecked", [("status", "denied")])
        let popup = line(.app, "customPopupShown", [("reason", "denied")])

        #expect(AppExploration.brokenInvariant(in: [launched, checked, popup], start: .denied) == nil)
        #expect(AppExploration.brokenInvariant(in: [launched, checked, checked, popup], start: .denied)
            == "the popup showed with status check 2 of its launch")
        #expect(AppExploration.brokenInvariant(in: [launched, checked, line(.device, "appLaunched"), checked, popup], start: .denied) == nil)
    }

    @Test func givenARequestThatNeverEnds_whenChecked_thenItIsLeftWaiting() {
        let lines = [line(.app, "permissionRequestStarted", [("permission", "location")])]

        #expect(AppExploration.brokenInvariant(in: lines, start: .notDetermined) == "1 location request(s) left waiting")
    }

    @Test func givenAnAnsweredAlert_whenItShowsAgain_thenAPromptShowedTwice() {
        let shown = line(.device, "systemAlertShown", [("alert", "locationWhenInUse")])
        let answered = line(.device, "systemAlertAnswered", [("choice", "dontAllow"), ("status", "denied")])
        let dismissed = line(.device, "systemAlertDismissed", [("alert", "locationWhenInUse")])

        #expect(AppExploration.brokenInvariant(in: [shown, dismissed, shown], start: .notDetermined)?.contains("again") != true)
        #expect(AppExploration.brokenInvariant(in: [shown, answered, shown], start: .notDetermined)
            == "iOS's locationWhenInUse alert shown again after it was answered")
    }

    @Test func givenAGrantInSettings_whenTheAppIsBackButTheStartupScreenMissedIt_thenTheScreensDisagreeWithThePhone() {
        let left = line(.device, "appBackgrounded")
        let granted = line(.device, "settingChanged", [("setting", "Location"), ("value", "whileUsing")])
        let back = line(.device, "appForegrounded")
        let checked = line(.app, "permissionChecked", [("status", "authorizedWhenInUse")])
        let appSaw = line(.app, "permissionStateChanged", [("permission", "location"), ("state", "authorized")])

        #expect(AppExploration.brokenInvariant(in: [left, granted], start: .denied) == nil)
        #expect(AppExploration.brokenInvariant(in: [left, granted, back], start: .denied)
            == "the app-wide location state is denied, the phone says authorizedWhenInUse")
        #expect(AppExploration.brokenInvariant(in: [left, granted, back, appSaw], start: .denied) == nil)
        #expect(AppExploration.brokenInvariant(in: [left, granted, back, checked, appSaw], start: .denied) == nil)
        #expect(AppExploration.brokenInvariant(in: [left, granted, back, line(.app, "permissionChecked", [("status", "denied")]), appSaw], start: .denied)
            == "the startup screen last saw denied, the phone says authorizedWhenInUse")
    }
}
