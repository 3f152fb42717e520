import Localization
import PetSpotDomain

/// Everything one permission card on the permissions screen shows, in the screen's language.
public struct PermissionCard: Sendable, Equatable, Identifiable {
    /// The button a card offers.
    public enum Action: Sendable, Equatable {
        /// "Allow": asking may show the system prompt.
        case allow
        /// "Allow Always": the separate second location step.
        case allowAlways
        /// "Settings": only Settings can change it now.
        case openSettings
        /// Nothing to do (allowed, restricted, or unavailable).
        case none
    }

    public var permission: Permission
    public var state: PermissionState
    public var action: Action
    /// A request for this permission is under way (the button shows progress).
    public var isBusy: Bool
    /// The permission's name.
    public var title: String
    /// Why the app asks, in its own words.
    public var rationale: String
    /// The state in words.
    public var statusText: String
    /// The label of ``action``'s button, or nil when there is no button.
    public var actionTitle: String?
    /// What ``action``'s button does, for VoiceOver; nil when there is no button.
    public var actionHint: String?
    /// What "Learn more" is, and what it opens, for VoiceOver.
    public var learnMoreTitle: String
    public var learnMoreHint: String
    /// What the progress indicator shown while ``isBusy`` says to VoiceOver: that iOS is being asked
    /// (its question may or may not be up; iOS can also answer without one).
    public var busyLabel: String

    public var id: Permission { permission }
    public var symbolName: String { permission.symbolName }

    public init(
        permission: Permission,
        state: PermissionState,
        action: Action,
        isBusy: Bool,
        locationStatus: LocationPermissionStatus,
        locationServicesEnabled: Bool,
        texts: PermissionTexts,
        localizer: Localizer = .system
    ) {
        self.permission = permission
        self.state = state
        self.action = action
        self.isBusy = isBusy
        let name = permission.title(localizer)
        title = name
        rationale = texts.rationale(permission, localizer)
        statusText = Self.statusText(
            for: permission,
            state: state,
            locationStatus: locationStatus,
            locationServicesEnabled: locationServicesEnabled,
            localizer: localizer
        )
        let button: (title: String, hint: String)? =
            switch action {
            case .allow: ("action_allow", "action_allow_hint")
            case .allowAlways: ("action_allow_always", "action_allow_always_hint")
            case .openSettings: ("action_settings", "action_settings_hint")
            case .none: nil
            }
        actionTitle = button.map { PermissionsL10n.text($0.title, localizer) }
        actionHint = button.map { button in
            // The hints that name the app are the app's; "asks iOS for %@" is everyone's.
            texts.has(button.hint) ? texts.text(button.hint, localizer, name) : PermissionsL10n.text(button.hint, localizer, name)
        }
        learnMoreTitle = PermissionsL10n.text("learn_more_button", localizer)
        learnMoreHint = texts.text("learn_more_hint", localizer, name)
        busyLabel = PermissionsL10n.text("action_in_progress", localizer)
    }

    /// The status line of a card. Health never claims anything about reading.
    static func statusText(
        for permission: Permission,
        state: PermissionState,
        locationStatus: LocationPermissionStatus,
        locationServicesEnabled: Bool,
        localizer: Localizer
    ) -> String {
        let key =
            switch (permission, state) {
            case (_, .notDetermined): "status_not_determined"
            case (.location, .authorized):
                locationStatus == .authorizedAlways ? "status_location_always" : "status_location_while_using"
            case (.healthKit, .authorized): "status_health_saving_allowed"
            case (_, .authorized): "status_allowed"
            case (.location, .denied) where !locationServicesEnabled: "status_location_services_off"
            case (.healthKit, .denied): "status_health_saving_not_allowed"
            case (_, .denied): "status_not_allowed"
            case (_, .restricted): "status_restricted"
            case (_, .unavailable): "status_unavailable"
            }
        return PermissionsL10n.text(key, localizer)
    }
}
