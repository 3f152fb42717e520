import Foundation
import PetSpotDomain
import StartupFeature

/// Renders a scenario's log as a storyboard a person can follow: what they see, step by step.
public enum Storyboard {
    /// The storyboard of one run.
    public static func render(_ scenario: Scenario, _ outcome: ScenarioRun.Outcome) -> String {
        var out = ["", "━━ \(scenario.name)", "   \(deviceSummary(scenario))"]
        for line in outcome.lines {
            guard let sentence = sentence(for: line) else { continue }
            let time = Duration.milliseconds(line.atMs).secondsText
            out.append("   \(String(repeating: " ", count: max(0, 8 - time.count)))\(time)  \(sentence)")
            for pet in line.preview {
                let distance = pet.distanceKm.map { String(format: ", %.1f km away", $0) } ?? ""
                out.append("                · \(pet.name), \(pet.breed) (\(pet.species)) in \(pet.city)\(distance)")
            }
        }
        if let failure = outcome.failure { out.append("   ✗ \(failure)") }
        return out.joined(separator: "\n")
    }

    /// The summary table: scenario, whether the listing came with location, time to first listing.
    public static func table(_ rows: [(label: String, outcome: ScenarioRun.Outcome)]) -> String {
        let header = ("scenario", "final listing", "first listing")
        let cells = rows.map { row -> (String, String, String) in
            let listings = row.outcome.lines.filter { $0.event == "listingShown" }
            let kind: String =
                switch listings.last?[field: "withLocation"] {
                case .bool(true)?: "nearby (with location)"
                case .bool(false)?: "all (without location)"
                default: "none"
                }
            let first = listings.first.map { String(format: "%.3f s", Double($0.atMs) / 1000) } ?? "—"
            return (row.label, kind, first)
        }
        let widths = (
            max(header.0.count, cells.map(\.0.count).max() ?? 0),
            max(header.1.count, cells.map(\.1.count).max() ?? 0),
            max(header.2.count, cells.map(\.2.count).max() ?? 0)
        )
        func row(_ cell: (String, String, String)) -> String {
            cell.0.padding(toLength: widths.0, withPad: " ", startingAt: 0) + "  "
                + cell.1.padding(toLength: widths.1, withPad: " ", startingAt: 0) + "  "
                + String(repeating: " ", count: widths.2 - cell.2.count) + cell.2
        }
        let rule = String(repeating: "─", count: widths.0 + widths.1 + widths.2 + 4)
        return ([row(header), rule] + cells.map(row)).joined(separator: "\n")
    }

    private static func deviceSummary(_ scenario: Scenario) -> String {
        let device = scenario.device
        var parts = ["location permission \(device.authorization.rawValue)"]
        if !device.locationServicesEnabled { parts.append("Location Services off") }
        if !device.preciseLocation { parts.append("Precise Location off") }
        if !device.infoPlistHasWhenInUseKey { parts.append("no When-In-Use key in Info.plist") }
        if device.motion != .notDetermined { parts.append("Motion & Fitness \(device.motion.rawValue)") }
        if device.health != .notDetermined { parts.append("Health \(device.health.rawValue)") }
        if !device.infoPlistHasMotionKey { parts.append("no Motion key in Info.plist") }
        if !device.infoPlistHasHealthKeys { parts.append("no Health keys in Info.plist") }
        if !device.infoPlistHasAlwaysKey { parts.append("no Always key in Info.plist") }
        parts.append(device.position == nil ? "no GPS fix possible" : "fix in \(device.fixDelayMs) ms")
        if !scenario.network.reachable { parts.append("network down") }
        return "(" + parts.joined(separator: ", ") + ")"
    }

    private static func text(_ line: LogLine, _ field: String) -> String {
        switch line[field: field] {
        case .string(let value)?: value
        case .int(let value)?: String(value)
        case .double(let value)?: String(value)
        case .bool(let value)?: String(value)
        case nil: "?"
        }
    }

