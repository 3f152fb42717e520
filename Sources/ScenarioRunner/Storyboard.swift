import DeviceInterfaces
import Foundation
import Localization
import Permissions
import PetSpotDomain
import StartupFeature

/// Renders a scenario's log as a storyboard a person can follow: what they see, step by step, in the
/// language and units of a ``Localizer``. The log itself stays language-neutral.
public enum Storyboard {
    /// The storyboard of one run. A bundled scenario, found by its English title, is titled in the
    /// localizer's language; a scenario of its own keeps its name.
    public static func render(_ scenario: Scenario, _ outcome: ScenarioRun.Outcome, localizer: Localizer = .english) -> String {
        var teller = Teller(localizer: localizer, app: scenario.app)
        let title = teller.scenarioTitle(named: scenario.name) ?? scenario.name
        var out = ["", "━━ \(title)", "   \(teller.deviceSummary(scenario))"]
        for line in outcome.lines {
            guard let sentence = teller.tell(line) else { continue }
            let time = teller.text("time_format", localizer.number(Double(line.atMs) / 1000, fractionDigits: 3))
            out.append("   \(String(repeating: " ", count: max(0, 9 - columns(time))))\(time)  \(sentence)")
            for pet in line.preview {
                out.append("                · \(teller.petLine(pet))")
            }
        }
        if let failure = outcome.failure { out.append("   ✗ \(failure)") }
        return out.joined(separator: "\n")
    }

    /// The summary table: scenario, whether the listing came with location, time to first listing.
    public static func table(_ rows: [(label: String, outcome: ScenarioRun.Outcome)], localizer: Localizer = .english) -> String {
        let teller = Teller(localizer: localizer, app: .petspot)
        let header = (teller.text("table_scenario"), teller.text("table_final_listing"), teller.text("table_first_listing"))
        let cells = rows.map { row -> (String, String, String) in
            let listings = row.outcome.lines.filter { $0.event == "listingShown" }
            let kind: String =
                switch listings.last?[field: "withLocation"] {
                case .bool(true)?: teller.text("table_nearby")
                case .bool(false)?: teller.text("table_all")
                default: teller.text("table_none")
                }
            let first = listings.first.map {
                teller.text("time_format", localizer.number(Double($0.atMs) / 1000, fractionDigits: 3))
            } ?? "—"
            return (row.label, kind, first)
        }
        let widths = (
            max(columns(header.0), cells.map { columns($0.0) }.max() ?? 0),
            max(columns(header.1), cells.map { columns($0.1) }.max() ?? 0),
            max(columns(header.2), cells.map { columns($0.2) }.max() ?? 0)
        )
        func spaces(_ count: Int) -> String { String(repeating: " ", count: max(0, count)) }
        func row(_ cell: (String, String, String)) -> String {
            cell.0 + spaces(widths.0 - columns(cell.0)) + "  "
                + cell.1 + spaces(widths.1 - columns(cell.1)) + "  "
                + spaces(widths.2 - columns(cell.2)) + cell.2
        }
        let rule = String(repeating: "─", count: widths.0 + widths.1 + widths.2 + 4)
        return ([row(header), rule] + cells.map(row)).joined(separator: "\n")
    }

    /// How many terminal columns `text` takes: East Asian wide and full-width characters (Japanese
    /// kana and kanji, full-width punctuation, emoji) take two; combining marks and invisible format
    /// characters none; everything else, ambiguous-width punctuation such as "·" and "—" included, one.
    public static func columns(_ text: String) -> Int {
        text.unicodeScalars.reduce(0) { width, scalar in
            switch scalar.properties.generalCategory {
            case .nonspacingMark, .enclosingMark, .format: return width
            default: break
            }
            return width + (isWide(scalar) ? 2 : 1)
        }
    }

    /// East Asian Width W or F (Unicode Standard Annex #11), by the blocks that hold most of them:
    /// enough for the scripts PetSpot's tables are written in, not a full table of the standard.
    private static func isWide(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x1100...0x115F,  // Hangul Jamo initials
            0x2E80...0x303E,  // CJK radicals, Kangxi, CJK symbols and punctuation
            0x3041...0x33FF,  // kana, CJK compatibility
            0x3400...0x4DBF,  // CJK extension A
            0x4E00...0x9FFF,  // CJK unified ideographs
            0xA000...0xA4CF,  // Yi
            0xA960...0xA97F,  // Hangul Jamo extended A
            0xAC00...0xD7A3,  // Hangul syllables
            0xF900...0xFAFF,  // CJK compatibility ideographs
            0xFE10...0xFE19,  // vertical forms
            0xFE30...0xFE4F,  // CJK compatibility forms
            0xFE50...0xFE6B,  // small form variants
            0xFF00...0xFF60,  // full-width forms
            0xFFE0...0xFFE6,
            0x1B000...0x1B2FF,  // kana supplement and extensions
            0x1F300...0x1F64F,  // pictographs and emoticons
            0x1F900...0x1F9FF,  // supplemental pictographs
            0x20000...0x3FFFD:  // CJK extensions B and later
            return true
        default:
            return false
        }
    }

    /// `Storyboard.strings` / `Storyboard.stringsdict` of this module.
    public static let strings = StringTable(name: "Storyboard", bundle: .module)
}

