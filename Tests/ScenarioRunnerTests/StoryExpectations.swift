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
        "guide-1-happy-path": .init(
            finalListingWithLocation: true, popups: 0, systemAlerts: 4,
            permissionStates: ["location": "authorized", "motion": "authorized", "health": "authorized"]),
        "guide-2-deny-location": .init(
            finalListingWithLocation: false, popups: 0, systemAlerts: 1, permissionStates: ["location": "denied"]),
        "guide-3-deny-motion": .init(
            finalListingWithLocation: true, popups: 0, systemAlerts: 1, permissionStates: ["motion": "denied"]),
        "guide-4-deny-health": .init(
            finalListingWithLocation: true, popups: 0, systemAlerts: 1, permissionStates: ["health": "denied"]),
        "guide-5-grant-later": .init(
            finalListingWithLocation: true, popups: 1,
            permissionStates: ["location": "authorized", "motion": "authorized"]),
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
        "permissions-motion-prompt-left": .init(
            finalListingWithLocation: true, popups: 0, systemAlerts: 2, permissionStates: ["motion": "authorized"]),
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
        "us3-5-browse-after-cancel": .init(finalListingWithLocation: false, popups: 1),
        "us4-1-grant-in-settings": .init(finalListingWithLocation: true, popups: 1),
        "us4-2-denied-grant-and-return": .init(finalListingWithLocation: true, popups: 1),
        // FR-004: no popup follows a change the person made in Settings.
        "us4-3-revoked": .init(finalListingWithLocation: true, popups: 0),
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
    if name.hasPrefix("guide-") || !expectation.permissionStates.isEmpty {
        #expect(lastStates == expectation.permissionStates, "\(name): permission states", sourceLocation: sourceLocation)
    }

    var queryInFlight = false
    var locationForNextQuery = false
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
            // FR-008 / FR-009: coordinates if and only if a location was obtained for this query.
            #expect(path.contains("lat=") == locationForNextQuery, "\(name): \(path)", sourceLocation: sourceLocation)
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
