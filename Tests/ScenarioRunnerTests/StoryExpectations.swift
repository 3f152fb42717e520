import Foundation
import Testing

/// What a person must see in each scenario, beyond matching its golden log: the checks that make a
/// golden file more than a snapshot.
struct StoryExpectation {
    /// Whether the last listing shown came with location.
    var finalListingWithLocation: Bool
    /// How many times the custom popup appears.
    var popups: Int
    /// How many times iOS shows its location alert.
    var systemAlerts: Int = 0
    /// How many queries fail.
    var failedQueries: Int = 0
    /// The state each permission's last `permissionStateChanged` reports (permissions not listed must
    /// not change).
    var permissionStates: [String: String] = [:]

    static let byScenario: [String: StoryExpectation] = [
        "edge-allow-once-relaunch": .init(
            finalListingWithLocation: false, popups: 0, systemAlerts: 2, permissionStates: ["location": "denied"]),
        "edge-background-during-popup": .init(finalListingWithLocation: false, popups: 1),
        "edge-alert-left-unanswered": .init(finalListingWithLocation: true, popups: 0, systemAlerts: 2),
        "edge-change-during-query": .init(finalListingWithLocation: true, popups: 1),
        "edge-fix-too-slow": .init(finalListingWithLocation: false, popups: 0),
        "edge-location-services-off": .init(finalListingWithLocation: false, popups: 1),
        "edge-missing-info-plist-key": .init(finalListingWithLocation: false, popups: 0),
        "edge-no-gps-signal": .init(finalListingWithLocation: false, popups: 0),
        "ios18-background-ends-fix-wait": .init(finalListingWithLocation: true, popups: 0),
        "edge-server-unreachable-retry": .init(finalListingWithLocation: true, popups: 0, failedQueries: 1),
        "one-app-grant-on-permissions-screen": .init(
            finalListingWithLocation: true, popups: 0, systemAlerts: 2, permissionStates: ["location": "authorized"]),
        "us1-1-granted-while-using": .init(finalListingWithLocation: true, popups: 0),
        "us1-2-granted-always": .init(finalListingWithLocation: true, popups: 0),
        "us1-3-fresh-cached-fix": .init(finalListingWithLocation: true, popups: 0),
        "us1-4-fix-fails-fallback": .init(finalListingWithLocation: false, popups: 0),
        "us2-1-first-launch-alert": .init(finalListingWithLocation: false, popups: 0, systemAlerts: 1),
        "us2-2-allow-while-using": .init(finalListingWithLocation: true, popups: 0, systemAlerts: 1),
        "us2-3-dont-allow": .init(finalListingWithLocation: false, popups: 0, systemAlerts: 1),
        "us2-4-denied-still-browses": .init(finalListingWithLocation: false, popups: 0, systemAlerts: 1),
        "us3-1-denied-popup": .init(finalListingWithLocation: false, popups: 1),
        "us3-2-restricted-popup": .init(finalListingWithLocation: false, popups: 1),
        "us3-3-go-to-settings": .init(finalListingWithLocation: false, popups: 1),
        "us3-4-cancel": .init(finalListingWithLocation: false, popups: 1),
        "place-1-choose-after-dont-allow": .init(
            finalListingWithLocation: false, popups: 0, systemAlerts: 1, permissionStates: ["location": "denied"]),
        "place-2-choose-from-popup": .init(finalListingWithLocation: false, popups: 1),
        "place-3-remembered-at-next-launch": .init(finalListingWithLocation: false, popups: 2),
        "place-4-granted-later": .init(
            finalListingWithLocation: true, popups: 0, systemAlerts: 1, permissionStates: ["location": "authorized"]),
        "place-5-typing-offline": .init(finalListingWithLocation: false, popups: 1),
        "us3-5-browse-after-cancel": .init(finalListingWithLocation: false, popups: 1),
        "us4-1-grant-in-settings": .init(finalListingWithLocation: true, popups: 1),
        "us4-2-denied-grant-and-return": .init(finalListingWithLocation: true, popups: 1),
        // FR-004: no popup follows a change the person made in Settings.
        "us4-3-revoked": .init(finalListingWithLocation: false, popups: 0),
        "us4-4-revoked-next-query": .init(finalListingWithLocation: false, popups: 0, failedQueries: 2),
        "edge-stale-fix-delivered-on-request": .init(finalListingWithLocation: false, popups: 0),
        "refresh-after-fallback": .init(finalListingWithLocation: true, popups: 0),
        "edge-allow-once-lapses-in-session": .init(
            finalListingWithLocation: true, popups: 0, systemAlerts: 2, permissionStates: ["location": "authorized"]),
        // The fallback listing is the one without coordinates, and it is not empty.
        "edge-nobody-nearby": .init(finalListingWithLocation: false, popups: 0),
        "edge-ask-next-time-while-popup-up": .init(
            finalListingWithLocation: true, popups: 1, systemAlerts: 1, permissionStates: ["location": "authorized"]),
    ]
}

