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

    public init(reason: PermissionPopupReason) {
        self.reason = reason
        switch reason {
        case .denied:
            // The seed's four keys keep the denied text.
            title = L10n.Location.Permission.Popup.title
            message = L10n.Location.Permission.Popup.message
        case .restricted:
            title = L10n.Location.Permission.Popup.restrictedTitle
            message = L10n.Location.Permission.Popup.restrictedMessage
        case .locationServicesOff:
            title = L10n.Location.Permission.Popup.servicesOffTitle
            message = L10n.Location.Permission.Popup.servicesOffMessage
        }
        settingsButton = L10n.Location.Permission.Popup.settingsButton
        cancelButton = L10n.Location.Permission.Popup.cancelButton
    }
}
