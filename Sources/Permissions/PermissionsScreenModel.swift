import AsyncSupport
import Localization
import Observation
import PetSpotDomain

/// Drives the permissions screen and its "Learn more" detail: one card per permission with its
/// state and button, the detail being shown, an error line, and the completion callback.
///
/// The view holds no rules, and neither does this model: every tap is an event of
/// ``PermissionsMachine``, and this model performs the effects the machine returns and feeds their
/// results back, as ``AnimalListViewModel`` does for the startup screen.
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
    /// The machine's state for this screen.
    public private(set) var state = PermissionsMachine.State()

    /// The permission whose detail ("Learn more") is shown, if any; a sheet's binding may write nil.
    public var detailPermission: Permission? {
        get { state.detailPermission }
        set { newValue.map(learnMore) ?? closeDetail() }
    }
    /// A message about the last failed request, naming what was wrong.
    public var errorMessage: String? { state.refusal?.message(texts, localizer) }
    /// The outcome of the last Always request, for a one-line note under the location card.
    public var lastAlwaysOutcome: LocationAlwaysOutcome? { state.lastAlwaysOutcome }
    /// Whether ``finish()`` already ran.
    public var isCompleted: Bool { state.isCompleted }

    /// The language and locale of every text the screen shows.
    public let localizer: Localizer
    /// The app's own words: why it asks, what it does with each permission.
    public let texts: PermissionTexts

    @ObservationIgnored public let manager: PermissionManager
    @ObservationIgnored private let onComplete: @MainActor () -> Void
    /// Runs ``PermissionsMachine`` over ``state``: this model's ``step(_:)`` and ``perform(_:)``.
    @ObservationIgnored private lazy var runner: EffectRunner<PermissionsMachine.Event, PermissionsMachine.Effect, Event> = {
        // Unowned: the runner is this model's own and never outlives it.
        let runner = EffectRunner(step: { [unowned self] in step($0) }, perform: { [unowned self] in perform($0) })
        runner.onLog = { [unowned self] in onEvent?($0) }
        return runner
    }()

    /// - Parameters:
    ///   - texts: the app's own words (a table has texts only for the permissions its app uses).
    ///   - localizer: the language and locale of the screen's texts; the device's by default.
    ///   - onComplete: called once, when the person taps Done.
    public init(
        manager: PermissionManager,
        permissions: [Permission] = Permission.allCases,
        offersAlwaysLocation: Bool = false,
        texts: PermissionTexts,
        localizer: Localizer = .system,
        onComplete: @escaping @MainActor () -> Void
    ) {
        self.manager = manager
        self.texts = texts
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
            texts: texts,
            localizer: localizer
        )
    }

    /// The detail shown for ``detailPermission``.
    public var detail: PermissionDetailContent? {
        detailPermission.map(detail(for:))
    }

    /// The "Learn more" content of one permission: its card, what we do and don't do, privacy.
    public func detail(for permission: Permission) -> PermissionDetailContent {
        PermissionDetailContent(card: card(for: permission), health: manager.health, texts: texts, localizer: localizer)
    }

    /// Whether Done is enabled: no request is under way.
    public var canContinue: Bool { manager.requestsInFlight.isEmpty && !isCompleted }

    /// Loads the current states; call when the screen appears. Returns when they are read.
    public func appear() async {
        await send(.appeared)
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
    /// message naming what Info.plist lacks. Returns when the request has ended.
    public func allow(_ permission: Permission) async {
        await send(.allowTapped(permission))
    }

    /// "Allow Always": the second location step. Returns when the request has ended.
    public func allowAlways() async {
        await send(.allowAlwaysTapped)
    }

    /// "Settings".
    public func openSettings() {
        startSending(.settingsTapped)
    }

    /// "Learn more".
    public func learnMore(_ permission: Permission) {
        startSending(.learnMoreTapped(permission))
    }

    public func closeDetail() {
        startSending(.detailClosed)
    }

    /// "Done": calls the completion callback, once.
    public func finish() {
        startSending(.doneTapped)
    }

    // MARK: - The loop

    /// Applies `event` and returns when every effect it started has ended; cancelling the caller
    /// cancels those effects (a Motion or HealthKit wait then ends at once).
    private func send(_ event: PermissionsMachine.Event) async {
        await runner.sendAndWait(event)
    }

    private func startSending(_ event: PermissionsMachine.Event) {
        runner.send(event)
    }

    private func step(_ event: PermissionsMachine.Event) -> PermissionsMachine.Step {
        PermissionsMachine.step(&state, event, permissions: permissions)
    }

    /// Performs `effect`; returns the work that goes on after it (a request, the checks), if any.
    private func perform(_ effect: PermissionsMachine.Effect) -> (@MainActor () async -> Void)? {
        let manager = self.manager
        switch effect {
        case .check(let permissions):
            return {
                for permission in permissions { await manager.check(permission) }
            }
        case .request(let permission):
            return {
                do throws(PermissionRequestError) {
                    let state = try await manager.request(permission)
                    self.startSending(.requestFinished(permission, state))
                } catch {
                    self.startSending(.requestRefused(permission, error))
                }
            }
        case .requestAlways:
            return {
                do throws(PermissionRequestError) {
                    let outcome = try await manager.requestLocationAlways()
                    self.startSending(.alwaysFinished(outcome, manager.state(for: .location)))
                } catch {
                    self.startSending(.requestRefused(.location, error))
                }
            }
        case .openSettings:
            manager.openSettings()
            return nil
        case .complete:
            onComplete()
            return nil
        }
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