/// What a person must see in each Paint My Town scenario: the onboarding, and the walk's fate.
struct WalkStoryExpectation {
    /// How many times iOS shows a permission alert.
    var systemAlerts: Int
    /// The state each permission's last `permissionStateChanged` reports.
    var permissionStates: [String: String]
    /// The walk: nil when none may start (`walkNotStarted`), else whether it pauses itself.
    var autoPause: Bool?
    /// Whether Health saved the ended walk.
    var savedToHealth = true
    /// Pauses, by reason.
    var pauses: [String] = []
    /// How many times the walk went on in a new process (`walkRestored`).
    var restores = 0
    /// How many times iOS launched the app into the background (`appLaunchedInBackground`).
    var relaunches = 0

    static let byScenario: [String: WalkStoryExpectation] = [
        "guide-1-happy-path": .init(
            systemAlerts: 4, permissionStates: ["location": "authorized", "motion": "authorized", "health": "authorized"],
            autoPause: true),
        "guide-2-deny-location": .init(systemAlerts: 1, permissionStates: ["location": "denied"], autoPause: nil),
        "guide-3-deny-motion": .init(
            systemAlerts: 1, permissionStates: ["motion": "denied", "health": "authorized"], autoPause: false),
        "guide-4-deny-health": .init(systemAlerts: 1, permissionStates: ["health": "denied"], autoPause: true, savedToHealth: false),
        "guide-5-grant-later": .init(
            systemAlerts: 0, permissionStates: ["location": "authorized", "motion": "authorized", "health": "authorized"],
            autoPause: true),
        "permissions-motion-prompt-left": .init(
            systemAlerts: 2, permissionStates: ["motion": "authorized", "health": "authorized"], autoPause: true,
            pauses: ["stationary"]),
        "walk-1-every-permission": .init(
            systemAlerts: 0, permissionStates: ["health": "authorized"], autoPause: true, pauses: ["stationary"]),
        "walk-2-without-motion": .init(
            systemAlerts: 0, permissionStates: ["health": "authorized"], autoPause: false, pauses: ["person"]),
        "walk-3-without-health": .init(systemAlerts: 0, permissionStates: ["health": "denied"], autoPause: true, savedToHealth: false),
        "walk-4-leaves-the-app": .init(systemAlerts: 0, permissionStates: ["health": "authorized"], autoPause: true),
        "walk-5-ios-ends-the-app": .init(
            systemAlerts: 1, permissionStates: ["health": "authorized"], autoPause: true, restores: 2, relaunches: 1),
    ]
}

