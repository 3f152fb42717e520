import Localization
import PetSpotDomain

/// Why the custom popup shows. Each cause has its own words, because each has a different remedy.
public enum PermissionPopupReason: String, Equatable, Sendable, CaseIterable {
    /// The person turned location off for this app: Go to Settings fixes it.
    case denied
    /// Device management or parental controls forbid location: the person cannot change it here.
    case restricted
    /// Location Services are off for the whole phone (Settings › Privacy & Security › Location Services).
    case locationServicesOff

    /// Whether this cause still explains `status`: once the status is something else (allowed, or
    /// back to "not determined"), the popup would no longer say what is true.
    public func explains(_ status: LocationPermissionStatus) -> Bool {
        switch self {
        case .denied, .locationServicesOff: status == .denied
        case .restricted: status == .restricted
        }
    }
}

/// What the custom popup says, in the person's language, for one ``PermissionPopupReason``.
public struct PermissionPopupContent: Equatable, Sendable {
    public var reason: PermissionPopupReason
    public var title: String
    public var message: String
    public var settingsButton: String
    public var cancelButton: String
    /// "Choose a place instead": the third action, when the app can search places.
    public var choosePlaceButton: String

    /// VoiceOver hint of the settings button: what it does.
    public var settingsHint: String
    /// VoiceOver hint of the cancel button.
    public var cancelHint: String
    /// VoiceOver hint of the choose-a-place button.
    public var choosePlaceHint: String

    /// The popup for `reason` in `localizer`'s language.
    public init(reason: PermissionPopupReason, localizer: Localizer = .system) {
        self.reason = reason
        let (titleKey, messageKey): (L10n.Key, L10n.Key) =
            switch reason {
            // The four popup keys keep the denied text.
            case .denied: (.popupTitle, .popupMessage)
            case .restricted: (.popupRestrictedTitle, .popupRestrictedMessage)
            case .locationServicesOff: (.popupServicesOffTitle, .popupServicesOffMessage)
            }
        title = L10n.text(titleKey, localizer)
        message = L10n.text(messageKey, localizer)
        settingsButton = L10n.text(.popupSettingsButton, localizer)
        cancelButton = L10n.text(.popupCancelButton, localizer)
        settingsHint = L10n.text(.popupSettingsHint, localizer)
        cancelHint = L10n.text(.popupCancelHint, localizer)
        choosePlaceButton = L10n.text(.popupChoosePlaceButton, localizer)
        choosePlaceHint = L10n.text(.popupChoosePlaceHint, localizer)
    }
}
