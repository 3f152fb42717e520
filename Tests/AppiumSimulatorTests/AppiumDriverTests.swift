@testable import AppiumSimulator
import AsyncSupport
import Foundation
import PetServer
import Logging
import PaintMyTownFeature
import Permissions
import ScenarioRunner
import StartupFeature
import Testing

/// The WebDriver surface of the simulated iPhone, request by request, as an Appium client sends them.
/// The phone's "wall clock" is a `VirtualClock` the test moves; the listing comes from a real server.
@Suite("Appium driver", .serialized)
@MainActor
struct AppiumDriverTests {
    static let bundle = "org.petspot.PetSpot"

    /// A driver over a fresh listing server; `body` gets the driver and its clock.
    private func withDriver(_ body: (AppiumDriver, VirtualClock) async throws -> Void) async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("appium-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let server = try await startPetServer(configuration: PetServerConfiguration(
            port: 0, database: directory.appendingPathComponent("pets.sqlite").path, demoPetsWhenEmpty: 100, logLevel: .error
        ))
        let clock = VirtualClock()
        let driver = AppiumDriver(serverURL: server.baseURL, clock: clock)
        do {
            try await body(driver, clock)
        } catch {
            await driver.shutdown()
            await server.stop()
            throw error
        }
        await driver.shutdown()
        await server.stop()
    }

    private func send(_ driver: AppiumDriver, _ method: String, _ path: String, _ body: JSONValue? = nil) async -> (status: Int, body: JSONValue) {
        await driver.handle(method: method, path: path, body: body?.encoded() ?? Data())
    }

    private func capabilities(_ extra: [String: JSONValue] = [:]) -> JSONValue {
        var always: [String: JSONValue] = [
            "platformName": .string("iOS"), "appium:automationName": .string("XCUITest"), "appium:bundleId": .string(Self.bundle),
        ]
        always.merge(extra) { _, new in new }
        return .object(["capabilities": .object(["alwaysMatch": .object(always), "firstMatch": .array([.object([:])])])])
    }

    private func session(_ driver: AppiumDriver, location: String) async throws -> String {
        let permissions = "{\"\(Self.bundle)\": {\"location\": \"\(location)\"}}"
        let reply = await send(driver, "POST", "/session", capabilities(["appium:permissions": .string(permissions)]))
        try #require(reply.status == 200, "\(reply.body)")
        return try #require(reply.body["value"]?["sessionId"]?.string)
    }

    private func find(_ driver: AppiumDriver, _ session: String, _ id: String) async -> (status: Int, body: JSONValue) {
        await send(driver, "POST", "/session/\(session)/element", .object(["using": .string("accessibility id"), "value": .string(id)]))
    }

    private func elementID(_ reply: (status: Int, body: JSONValue)) throws -> String {
        try #require(reply.body["value"]?["element-6066-11e4-a52e-4f735466cecf"]?.string, "\(reply.body)")
    }

    /// The text of the element named `id` once it satisfies `condition`, moving the phone's clock on by
    /// half a second before each look, at most `looks` times. The trap: what the app does between two
    /// looks hops to the location bridge's actor, which other tests may keep waiting, and the clock does
    /// not wait for it; the fix and the timeout it races are both armed by that actor, so a late hop
    /// delays both, but a fix still queued when the clock passes the timeout can lose to it.
    private func text(
        _ driver: AppiumDriver, _ session: String, _ id: String, clock: VirtualClock, looks: Int = 40,
        until condition: (String) -> Bool
    ) async -> String? {
        var last: String?
        for _ in 0..<looks {
            clock.advance(by: .milliseconds(500))
            let found = await find(driver, session, id)
            if let element = found.body["value"]?["element-6066-11e4-a52e-4f735466cecf"]?.string {
                last = await send(driver, "GET", "/session/\(session)/element/\(element)/text").body["value"]?.string
                if let last, condition(last) { return last }
            }
        }
        return last
    }

    private func error(_ reply: (status: Int, body: JSONValue)) -> String? {
        reply.body["value"]?["error"]?.string
    }

    @Test func givenRowsWhoseIdsDifferOnlyInNormalization_whenKeyed_thenTheyAreTwoElements() {
        let composed = ElementKey(kind: .cell, identifier: "animalRow.\u{E9}-9", label: "")
        let decomposed = ElementKey(kind: .cell, identifier: "animalRow.e\u{301}-9", label: "")
        #expect(Set([composed, decomposed]).count == 2)
        #expect(Set([composed, ElementKey(kind: .cell, identifier: "animalRow.\u{E9}-9", label: "")]).count == 1)
    }

    @Test func givenNoSession_whenStatusAsked_thenReadyForAnXCUITestSession() async throws {
        try await withDriver { driver, _ in
            let reply = await send(driver, "GET", "/status")
            #expect(reply.status == 200)
            #expect(reply.body["value"]?["ready"] == .bool(true))
            #expect(reply.body["value"]?["build"]?["automationName"] == .string("XCUITest"))
        }
    }

    @Test func givenARunningSession_whenASecondIsAsked_thenItIsRefused() async throws {
        try await withDriver { driver, _ in
            _ = try await session(driver, location: "inuse")
            let second = await send(driver, "POST", "/session", capabilities())
            #expect(second.status == 500)
            #expect(error(second) == "session not created")
        }
    }

    @Test func givenAnotherBundle_whenSessionAsked_thenSessionNotCreatedNamesIt() async throws {
        try await withDriver { driver, _ in
            let reply = await send(driver, "POST", "/session", capabilities(["appium:bundleId": .string("com.example.Other")]))
            #expect(error(reply) == "session not created")
            #expect(reply.body["value"]?["message"]?.string?.contains("com.example.Other") == true)
        }
    }

    @Test func givenALocationValueXCUITestDoesNotKnow_whenSessionAsked_thenTheMessageNamesIt() async throws {
        try await withDriver { driver, _ in
            let permissions = "{\"\(Self.bundle)\": {\"location\": \"sometimes\"}}"
            let reply = await send(driver, "POST", "/session", capabilities(["appium:permissions": .string(permissions)]))
            #expect(error(reply) == "session not created")
            #expect(reply.body["value"]?["message"]?.string?.contains("(got 'sometimes')") == true)
        }
    }

    @Test func givenACapabilityInBothAlwaysAndFirstMatch_whenSessionAsked_thenInvalidArgumentNamesIt() async throws {
        try await withDriver { driver, _ in
            let body: JSONValue = .object(["capabilities": .object([
                "alwaysMatch": .object(["platformName": .string("iOS")]),
                "firstMatch": .array([.object(["platformName": .string("iOS")])]),
            ])])
            let reply = await send(driver, "POST", "/session", body)
            #expect(reply.status == 400 && error(reply) == "invalid argument")
            #expect(reply.body["value"]?["message"]?.string?.contains("'platformName'") == true)
        }
    }

    @Test func givenSimctlPermissionValues_whenSessionAsked_thenAlwaysIsWhatIOSReports() async throws {
        try await withDriver { driver, _ in
            let permissions = "{\"\(Self.bundle)\": {\"location-always\": \"yes\", \"camera\": \"no\"}}"
            let reply = await send(driver, "POST", "/session", capabilities(["appium:permissions": .string(permissions)]))
            let id = try #require(reply.body["value"]?["sessionId"]?.string, "\(reply.body)")
            let location = await send(driver, "POST", "/session/\(id)/execute/sync", .object([
                "script": .string("mobile: getPermission"),
                "args": .array([.object(["bundleId": .string(Self.bundle), "service": .string("location")])]),
            ]))
            #expect(location.body["value"] == .string("always"))
        }
    }

    @Test func givenABadDeviceField_whenSessionAsked_thenTheMessageNamesThePath() async throws {
        try await withDriver { driver, _ in
            let reply = await send(driver, "POST", "/session", capabilities(["petspot:device": .object(["fixDelayMs": .string("slow")])]))
            #expect(error(reply) == "session not created")
            #expect(reply.body["value"]?["message"]?.string?.contains("$.fixDelayMs") == true)
        }
    }

    @Test func givenHostileRequests_whenSent_thenWebDriverErrorBodies() async throws {
        try await withDriver { driver, _ in
            let id = try await session(driver, location: "inuse")
            let unknownPath = await send(driver, "GET", "/session/\(id)/window/rect")
            #expect(unknownPath.status == 404 && error(unknownPath) == "unknown command")
            let wrongMethod = await send(driver, "DELETE", "/status")
            #expect(wrongMethod.status == 405 && error(wrongMethod) == "unknown method")
            let wrongSessionMethod = await send(driver, "GET", "/session/\(id)/element")
            #expect(wrongSessionMethod.status == 405 && error(wrongSessionMethod) == "unknown method")
            let notJSON = await driver.handle(method: "POST", path: "/session/\(id)/element", body: Data("{\"using\":".utf8))
            #expect(notJSON.status == 400 && error(notJSON) == "invalid argument")
            let xpath = await send(driver, "POST", "/session/\(id)/element", .object(["using": .string("xpath"), "value": .string("//*")]))
            #expect(xpath.status == 400 && error(xpath) == "invalid selector")
            let noSession = await send(driver, "GET", "/session/not-a-session/source")
            #expect(noSession.status == 404 && error(noSession) == "invalid session id")
            let script = await send(driver, "POST", "/session/\(id)/execute/sync", .object(["script": .string("mobile: shake"), "args": .array([])]))
            #expect(script.status == 500 && error(script) == "unsupported operation")
            let noAlert = await send(driver, "POST", "/session/\(id)/alert/accept")
            #expect(noAlert.status == 404 && error(noAlert) == "no such alert")
            let missing = await find(driver, id, "startup.nothingHere")
            #expect(missing.status == 404 && error(missing) == "no such element")
        }
    }

    @Test func givenDenied_whenCancelTappedByAccessibilityID_thenThePopupGoesAndItsElementIsStale() async throws {
        try await withDriver { driver, clock in
            let id = try await session(driver, location: "never")
            let title = await text(driver, id, AccessibilityIdentifiers.PermissionPopup.title, clock: clock) { !$0.isEmpty }
            #expect(title == "Location Access Needed")
            let popup = try elementID(await find(driver, id, AccessibilityIdentifiers.PermissionPopup.popup))
            let cancel = try elementID(await find(driver, id, AccessibilityIdentifiers.PermissionPopup.cancel))
            let label = await send(driver, "GET", "/session/\(id)/element/\(cancel)/attribute/label")
            #expect(label.body["value"] == .string("Cancel"))
            #expect(await send(driver, "POST", "/session/\(id)/element/\(cancel)/click").status == 200)
            clock.advance(by: .seconds(1))
            let stale = await send(driver, "GET", "/session/\(id)/element/\(popup)/text")
            #expect(error(stale) == "stale element reference")
            let summary = await text(driver, id, AccessibilityIdentifiers.AnimalList.summary, clock: clock) { $0 == "20 pets, newest first" }
            #expect(summary == "20 pets, newest first")
            let source = await send(driver, "GET", "/session/\(id)/source")
            #expect(source.body["value"]?.string?.contains("name=\"\(AccessibilityIdentifiers.AnimalList.list)\"") == true)
        }
    }

    @Test func givenNotAsked_whenAlertAcceptedWithItsLabel_thenTheListingIsNearby() async throws {
        try await withDriver { driver, clock in
            let id = try await session(driver, location: "unset")
            let buttons = await send(driver, "POST", "/session/\(id)/execute/sync", .object([
                "script": .string("mobile: alert"), "args": .array([.object(["action": .string("getButtons")])]),
            ]))
            #expect(buttons.body["value"] == .array([.string("Allow Once"), .string("Allow While Using App"), .string("Don’t Allow")]))
            let accepted = await send(driver, "POST", "/session/\(id)/execute/sync", .object([
                "script": .string("mobile: alert"),
                "args": .array([.object(["action": .string("accept"), "buttonLabel": .string("Allow While Using App")])]),
            ]))
            #expect(accepted.status == 200)
            let summary = await text(driver, id, AccessibilityIdentifiers.AnimalList.summary, clock: clock) { $0.hasSuffix("near you") }
            #expect(summary?.hasSuffix("near you") == true, "\(String(describing: summary))")
        }
    }

    /// Every bundled scenario that opens with a launch alone at its first moment, started as a session
    /// with its phone and network: when `POST /session` answers, what that moment of its expected log
    /// shows is on screen without any wait — iOS's alert, the popup — and the first listing is asked for.
    @Test(arguments: [17, 18, 26])
    func givenEachBundledLaunch_whenTheSessionStarts_thenItsFirstMomentIsOnScreen(iosVersion: Int) async throws {
        try await withDriver { driver, _ in
            var launches = 0
            for file in BundledScenarios.files {
                let scenario = try JSONDecoder().decode(JSONValue.self, from: Data(contentsOf: file))
                let steps = scenario["steps"]?.array ?? []
                // PetSpot's launches: the driver serves PetSpot.
                guard scenario["app"] == nil || scenario["app"] == .string("petspot"),
                    steps.first?["action"] == .string("launch"), steps.first?["atMs"] == .number(0),
                    steps.count < 2 || (steps[1]["atMs"]?.number ?? 0) > 0
                else { continue }
                let expected = try String(contentsOf: file.deletingPathExtension().appendingPathExtension("expected.jsonl"), encoding: .utf8)
                let atLaunch = expected.split(separator: "\n").filter { $0.hasPrefix(#"{"atMs":0,"#) }
                var device = scenario["device"]?.object ?? [:]
                if device["iosVersion"] == nil { device["iosVersion"] = .number(Double(iosVersion)) }
                var extra: [String: JSONValue] = ["petspot:device": .object(device)]
                if let network = scenario["network"] { extra["petspot:network"] = network }
                let reply = await send(driver, "POST", "/session", capabilities(extra))
                let id = try #require(reply.body["value"]?["sessionId"]?.string, "\(file.lastPathComponent): \(reply.body)")

                let name = file.lastPathComponent
                let alert = await send(driver, "GET", "/session/\(id)/alert/text")
                #expect((alert.status == 200) == atLaunch.contains { $0.contains(#""event":"systemAlertShown""#) }, "\(name): \(alert.body)")
                let popup = await find(driver, id, AccessibilityIdentifiers.PermissionPopup.popup)
                #expect((popup.status == 200) == atLaunch.contains { $0.contains(#""event":"customPopupShown""#) }, "\(name): \(popup.body)")
                let log = await send(driver, "POST", "/session/\(id)/execute/sync", .object(["script": .string("petspot: eventLog"), "args": .array([])]))
                let events = (log.body["value"]?.array ?? []).compactMap(\.string)
                #expect(events.contains { $0.contains("permissionChecked") }, "\(name): \(events)")
                #expect(events.contains { $0.contains("queryStarted") || $0.contains("locationRequested") }, "\(name): \(events)")
                #expect(await send(driver, "DELETE", "/session/\(id)").status == 200)
                launches += 1
            }
            #expect(launches >= 30)
        }
    }

    @Test func givenTheAppInFront_whenGoToSettingsTapped_thenSettingsIsInFrontAndTheAppInTheBackground() async throws {
        try await withDriver { driver, clock in
            let id = try await session(driver, location: "never")
            _ = await text(driver, id, AccessibilityIdentifiers.PermissionPopup.title, clock: clock) { !$0.isEmpty }
            let settings = try elementID(await find(driver, id, AccessibilityIdentifiers.PermissionPopup.goToSettings))
            _ = await send(driver, "POST", "/session/\(id)/element/\(settings)/click")
            func state(_ bundle: String) async -> JSONValue? {
                await send(driver, "POST", "/session/\(id)/execute/sync", .object([
                    "script": .string("mobile: queryAppState"), "args": .array([.object(["bundleId": .string(bundle)])]),
                ])).body["value"]
            }
            #expect(await state("com.apple.Preferences") == .number(4))
            #expect(await state(Self.bundle) == .number(3))
            _ = await send(driver, "POST", "/session/\(id)/execute/sync", .object([
                "script": .string("mobile: setPermission"),
                "args": .array([.object(["bundleId": .string(Self.bundle), "access": .object(["location": .string("inuse")])])]),
            ]))
            _ = await send(driver, "POST", "/session/\(id)/execute/sync", .object([
                "script": .string("mobile: activateApp"), "args": .array([.object(["bundleId": .string(Self.bundle)])]),
            ]))
            #expect(await state(Self.bundle) == .number(4))
            let summary = await text(driver, id, AccessibilityIdentifiers.AnimalList.summary, clock: clock) { $0.hasSuffix("near you") }
            #expect(summary?.hasSuffix("near you") == true, "\(String(describing: summary))")
        }
    }

    // MARK: Paint My Town

    static let paintMyTown = "org.petspot.PaintMyTown"

    /// A Paint My Town session: While Using, Motion and Health allowed, a walk 1 km due north.
    private func paintMyTownSession(_ driver: AppiumDriver) async throws -> String {
        let permissions = "{\"\(Self.paintMyTown)\": {\"location\": \"inuse\", \"motion\": \"yes\", \"health\": \"yes\"}}"
        let path: JSONValue = .array([.array([.number(52.2297), .number(21.0122)]), .array([.number(52.2387), .number(21.0122)])])
        let reply = await send(driver, "POST", "/session", capabilities([
            "appium:bundleId": .string(Self.paintMyTown), "appium:permissions": .string(permissions),
            "petspot:device": .object(["walk": .object(["path": path])]),
        ]))
        try #require(reply.status == 200, "\(reply.body)")
        return try #require(reply.body["value"]?["sessionId"]?.string)
    }

    private func tap(_ driver: AppiumDriver, _ session: String, _ id: String) async throws {
        let element = try elementID(await find(driver, session, id))
        let reply = await send(driver, "POST", "/session/\(session)/element/\(element)/click")
        #expect(reply.status == 200, "\(id): \(reply.body)")
    }

    @Test func givenPaintMyTown_whenOnboardedAndAWalkIsStartedAndEnded_thenTheWalkScreenSaysWhatBecameOfIt() async throws {
        try await withDriver { driver, clock in
            let id = try await paintMyTownSession(driver)
            let source = await send(driver, "GET", "/session/\(id)/source").body["value"]?.string ?? ""
            #expect(source.contains("label=\"Paint My Town\""))
            #expect(source.contains("name=\"\(PermissionsAccessibilityIdentifiers.done)\""), "the onboarding is not first")
            try await tap(driver, id, PermissionsAccessibilityIdentifiers.done)
            try await tap(driver, id, WalkAccessibilityIdentifiers.control(.start))
            let status = await text(driver, id, WalkAccessibilityIdentifiers.status, clock: clock) { $0 == "Recording your walk" }
            #expect(status == "Recording your walk")
            // "Distance: 0.03 km": the number, once the person has walked a few fixes' worth.
            func kilometres(_ text: String) -> Double { Double(text.split(separator: " ").dropFirst().first ?? "") ?? 0 }
            let distance = await text(driver, id, WalkAccessibilityIdentifiers.distance, clock: clock) { kilometres($0) >= 0.02 }
            #expect(distance.map(kilometres) ?? 0 >= 0.02, "\(String(describing: distance))")
            #expect(await find(driver, id, WalkAccessibilityIdentifiers.control(.start)).status == 404)
            try await tap(driver, id, WalkAccessibilityIdentifiers.control(.end))
            let health = await text(driver, id, WalkAccessibilityIdentifiers.health, clock: clock) { $0 != "Saving to Health…" }
            #expect(health == "Saved to Health.")
            let last = await text(driver, id, WalkAccessibilityIdentifiers.lastWalk, clock: clock) { !$0.isEmpty }
            #expect(last?.hasPrefix("Last walk: 0.0") == true, "\(String(describing: last))")
            let state = await send(driver, "POST", "/session/\(id)/execute/sync", .object([
                "script": .string("mobile: queryAppState"), "args": .array([.object(["bundleId": .string(Self.paintMyTown)])]),
            ]))
            #expect(state.body["value"] == .number(4))
            // PetSpot is installed too; this session never runs it.
            let other = await send(driver, "POST", "/session/\(id)/execute/sync", .object([
                "script": .string("mobile: queryAppState"), "args": .array([.object(["bundleId": .string(Self.bundle)])]),
            ]))
            #expect(other.body["value"] == .number(1))
            let launch = await send(driver, "POST", "/session/\(id)/execute/sync", .object([
                "script": .string("mobile: launchApp"), "args": .array([.object(["bundleId": .string(Self.bundle)])]),
            ]))
            #expect(launch.body["value"]?["message"]?.string?.contains("this session drives '\(Self.paintMyTown)'") == true)
        }
    }

    @Test func givenPaintMyTownAndLocationDenied_whenStartTapped_thenTheScreenSaysWhyAndNothingIsRecorded() async throws {
        try await withDriver { driver, clock in
            let permissions = "{\"\(Self.paintMyTown)\": {\"location\": \"never\"}}"
            let reply = await send(driver, "POST", "/session", capabilities([
                "appium:bundleId": .string(Self.paintMyTown), "appium:permissions": .string(permissions),
            ]))
            let id = try #require(reply.body["value"]?["sessionId"]?.string, "\(reply.body)")
            try await tap(driver, id, PermissionsAccessibilityIdentifiers.done)
            try await tap(driver, id, WalkAccessibilityIdentifiers.control(.start))
            let notice = await text(driver, id, WalkAccessibilityIdentifiers.notice, clock: clock) { !$0.isEmpty }
            #expect(notice?.hasPrefix("Location is not allowed") == true, "\(String(describing: notice))")
            #expect(await find(driver, id, WalkAccessibilityIdentifiers.distance).status == 404)
        }
    }

    @Test func givenAPaintMyTownSession_whenPermissionsNamePetSpot_thenSessionNotCreatedNamesBoth() async throws {
        try await withDriver { driver, _ in
            let permissions = "{\"\(Self.bundle)\": {\"location\": \"inuse\"}}"
            let reply = await send(driver, "POST", "/session", capabilities([
                "appium:bundleId": .string(Self.paintMyTown), "appium:permissions": .string(permissions),
            ]))
            #expect(error(reply) == "session not created")
            let message = reply.body["value"]?["message"]?.string ?? ""
            #expect(message.contains(Self.bundle) && message.contains(Self.paintMyTown), "\(message)")
        }
    }

    @Test func givenASession_whenDeleted_thenANewOneCanStart() async throws {
        try await withDriver { driver, _ in
            let id = try await session(driver, location: "inuse")
            #expect(await send(driver, "DELETE", "/session/\(id)").status == 200)
            #expect(await send(driver, "GET", "/session/\(id)/source").status == 404)
            _ = try await session(driver, location: "never")
        }
    }
}