/// Checks a Paint My Town log against its story: the onboarding first, and the walk as expected.
func checkWalkStory(_ name: String, _ lines: [EventLine], _ expectation: WalkStoryExpectation, sourceLocation: SourceLocation) {
    let app = lines.filter { $0.fields["source"] as? String == "app" }
    #expect(app.first?.event == "permissionsScreenShown", "\(name): the onboarding is not first", sourceLocation: sourceLocation)
    #expect(!lines.contains { $0.event == "listingShown" }, "\(name): a pets listing in Paint My Town", sourceLocation: sourceLocation)
    #expect(lines.count(where: { $0.event == "systemAlertShown" }) == expectation.systemAlerts,
        "\(name): system alerts", sourceLocation: sourceLocation)
    var lastStates: [String: String] = [:]
    for line in lines where line.event == "permissionStateChanged" {
        if let permission = line.fields["permission"] as? String { lastStates[permission] = line.fields["state"] as? String }
    }
    #expect(lastStates == expectation.permissionStates, "\(name): permission states", sourceLocation: sourceLocation)
    let started = lines.first { $0.event == "walkStarted" }
    #expect(started?.fields["autoPause"] as? Bool == expectation.autoPause, "\(name): walk started", sourceLocation: sourceLocation)
    #expect(lines.filter { $0.event == "walkPaused" }.compactMap { $0.fields["reason"] as? String } == expectation.pauses,
        "\(name): pauses", sourceLocation: sourceLocation)
    #expect(lines.count(where: { $0.event == "walkRestored" }) == expectation.restores, "\(name): restores", sourceLocation: sourceLocation)
    #expect(lines.count(where: { $0.event == "appLaunchedInBackground" }) == expectation.relaunches,
        "\(name): relaunches", sourceLocation: sourceLocation)
    // Rule 35: iOS relaunches only an app it ended itself, and only one allowed location Always.
    var status = ""
    var endedByIOS = false
    for line in lines {
        if let answered = line.fields["status"] as? String, line.event == "systemAlertAnswered" { status = answered }
        if line.event == "settingChanged", line.fields["setting"] as? String == "Location", let value = line.fields["value"] as? String {
            status = value == "always" ? "authorizedAlways" : value
        }
        if line.event == "appTerminated" { endedByIOS = line.fields["by"] as? String == "ios" }
        if line.event == "appLaunchedInBackground" {
            #expect(status == "authorizedAlways" && endedByIOS, "\(name): relaunched without Always", sourceLocation: sourceLocation)
        }
    }
    guard expectation.autoPause != nil else {
        // No location, no walk: nothing recorded, nothing saved.
        #expect(lines.contains { $0.event == "walkNotStarted" }, "\(name): Start said nothing", sourceLocation: sourceLocation)
        #expect(!lines.contains { $0.event == "walkEnded" || $0.event.hasPrefix("workout") }, sourceLocation: sourceLocation)
        return
    }
    guard let ended = lines.first(where: { $0.event == "walkEnded" }) else {
        Issue.record("\(name): the walk never ended", sourceLocation: sourceLocation)
        return
    }
    #expect((ended.fields["distanceM"] as? Int ?? 0) > 0, "\(name): no distance", sourceLocation: sourceLocation)
    // Steps come from the pedometer, which needs Motion: exactly when the walk pauses itself.
    #expect((ended.fields["steps"] != nil) == expectation.autoPause, "\(name): steps", sourceLocation: sourceLocation)
    let newCells = ended.fields["newCells"] as? Int ?? -1
    #expect(newCells > 0 && newCells <= ended.fields["totalCells"] as? Int ?? 0, "\(name): cells", sourceLocation: sourceLocation)
    let fate = lines.last { $0.event.hasPrefix("workout") }
    #expect(fate?.event == (expectation.savedToHealth ? "workoutSaved" : "workoutNotSaved"), "\(name): Health", sourceLocation: sourceLocation)
}

/// One parsed line of `petspot run --json`.
struct EventLine {
    var event: String
    var fields: [String: Any]

    init?(_ line: Substring) {
        guard let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
            let event = object["event"] as? String
        else { return nil }
        self.event = event
        self.fields = object
    }
}

