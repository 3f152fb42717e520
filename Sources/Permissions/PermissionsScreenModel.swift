import Localization
import Observation
import PetSpotDomain

/// Drives the permissions screen and its "Learn more" detail: one card per permission with its
/// state and button, the detail being shown, an error line, and the completion callback.
///
/// The view holds no rules; everything it shows is read here, and every tap calls a method here.
@MainActor
@Observable
public final class PermissionsScreenModel {
    /// What a tap on a card started, for the app's event log.
    public enum Event: Sendable, Equatable {
        case requestStarted(Permission)
        case requestFinished(Permission, PermissionState)
        /// The request was not made, and why.
        case requestRefused(Permission, RefusalReason)
    }

    /// Why a request was not made.
    public enum RefusalReason: String, Sendable, Equatable {
        /// Info.plist lacks the usage description: iOS would crash the app or ignore the request.
        case missingUsageDescription
        /// The system reported an error.
        case systemError
    }

    /// Receives every ``Event``.
    @ObservationIgnored public var onEvent: (@MainActor (Event) -> Void)?

    /// The permissions the screen lists, in order.
    public let permissions: [Permission]
    /// Whether the location card offers the Always upgrade once While Using is granted.
    public let offersAlwaysLocation: Bool
    /// The permission whose detail ("Learn more") is shown, if any.
    public var detailPermission: Permission?
    /// A message about the last failed request, naming what was wrong.
    public private(set) var errorMessage: String?
    /// The outcome of the last Always request, for a one-line note under the location card.
    public private(set) var lastAlwaysOutcome: LocationAlwaysOutcome?
    /// Whether ``finish()`` already ran.
    public private(set) var isCompleted = false

    /// The language and locale of every text the screen shows.
    public let localizer: Localizer

    @ObservationIgnored public let manager: PermissionManager
    @ObservationIgnored private let onComplete: @MainActor () -> Void

    /// - Parameters:
    ///   - localizer: the language and locale of the screen's texts; the device's by default.
    ///   - onComplete: called once, when the person taps Done.
    public init(
        manager: PermissionManager,
        permissions: [Permission] = Permission.allCases,
        offersAlwaysLocation: Bool = false,
        localizer: Localizer = .system,
        onComplete: @escaping @MainActor () -> Void
    ) {
        self.manager = manager
        self.localizer = localizer
        self.permissions = permissions
        self.offersAlwaysLocation = offersAlwaysLocation
        self.onComplete = onComplete
    }

    /// The cards, derived from the manager's current state (observable through it).
    public var cards: [PermissionCard] { permissions.map(card(for:)) }

    /// The card of one permission.
    public func card(for permission: Permission) -> PermissionCard {
        let state = manager.state(for: permission)
        return PermissionCard(
            permission: permission,
            state: state,
            action: action(for: permission, state: state),
            isBusy: manager.requestsInFlight.contains(permission),
            locationStatus: manager.locationStatus,
            locationServicesEnabled: manager.locationServicesEnabled,
            localizer: localizer
        )
    }

    /// The detail shown for ``detailPermission``.
    public var detail: PermissionDetailContent? {
        detailPermission.map(detail(for:))
    }

    /// The "Learn more" content of one permission: its card, what we do and don't do, privacy.
    public func detail(for permission: Permission) -> PermissionDetailContent {
        PermissionDetailContent(card: card(for: permission), health: manager.health, localizer: localizer)
    }

    /// Whether Done is enabled: no request is under way.
    public var canContinue: Bool { manager.requestsInFlight.isEmpty && !isCompleted }

    /// Loads the current states; call when the screen appears.
    public func appear() async {
        for permission in permissions { await manager.check(permission) }
    }

    /// Performs the card's button.
    public func performAction(for permission: Permission) async {
        switch card(for: permission).action {
        case .allow: await allow(permission)
        case .allowAlways: await allowAlways()
        case .openSettings: openSettings()
        case .none: break
        }
    }

    /// "Allow": asks for the permission. A request iOS would crash on or ignore is refused with a
    /// message naming what Info.plist lacks.
    public func allow(_ permission: Permission) async {
        errorMessage = nil
        onEvent?(.requestStarted(permission))
        do {
            let state = try await manager.request(permission)
            onEvent?(.requestFinished(permission, state))
        } catch {
            refused(permission, error)
        }
    }

    /// "Allow Always": the second location step.
    public func allowAlways() async {
        errorMessage = nil
        onEvent?(.requestStarted(.location))
        do {
            lastAlwaysOutcome = try await manager.requestLocationAlways()
            onEvent?(.requestFinished(.location, manager.state(for: .location)))
        } catch {
            refused(.location, error)
        }
    }

    private func refused(_ permission: Permission, _ error: PermissionRequestError) {
        errorMessage = error.message(localizer)
        let reason: RefusalReason =
            switch error {
            case .missingUsageDescription: .missingUsageDescription
            case .systemError: .systemError
            }
        onEvent?(.requestRefused(permission, reason))
    }

    /// "Settings".
    public func openSettings() {
        manager.openSettings()
    }

    /// "Learn more".
    public func learnMore(_ permission: Permission) {
        detailPermission = permission
    }

    public func closeDetail() {
        detailPermission = nil
    }

    /// "Done": calls the completion callback, once.
    public func finish() {
        guard !isCompleted else { return }
        isCompleted = true
        onComplete()
    }

    private func action(for permission: Permission, state: PermissionState) -> PermissionCard.Action {
        switch state {
        case .notDetermined:
            return .allow
        case .denied:
            return .openSettings
        case .authorized where permission == .location && offersAlwaysLocation:
            return manager.canRequestLocationAlways ? .allowAlways : .none
        case .authorized, .restricted, .unavailable:
            return .none
        }
    }
}
