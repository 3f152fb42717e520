import DeviceInterfaces
import Foundation
import PetSpotDomain
import ScenarioRunner
import Testing

@Suite struct ScenarioParsingTests {
    private func parse(_ json: String) throws(ScenarioFileError) -> Scenario {
        try Scenario.parse(Data(json.utf8))
    }

    private func error(_ json: String) -> ScenarioFileError? {
        do {
            _ = try parse(json)
            return nil
        } catch {
            return error
        }
    }

    @Test func givenTheIssuesExampleFile_whenParsed_thenEveryFieldIsRead() throws {
        let scenario = try parse("""
            {"name": "first launch", "device": {"authorization": "notDetermined", "locationServicesEnabled": true,
              "preciseLocation": false, "infoPlistHasWhenInUseKey": true, "position": {"lat": 52.2297, "lon": 21.0122},
              "fixDelayMs": 800, "cachedFix": {"lat": 52.23, "lon": 21.01, "ageMs": 30000}},
             "network": {"latencyMs": 40, "reachable": true},
             "steps": [{"atMs": 0, "action": "launch"},
                       {"atMs": 1200, "action": "answerSystemAlert", "choice": "allowWhileUsing"}]}
            """)
        #expect(scenario.name == "first launch")
        #expect(scenario.device.preciseLocation == false)
        #expect(scenario.device.position == Scenario.Coordinate(lat: 52.2297, lon: 21.0122))
        #expect(scenario.device.cachedFix == Scenario.CachedFix(position: .init(lat: 52.23, lon: 21.01), ageMs: 30000))
        #expect(scenario.steps == [
            .init(atMs: 0, action: .launch), .init(atMs: 1200, action: .answerSystemAlert(.allowWhileUsing)),
        ])
    }

    @Test func givenThePlaceActions_whenParsed_thenTextIndexOrIdAreRead_andBothOrNeitherIsRefused() throws {
        let scenario = try parse("""
            {"name": "p", "steps": [{"atMs": 0, "action": "searchPlace", "text": "krak"},
              {"atMs": 1, "action": "choosePlace", "index": 2}, {"atMs": 2, "action": "choosePlace", "id": "geonames:1"},
              {"atMs": 3, "action": "clearPlace"}, {"atMs": 4, "action": "tapPopup", "button": "choosePlace"}]}
            """)
        #expect(scenario.steps.map(\.action) == [
            .searchPlace("krak"), .choosePlace(.index(2)), .choosePlace(.id("geonames:1")), .clearPlace, .tapPopup(.choosePlace),
        ])
        #expect(scenario.searchesPlaces)
        #expect(error(#"{"name": "p", "steps": [{"atMs": 0, "action": "choosePlace", "index": 1, "id": "x"}]}"#)
            == ScenarioFileError(path: "$.steps[0]", message: "choosePlace needs index (0 to 9) or id, not both"))
        #expect(error(#"{"name": "p", "steps": [{"atMs": 0, "action": "choosePlace"}]}"#)
            == ScenarioFileError(path: "$.steps[0]", message: "choosePlace needs index (0 to 9) or id, not both"))
        #expect(error(#"{"name": "p", "steps": [{"atMs": 0, "action": "searchPlace"}]}"#)?.path == "$.steps[0].text")
    }

    @Test func givenNesting20000Deep_whenParsed_thenTheErrorSaysHowDeepIsAllowedAndWhere() {
        let json = String(repeating: "[", count: 20_000) + String(repeating: "]", count: 20_000)
        let refused = error(json)
        #expect(refused?.message == "not valid JSON at line 1, column 65: nested deeper than 64 levels")
        #expect(refused?.path.hasPrefix("$[0][0]") == true)
    }

    @Test func givenInvalidUTF8_whenParsed_thenTheErrorNamesItsValueAndByte() throws {
        var data = Data(#"{"name": "caf"#.utf8)
        data.append(contentsOf: [0xC3, 0x28])
        data.append(Data(#"", "steps": []}"#.utf8))
        #expect(throws: ScenarioFileError(path: "$.name", message: "not valid JSON at line 1, column 14: invalid UTF-8 (byte 13 of the file)")) {
            try Scenario.parse(data)
        }
    }

    @Test func givenAKeyTwice_whenParsed_thenTheErrorNamesTheKeyItsObjectAndWhere() {
        let json = """
            {"name": "n",
             "device": {"authorization": "denied", "authorization": "notDetermined"},
             "steps": [{"atMs": 0, "action": "launch"}]}
            """
        #expect(error(json) == ScenarioFileError(path: "$.device", message: "duplicate key `authorization` (line 2, column 40)"))
        #expect(error(#"{"name": "a", "n\u0061me": "b", "steps": []}"#)?.message.hasPrefix("duplicate key `name`") == true)
    }

    @Test func givenADuplicateKeyFarAlongOneLine_whenParsed_thenItsColumnIsWhereTheKeyStarts() {
        let before = #"{"name": "n", "steps": ["# + String(repeating: #"{"atMs": 0, "action": "launch"}, "#, count: 500)
        let json = before + #"{"atMs": 1, "atMs": 2, "action": "launch"}]}"#
        let column = before.count + #"{"atMs": 1, "#.count + 1
        #expect(error(json) == ScenarioFileError(path: "$.steps[500]", message: "duplicate key `atMs` (line 1, column \(column))"))
    }

    @Test(arguments: [
        (#"{"name": "n", "steps": [}"#, "$.steps[0]", "line 1, column 25: expected a value"),
        ("{\"name\": \"n\",\n  \"steps\" []}", "$", "line 2, column 11: expected ':' after the key `steps`"),
        (#"{"name": "n"} x"#, "$", "line 1, column 15: unexpected text after the JSON value"),
        (#"{"name": "n", "steps": [01]}"#, "$.steps[0]", "a number cannot start with 0"),
        (#"{"name": "n\q"}"#, "$.name", "unknown escape \\q"),
    ])
    func givenJSONWithASyntaxError_whenParsed_thenTheErrorNamesLineColumnAndPath(_ json: String, _ path: String, _ message: String) {
        let refused = error(json)
        #expect(refused?.path == path, "\(String(describing: refused))")
        #expect(refused?.message.contains(message) == true, "\(String(describing: refused))")
    }

    @Test func givenOnlyNameAndSteps_whenParsed_thenEveryOtherFieldHasItsDocumentedDefault() throws {
        let scenario = try parse(#"{"name": "n", "steps": [{"atMs": 0, "action": "launch"}]}"#)
        #expect(scenario.device == Scenario.Device())
        #expect(scenario.device.authorization == .notDetermined)
        #expect(scenario.device.fixDelayMs == 800)
        #expect(scenario.device.iosVersion == 26)
        #expect(scenario.device.infoPlistRequiresExplicitServiceSession)
        #expect(scenario.network == Scenario.Network(latencyMs: 40, reachable: true))
    }

    @Test func givenAnIOSVersion_whenParsed_thenASimulatedOneIsReadAndAnyOtherIsRefusedByName() throws {
        let scenario = try parse(#"{"name": "n", "device": {"iosVersion": 17}, "steps": [{"atMs": 0, "action": "launch"}]}"#)
        #expect(scenario.device.iosVersion == 17)

        let refused = error(#"{"name": "n", "device": {"iosVersion": 16}, "steps": [{"atMs": 0, "action": "launch"}]}"#)
        #expect(refused == ScenarioFileError(path: "$.device.iosVersion", message: "iOS 16 is not simulated; use one of 17, 18, 26"))
    }

    @Test func givenNullPosition_whenParsed_thenNoFixIsPossible() throws {
        let scenario = try parse(#"{"name": "n", "device": {"position": null}, "steps": [{"atMs": 0, "action": "launch"}]}"#)
        #expect(scenario.device.position == nil)
    }

    @Test func givenEveryAction_whenParsed_thenEachIsRecognised() throws {
        let scenario = try parse("""
            {"name": "n", "steps": [
              {"atMs": 0, "action": "launch"}, {"atMs": 1, "action": "background"}, {"atMs": 2, "action": "foreground"},
              {"atMs": 3, "action": "tapRetry"}, {"atMs": 4, "action": "tapPopup", "button": "goToSettings"},
              {"atMs": 5, "action": "settings", "authorization": "denied", "preciseLocation": false},
              {"atMs": 6, "action": "moveTo", "lat": -33.9, "lon": 151.2},
              {"atMs": 7, "action": "network", "reachable": false}, {"atMs": 8, "action": "terminate"}]}
            """)
        #expect(scenario.steps.map(\.action.name) == [
            "launch", "background", "foreground", "tapRetry", "tapPopup", "settings", "moveTo", "network", "terminate",
        ])
        #expect(scenario.steps[5].action == .settings(.init(authorization: .denied, preciseLocation: false)))
    }

    @Test(arguments: [
        (#"{"name": "n", "steps": [{"atMs": 0, "action": "answerSystemAlert", "choice": "maybe"}]}"#, "$.steps[0].choice"),
        (#"{"name": "n", "steps": [{"atMs": 0, "action": "jump"}]}"#, "$.steps[0].action"),
        (#"{"name": "n", "steps": [{"atMs": -5, "action": "launch"}]}"#, "$.steps[0].atMs"),
        (#"{"name": "n", "steps": [{"atMs": 10, "action": "launch"}, {"atMs": 5, "action": "background"}]}"#, "$.steps[1].atMs"),
        (#"{"name": "n", "device": {"authorisation": "denied"}, "steps": [{"atMs": 0, "action": "launch"}]}"#, "$.device.authorisation"),
        (#"{"name": "n", "device": {"authorization": "granted"}, "steps": [{"atMs": 0, "action": "launch"}]}"#, "$.device.authorization"),
        (#"{"name": "n", "device": {"position": {"lat": 95, "lon": 0}}, "steps": [{"atMs": 0, "action": "launch"}]}"#, "$.device.position.lat"),
        (#"{"name": "n", "device": {"fixDelayMs": "fast"}, "steps": [{"atMs": 0, "action": "launch"}]}"#, "$.device.fixDelayMs"),
        (#"{"name": "n", "network": {"reachable": 1}, "steps": [{"atMs": 0, "action": "launch"}]}"#, "$.network.reachable"),
        (#"{"name": "n", "steps": [{"atMs": 0, "action": "tapPopup"}]}"#, "$.steps[0].button"),
        (#"{"name": "n", "steps": [{"atMs": 0, "action": "launch", "choice": "dontAllow"}]}"#, "$.steps[0].choice"),
        (#"{"name": "n", "steps": [{"atMs": 0, "action": "settings"}]}"#, "$.steps[0]"),
        (#"{"name": "n", "steps": []}"#, "$.steps"),
        (#"{"steps": [{"atMs": 0, "action": "launch"}]}"#, "$.name"),
        (#"[1, 2]"#, "$"),
        (#"{"name": "n", "steps": [ {"atMs": 0 "#, "$.steps[0]"),
    ])
    func givenABadScenario_whenParsed_thenTheErrorNamesTheJSONPathOfTheProblem(json: String, path: String) {
        let failure = error(json)
        #expect(failure?.path == path, "\(failure?.description ?? "no error")")
        #expect(failure?.message.isEmpty == false)
    }

    @Test func givenAnUnknownChoice_whenParsed_thenTheMessageListsTheAllowedValues() {
        let failure = error(#"{"name": "n", "steps": [{"atMs": 0, "action": "answerSystemAlert", "choice": "yes"}]}"#)
        #expect(failure?.description == "$.steps[0].choice: \"yes\" is not one of allowWhileUsing | allowOnce | dontAllow | changeToAlwaysAllow | keepOnlyWhileUsing | allow | allowAll")
    }
}

/// Paint My Town's part of the format: `app`, `device.walk` and the walk's steps.
@Suite struct WalkScenarioParsingTests {
    private func parse(_ json: String) throws(ScenarioFileError) -> Scenario {
        try Scenario.parse(Data(json.utf8))
    }

    @Test func givenAWalkScenario_whenParsed_thenTheAppTheRouteTheActivityAndTheStepsAreRead() throws {
        let scenario = try parse("""
            {"name": "w", "app": "paintmytown",
             "device": {"walk": {"path": [[52.2, 21.0], [52.3, 21.1]], "speedMps": 1.2,
                                 "activity": [{"atMs": 1000, "kind": "stationary"}]}},
             "steps": [{"atMs": 0, "action": "launch"}, {"atMs": 1, "action": "startWalk"}, {"atMs": 2, "action": "pauseWalk"},
                       {"atMs": 3, "action": "resumeWalk"}, {"atMs": 4, "action": "endWalk"}]}
            """)
        #expect(scenario.app == .paintmytown)
        #expect(scenario.device.walk == Scenario.Walk(
            path: [.init(lat: 52.2, lon: 21.0), .init(lat: 52.3, lon: 21.1)], speedMps: 1.2,
            activity: [.init(atMs: 1000, kind: .stationary)]))
        #expect(scenario.steps.map(\.action) == [.launch, .startWalk, .pauseWalk, .resumeWalk, .endWalk])
    }

    @Test func givenNoApp_whenParsed_thenPetSpot() throws {
        #expect(try parse(#"{"name": "n", "steps": [{"atMs": 0, "action": "launch"}]}"#).app == .petspot)
    }

    @Test(arguments: [
        (#"{"name": "n", "device": {"walk": {"path": [[1, 2], [3, 4]]}}, "steps": [{"atMs": 0, "action": "launch"}]}"#,
         "$.device.walk", "PetSpot records no walks"),
        (#"{"name": "n", "app": "paintmytown", "device": {"walk": {"path": [[1, 2]]}}, "steps": [{"atMs": 0, "action": "launch"}]}"#,
         "$.device.walk.path", "at least 2 points"),
        (#"{"name": "n", "app": "paintmytown", "device": {"walk": {"path": [[1, 2, 3], [3, 4]]}}, "steps": [{"atMs": 0, "action": "launch"}]}"#,
         "$.device.walk.path[0]", "[lat, lon]"),
        (#"{"name": "n", "app": "paintmytown", "device": {"walk": {"path": [[1, 2], [3, 4]], "speedMps": 40}}, "steps": [{"atMs": 0, "action": "launch"}]}"#,
         "$.device.walk.speedMps", "not between 0.1 and 10"),
        (#"{"name": "n", "app": "paintmytown", "device": {"walk": {"path": [[1, 2], [3, 4]], "activity": [{"atMs": 5, "kind": "walking"}, {"atMs": 1, "kind": "stationary"}]}}, "steps": [{"atMs": 0, "action": "launch"}]}"#,
         "$.device.walk.activity[1].atMs", "in time order"),
        (#"{"name": "n", "app": "cats", "steps": [{"atMs": 0, "action": "launch"}]}"#, "$.app", "petspot"),
    ])
    func givenABadWalkFile_whenParsed_thenTheErrorNamesWhereAndWhat(_ json: String, _ path: String, _ message: String) {
        do {
            _ = try parse(json)
            Issue.record("parsed")
        } catch {
            #expect(error.path == path, "\(error)")
            #expect(error.message.contains(message), "\(error)")
        }
    }
}