/// Checks a log against its story's expectation and against the rules every session obeys.
func checkStory(_ name: String, _ output: String, sourceLocation: SourceLocation = #_sourceLocation) {
    let lines = output.split(separator: "\n").compactMap(EventLine.init)
    if let walk = WalkStoryExpectation.byScenario[name] {
        checkWalkStory(name, lines, walk, sourceLocation: sourceLocation)
        return
    }
    guard let expectation = StoryExpectation.byScenario[name] else {
        Issue.record("no expectation written for scenario \(name)", sourceLocation: sourceLocation)
        return
    }
    let listings = lines.filter { $0.event == "listingShown" }
    // SC-001 / FR-007: a listing in every scenario.
    #expect(!listings.isEmpty, "\(name): no listing shown", sourceLocation: sourceLocation)
    #expect(
        listings.last?.fields["withLocation"] as? Bool == expectation.finalListingWithLocation,
        "\(name): final listing withLocation", sourceLocation: sourceLocation)
    #expect(lines.count(where: { $0.event == "customPopupShown" }) == expectation.popups,
        "\(name): popups", sourceLocation: sourceLocation)
    #expect(lines.count(where: { $0.event == "systemAlertShown" }) == expectation.systemAlerts,
        "\(name): system alerts", sourceLocation: sourceLocation)
    #expect(lines.count(where: { $0.event == "queryFailed" }) == expectation.failedQueries,
        "\(name): failed queries", sourceLocation: sourceLocation)

    var lastStates: [String: String] = [:]
    for line in lines where line.event == "permissionStateChanged" {
        if let permission = line.fields["permission"] as? String { lastStates[permission] = line.fields["state"] as? String }
    }
    if !expectation.permissionStates.isEmpty {
        #expect(lastStates == expectation.permissionStates, "\(name): permission states", sourceLocation: sourceLocation)
    }

    var queryInFlight = false
    var locationForNextQuery = false
    // A chosen place is remembered across launches: queries without the person's location go near it.
    var placeChosen = false
    var fallbackNext = false
    var popupsThisLaunch = 0
    var checksThisLaunch = 0
    var previousAppEvent: String?
    for line in lines {
        defer { if line.fields["source"] as? String == "app" { previousAppEvent = line.event } }
        switch line.event {
        case "appLaunched":
            queryInFlight = false
            locationForNextQuery = false
            popupsThisLaunch = 0
            checksThisLaunch = 0
        case "permissionChecked": checksThisLaunch += 1
        case "listingShown":
            // A located listing is never empty while there are pets: nobody nearby brings the fallback.
            #expect(line.fields["count"] as? Int != 0, "\(name): an empty listing", sourceLocation: sourceLocation)
        case "locationObtained": locationForNextQuery = true
        case "placeChosen": placeChosen = true
        case "placeCleared": placeChosen = false
        case "noPetsNearby": fallbackNext = true
        case "customPopupShown":
            popupsThisLaunch += 1
            // FR-013: at most once per session; FR-004: with the session's first status check, by cause.
            #expect(popupsThisLaunch <= 1, "\(name): popup shown twice in one launch", sourceLocation: sourceLocation)
            #expect(checksThisLaunch == 1 && previousAppEvent == "permissionChecked",
                "\(name): popup not shown with the first status check", sourceLocation: sourceLocation)
            #expect(["denied", "restricted", "locationServicesOff"].contains(line.fields["reason"] as? String),
                "\(name): popup without a known reason", sourceLocation: sourceLocation)
        case "queryStarted":
            // Never two queries in flight (FR-015).
            #expect(!queryInFlight, "\(name): a query started while another was in flight", sourceLocation: sourceLocation)
            queryInFlight = true
            let path = line.fields["path"] as? String ?? ""
            // FR-008 / FR-009: coordinates if and only if a location was obtained for this query, or
            // the person chose a place instead; never after nobody was found near either.
            #expect(path.contains("lat=") == (!fallbackNext && (locationForNextQuery || placeChosen)), "\(name): \(path)",
                    sourceLocation: sourceLocation)
            fallbackNext = false
            // Departure 6: no more than two decimals leave the device.
            for part in path.split(whereSeparator: { "?&".contains($0) }) where part.hasPrefix("lat=") || part.hasPrefix("lon=") {
                let decimals = part.split(separator: ".").dropFirst().first?.count ?? 0
                #expect(decimals <= 2, "\(name): \(part) is too precise", sourceLocation: sourceLocation)
            }
            locationForNextQuery = false
        case "queryFinished", "queryFailed": queryInFlight = false
        default: break
        }
    }
}