/// Tells one run in one language: each log line as a sentence, from the storyboard's table and the
/// app's own texts (the popup, the buttons, the permission names).
private struct Teller {
    let localizer: Localizer
    /// The app the story is told of. The table speaks of PetSpot; a Paint My Town story names its own
    /// app instead, which the tables never inflect (it stays "PetSpot" in every language).
    let app: Scenario.App
    /// Whether Paint My Town's onboarding was completed in this story so far.
    private var onboardingDone = false

    init(localizer: Localizer, app: Scenario.App) {
        self.localizer = localizer
        self.app = app
    }

    func text(_ key: String, _ arguments: String...) -> String {
        let text = StringTable.format(Storyboard.strings.string(key, localizer.language), arguments)
        return app == .paintmytown ? text.replacingOccurrences(of: "PetSpot", with: "Paint My Town") : text
    }

    /// The sentence for `line`, in the story so far.
    mutating func tell(_ line: LogLine) -> String? {
        guard app == .paintmytown else { return sentence(for: line) }
        switch line.event {
        case "permissionsScreenShown" where !onboardingDone:
            return text(
                "onboarding_shown", Permission.location.title(localizer), Permission.motion.title(localizer),
                Permission.healthKit.title(localizer))
        case "permissionsScreenClosed":
            return text("permissions_closed_walk", PermissionsL10n.doneButton(localizer))
        case "onboardingCompleted":
            onboardingDone = true
            return text("onboarding_completed")
        default:
            return walkSentence(for: line) ?? sentence(for: line)
        }
    }

    /// The walk's lines, as the person lives them.
    private func walkSentence(for line: LogLine) -> String? {
        switch line.event {
        case "walkStarted":
            return text(line[field: "autoPause"] == .bool(true) ? "walk_started_auto" : "walk_started_manual")
        case "walkNotStarted":
            return text(field(line, "reason") == "locationNotAuthorized" ? "walk_not_started_location" : "walk_not_started_onboarding")
        case "walkPaused":
            return text(field(line, "reason") == "stationary" ? "walk_paused_stationary" : "walk_paused_person")
        case "walkResumed":
            return text(field(line, "reason") == "moving" ? "walk_resumed_moving" : "walk_resumed_person")
        case "walkEnded":
            let metres = Double(field(line, "distanceM")) ?? 0
            let distance = localizer.distance(Measurement(value: metres, unit: .meters), fractionDigits: 2)
            let newCells = localizer.number(Int(field(line, "newCells")) ?? 0)
            let totalCells = localizer.number(Int(field(line, "totalCells")) ?? 0)
            if case .int(let steps)? = line[field: "steps"] {
                return text("walk_ended", distance, localizer.number(steps), newCells, totalCells)
            }
            return text("walk_ended_no_steps", distance, newCells, totalCells)
        case "walkRestored":
            return text(line[field: "paused"] == .bool(true) ? "walk_restored_paused" : "walk_restored")
        case "appTerminated" where field(line, "by") == "ios":
            return text("app_ended_by_ios")
        case "appLaunchedInBackground":
            return text("app_launched_in_background")
        case "workoutSaved":
            return text("workout_saved")
        case "workoutNotSaved":
            return text("workout_not_saved", text("workout_reason_\(field(line, "reason"))"))
        default:
            return nil
        }
    }

    /// The title of the bundled scenario whose English title is `name` (its `scenario_<file name>`
    /// text, which the completeness test keeps equal to the file's `name`); nil for a scenario of its
    /// own.
    func scenarioTitle(named name: String) -> String? {
        let english = Storyboard.strings.entries(.english).strings
        guard let key = english.first(where: { $0.key.hasPrefix("scenario_") && $0.value == name })?.key else { return nil }
        return Storyboard.strings.string(key, localizer.language)
    }

