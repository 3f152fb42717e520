import DeviceInterfaces
import Localization

/// What the "Learn more" detail of one permission shows, in the screen's language.
public struct PermissionDetailContent: Sendable, Equatable {
    public var card: PermissionCard
    public var details: PermissionDetails
    /// The three headings: what we do, what we don't do, privacy.
    public var whatWeDoHeading: String
    public var whatWeDoNotDoHeading: String
    public var privacyHeading: String
    /// "Done", and its VoiceOver hint (back to the permission cards).
    public var doneButton: String
    public var doneHint: String
    /// For HealthKit: one line per type the app saves, with its write status. Nothing is said of
    /// reading: the apps read nothing from Health, and iOS would not tell them whether they may.
    public var healthLines: [String]

    init(card: PermissionCard, health: HealthAuthorization, texts: PermissionTexts, localizer: Localizer) {
        self.card = card
        self.details = texts.details(card.permission, localizer)
        whatWeDoHeading = PermissionsL10n.whatWeDoHeading(localizer)
        whatWeDoNotDoHeading = PermissionsL10n.whatWeDoNotDoHeading(localizer)
        privacyHeading = PermissionsL10n.privacyHeading(localizer)
        doneButton = PermissionsL10n.doneButton(localizer)
        doneHint = PermissionsL10n.detailDoneHint(localizer)
        guard card.permission == .healthKit, health.isAvailable else {
            healthLines = []
            return
        }
        healthLines = health.writeStatus.keys.sorted().map { type -> String in
            let key =
                switch health.writeStatus[type] ?? .notDetermined {
                case .sharingAuthorized: "health_line_saving_allowed"
                case .sharingDenied: "health_line_saving_not_allowed"
                case .notDetermined: "health_line_not_asked"
                }
            return PermissionsL10n.text(key, localizer, PermissionsL10n.name(of: type, localizer))
        }
    }
}
