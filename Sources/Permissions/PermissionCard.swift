import PetSpotDomain

/// Everything one permission card on the permissions screen shows.
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
    public var statusText: String
    public var action: Action
    /// A request for this permission is under way (the button shows progress).
    public var isBusy: Bool

    public var id: Permission { permission }
    public var title: String { permission.title }
    public var symbolName: String { permission.symbolName }
    public var rationale: String { permission.rationale }

    public init(permission: Permission, state: PermissionState, statusText: String, action: Action, isBusy: Bool) {
        self.permission = permission
        self.state = state
        self.statusText = statusText
        self.action = action
        self.isBusy = isBusy
    }

    /// The label of ``action``'s button, or nil when there is no button.
    public var actionTitle: String? {
        switch action {
        case .allow: "Allow"
        case .allowAlways: "Allow Always"
        case .openSettings: "Settings"
        case .none: nil
        }
    }
}

extension PermissionCard {
    /// The status line of a card. Health never claims anything about reading.
    static func statusText(
        for permission: Permission,
        state: PermissionState,
        locationStatus: LocationPermissionStatus,
        locationServicesEnabled: Bool
    ) -> String {
        switch (permission, state) {
        case (_, .notDetermined): "Not asked yet"
        case (.location, .authorized): locationStatus == .authorizedAlways ? "Always" : "While using the app"
        case (.healthKit, .authorized): "Saving allowed"
        case (_, .authorized): "Allowed"
        case (.location, .denied) where !locationServicesEnabled: "Location Services are off"
        case (.healthKit, .denied): "Saving not allowed"
        case (_, .denied): "Not allowed"
        case (_, .restricted): "Restricted on this device"
        case (_, .unavailable): "Not available on this device"
        }
    }
}