    func deviceSummary(_ scenario: Scenario) -> String {
        let device = scenario.device
        var parts = [text("summary_location_permission", text("location_status_\(device.authorization.rawValue)"))]
        if !device.locationServicesEnabled { parts.append(text("summary_services_off")) }
        if !device.preciseLocation { parts.append(text("summary_precise_off")) }
        if !device.infoPlistHasWhenInUseKey { parts.append(text("summary_no_when_in_use_key")) }
        if device.motion != .notDetermined { parts.append(text("summary_motion", text("state_\(device.motion.rawValue)"))) }
        if device.health != .notDetermined { parts.append(text("summary_health", text("state_\(device.health.rawValue)"))) }
        if !device.infoPlistHasMotionKey { parts.append(text("summary_no_motion_key")) }
        if !device.infoPlistHasHealthKeys { parts.append(text("summary_no_health_keys")) }
        if !device.infoPlistHasAlwaysKey { parts.append(text("summary_no_always_key")) }
        parts.append(
            device.position == nil
                ? text("summary_no_fix")
                : text("summary_fix_in", localizer.number(Double(device.fixDelayMs) / 1000, fractionDigits: 1))
        )
        if !scenario.network.reachable { parts.append(text("summary_network_down")) }
        if device.iosVersion != Scenario.Device.iosVersions.last { parts.append(text("summary_ios", String(device.iosVersion))) }
        return text("summary_format", parts.joined(separator: text("list_separator")))
    }

    func petLine(_ pet: LogLine.AnimalPreview) -> String {
        let species = Animal.Species(rawValue: pet.species).map { L10n.species($0, localizer) } ?? pet.species
        guard let kilometres = pet.distanceKm else {
            return text("pet_line", pet.name, pet.breed, species, pet.city)
        }
        let distance = localizer.distance(Measurement(value: kilometres, unit: .kilometers))
        return text("pet_line_distance", pet.name, pet.breed, species, pet.city, distance)
    }

    private func field(_ line: LogLine, _ field: String) -> String {
        switch line[field: field] {
        case .string(let value)?: value
        case .int(let value)?: String(value)
        case .double(let value)?: String(value)
        case .bool(let value)?: String(value)
        case nil: "?"
        }
    }

    // Only what the person sees or does; plumbing events are left to `petspot run`.
    func sentence(for line: LogLine) -> String? {
        switch line.event {
        case "appLaunched": text("app_launched")
        case "appBackgrounded": text("app_backgrounded")
        case "appForegrounded": text("app_foregrounded")
        case "appTerminated": text("app_terminated")
        case "systemAlertShown":
            switch field(line, "alert") {
            case "locationAlways": text("alert_location_always")
            case "motion": text("alert_motion")
            case "health": text("alert_health")
            default: text("alert_location_when_in_use")
            }
        case "systemAlertAnswered":
            field(line, "choice") == "allowAll"
                ? text("alert_answered_allow_all") : text("tap", alertChoice(field(line, "choice")))
        case "systemAlertDismissed": text("alert_dismissed")
        case "permissionsScreenShown":
            text(
                "permissions_shown",
                PermissionsL10n.title(localizer),
                Permission.location.title(localizer),
                Permission.motion.title(localizer),
                Permission.healthKit.title(localizer)
            )
        case "permissionsScreenClosed": text("permissions_closed", PermissionsL10n.doneButton(localizer))
        case "permissionRequestStarted": text("permission_request_started", permissionName(field(line, "permission")))
        case "permissionRequestRefused":
            text(
                field(line, "permission") == "location"
                    ? "permission_request_refused_location" : "permission_request_refused_other",
                permissionName(field(line, "permission"))
            )
        case "permissionStateChanged":
            text("permission_state_changed", permissionName(field(line, "permission")), stateName(field(line, "state")))
        case "settingsOpened": text("settings_opened")
        case "settingChanged":
            text("setting_changed", settingName(field(line, "setting")), settingValue(field(line, "value")))
        case "allowOnceExpired": text("allow_once_expired")
        case "moved": line[field: "fixPossible"] == .bool(true) ? text("moved_fix_possible") : text("moved_no_fix")
        case "networkChanged": line[field: "reachable"] == .bool(true) ? text("network_back") : text("network_down")
        case "requestIgnored": ignoredSentence(reason: field(line, "reason"))
        case "customPopupShown", "customPopupChanged": popupSentence(reason: field(line, "reason"))
        case "noPetsNearby": text("no_pets_nearby", localizer.distance(L10n.searchRadius, fractionDigits: 0))
        case "refreshRequested": text("refresh_requested")
        case "customPopupDismissed":
            switch field(line, "button") {
            case "goToSettings": text("tap", L10n.text(.popupSettingsButton, localizer))
            case "cancel": text("tap", L10n.text(.popupCancelButton, localizer))
            case "choosePlace": text("tap", L10n.text(.popupChoosePlaceButton, localizer))
            default: text("popup_closed_itself")
            }
        case "placeSuggestions":
            text("place_suggestions", localizer.number({ if case .int(let count)? = line[field: "count"] { count } else { 0 } }()))
        case "placeSuggestionsFailed": text("place_suggestions_failed", L10n.text(.placeSearchFailed, localizer))
        case "placeChosen": text("place_chosen", field(line, "id"))
        case "placeCleared": text("tap", L10n.text(.placeClearButton, localizer))
        case "locationUnavailable":
            text("location_unavailable", unavailableReason(field(line, "reason")))
        case "queryFailed":
            text("query_failed", L10n.text(.listErrorMessage, localizer), L10n.text(.listRetryButton, localizer))
        case "retryTapped": text("tap", L10n.text(.listRetryButton, localizer))
        case "listingShown":
            listingSentence(
                count: { if case .int(let count)? = line[field: "count"] { count } else { 0 } }(),
                nearby: line[field: "withLocation"] == .bool(true)
            )
        default: nil
        }
    }