    // Only what the person sees or does; plumbing events are left to `petspot run`.
    private static func sentence(for line: LogLine) -> String? {
        switch line.event {
        case "appLaunched": "They open PetSpot."
        case "appBackgrounded": "They leave the app."
        case "appForegrounded": "They come back to the app."
        case "appTerminated": "The app is closed."
        case "systemAlertShown":
            switch text(line, "alert") {
            case "locationAlways": "iOS asks: “Change to Always Allow?” (Keep Only While Using · Change to Always Allow)"
            case "motion": "iOS asks: “PetSpot would like to access your Motion & Fitness activity” (Don't Allow · OK)"
            case "health": "The Health sheet lists what PetSpot would save and read (Don't Allow · Turn On All · Allow)"
            default: "iOS asks: “Allow PetSpot to use your location?” (Allow Once · Allow While Using App · Don't Allow)"
            }
        case "systemAlertAnswered": "They tap “\(alertChoice(text(line, "choice")))”."
        case "systemAlertDismissed": "The iOS alert goes away unanswered."
        case "permissionsScreenShown": "They tap Permissions: a card each for Location, Motion & Fitness and Apple Health."
        case "permissionsScreenClosed": "They tap Done and are back on the listing."
        case "permissionRequestStarted": "From its card, they ask to allow \(permissionName(text(line, "permission")))."
        case "permissionRequestRefused":
            "PetSpot does not ask for \(permissionName(text(line, "permission"))): its Info.plist lacks the usage description "
                + "(iOS would \(text(line, "permission") == "location" ? "ignore the request" : "stop the app")). The card says so."
        case "permissionStateChanged":
            "Everywhere in the app, \(permissionName(text(line, "permission"))) is now \(stateName(text(line, "state")))."
        case "settingsOpened": "Settings opens on PetSpot's page."
        case "settingChanged": "In Settings they set \(text(line, "setting")) to “\(settingValue(text(line, "value")))”."
        case "allowOnceExpired": "iOS lets the one-time permission lapse."
        case "moved": line[field: "fixPossible"] == .bool(true) ? "They walk outdoors." : "They go where no GPS fix is possible."
        case "networkChanged": line[field: "reachable"] == .bool(true) ? "The network is back." : "The network drops."
        case "requestIgnored": "iOS ignores the app's request (\(text(line, "reason")))."
        case "customPopupShown": popupSentence(reason: text(line, "reason"))
        case "noPetsNearby": "Nobody is listed within 50 km of them, so the app asks for the newest pets everywhere."
        case "refreshRequested": "They pull the list down to refresh it."
        case "customPopupDismissed":
            switch text(line, "button") {
            case "goToSettings": "They tap “Go to Settings”."
            case "cancel": "They tap “Cancel”."
            default: "The popup closes by itself: location is allowed now."
            }
        case "locationUnavailable": "No location (\(text(line, "reason"))): the app lists pets without it."
        case "queryFailed": "The listing fails to load: an error with Retry shows (\(text(line, "message")))."
        case "retryTapped": "They tap Retry."
        case "listingShown":
            line[field: "withLocation"] == .bool(true)
                ? "They see \(text(line, "count")) pets near them:" : "They see \(text(line, "count")) pets (all areas, newest first):"
        default: nil
        }
    }

    /// The popup as the person reads it, in the app's own words for its cause.
    private static func popupSentence(reason raw: String) -> String {
        let content = PermissionPopupContent(reason: PermissionPopupReason(rawValue: raw) ?? .denied)
        return "A popup explains: “\(content.title) — \(content.message)” (\(content.settingsButton) · \(content.cancelButton))"
    }

    private static func permissionName(_ raw: String) -> String {
        switch raw {
        case "motion": "Motion & Fitness"
        case "health": "Apple Health"
        default: "Location"
        }
    }

    private static func stateName(_ raw: String) -> String {
        switch raw {
        case "authorized": "allowed"
        case "denied": "not allowed"
        case "notDetermined": "not asked yet"
        case "restricted": "restricted on this phone"
        default: "not available on this phone"
        }
    }

    private static func settingValue(_ raw: String) -> String {
        switch raw {
        case "sharingAuthorized": "On"
        case "sharingDenied": "Off"
        case "never": "Never"
        case "askNextTime": "Ask Next Time Or When I Share"
        case "whileUsing": "While Using the App"
        case "always": "Always"
        default: raw
        }
    }

    private static func alertChoice(_ raw: String) -> String {
        switch raw {
        case "allowWhileUsing": "Allow While Using App"
        case "allowOnce": "Allow Once"
        case "changeToAlwaysAllow": "Change to Always Allow"
        case "keepOnlyWhileUsing": "Keep Only While Using"
        case "allow": "OK"
        case "allowAll": "Turn On All”, then “Allow"
        default: "Don't Allow"
        }
    }
}