    private func listingSentence(count: Int, nearby: Bool) -> String {
        Storyboard.strings.plural(
            nearby ? "listing_nearby" : "listing_everywhere",
            localizer.language,
            number: localizer.number(count),
            operands: PluralOperands(count)
        )
    }

    /// The popup as the person reads it, in the app's own words for its cause.
    private func popupSentence(reason raw: String) -> String {
        let content = PermissionPopupContent(reason: PermissionPopupReason(rawValue: raw) ?? .denied, localizer: localizer)
        return text("popup_shown", content.title, content.message, content.settingsButton, content.cancelButton)
    }

    /// Why iOS ignored a request, from the simulated device's reason (English diagnostics) when it is
    /// one the table knows.
    private func ignoredSentence(reason: String) -> String {
        let lacks = "Info.plist lacks "
        let why: String? =
            if reason.hasPrefix(lacks) {
                text("ignored_missing_key", String(reason.dropFirst(lacks.count)))
            } else if reason == "a system alert is already showing" {
                text("ignored_alert_showing")
            } else if reason == "the app is not in the foreground" {
                text("ignored_background")
            } else if reason.hasPrefix("Always was already requested") {
                text("ignored_always_used")
            } else if reason.hasPrefix("the When-In-Use grant is temporary") {
                text("ignored_temporary")
            } else if reason.hasPrefix("status is") {
                text("ignored_decided")
            } else {
                nil
            }
        return why.map { text("request_ignored", $0) } ?? text("request_ignored_plain")
    }

    private func permissionName(_ raw: String) -> String {
        switch raw {
        case "motion": Permission.motion.title(localizer)
        case "health": Permission.healthKit.title(localizer)
        default: Permission.location.title(localizer)
        }
    }

    private func stateName(_ raw: String) -> String {
        switch raw {
        case "authorized", "denied", "notDetermined", "restricted": text("state_\(raw)")
        default: text("state_unavailable")
        }
    }

    /// A setting's name as the simulated device logs it, in Settings' words.
    private func settingName(_ raw: String) -> String {
        switch raw {
        case "Location": return text("setting_location")
        case "Location Services": return text("setting_location_services")
        case "Precise Location": return text("setting_precise_location")
        case "Location restriction": return text("setting_location_restriction")
        case "Motion & Fitness": return text("setting_motion_fitness")
        case "Fitness Tracking": return text("setting_fitness_tracking")
        default: break
        }
        for type in HealthDataType.allCases {
            let name = PermissionsL10n.name(of: type, localizer)
            if raw == "Health: save \(type.displayName)" { return text("setting_health_save", name) }
            if raw == "Health: read \(type.displayName)" { return text("setting_health_read", name) }
        }
        return raw
    }

    private func settingValue(_ raw: String) -> String {
        switch raw {
        case "on", "sharingAuthorized": text("value_on")
        case "off", "sharingDenied": text("value_off")
        case "never", "askNextTime", "whileUsing", "always", "notDetermined": text("value_\(raw)")
        default: raw
        }
    }

    private func alertChoice(_ raw: String) -> String {
        switch raw {
        case "allowWhileUsing", "allowOnce", "changeToAlwaysAllow", "keepOnlyWhileUsing", "allow": text("choice_\(raw)")
        default: text("choice_dontAllow")
        }
    }

    private func unavailableReason(_ raw: String) -> String {
        switch raw {
        case "staleFix", "timeout", "notAuthorized", "revoked": text("unavailable_\(raw)")
        // iOS 18's live-update diagnostics (rule 30).
        case "insufficientlyInUse": text("unavailable_notInUse")
        case "authorizationDenied", "authorizationDeniedGlobally", "authorizationRestricted": text("unavailable_notAuthorized")
        default: text("unavailable_other")
        }
    }
}
