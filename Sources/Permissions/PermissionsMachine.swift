import AsyncSupport

/// The rules of the permissions screen as a pure function `(State, Event) -> Step`, like the startup
/// screen's ``StartupMachine``: ``PermissionsScreenModel`` only performs the effects and feeds their
/// results back.
///
/// What a card shows (its state and button) is read from the ``PermissionManager``, the app-wide
/// permission state; the machine holds what belongs to this screen alone: the detail shown, the last
/// error, the last Always outcome, the requests this screen has under way, and whether Done was
/// tapped.
public enum PermissionsMachine {
    public struct State: Hashable, Sendable {
        /// The permission whose "Learn more" detail is shown, if any.
        public var detailPermission: Permission?
        /// Why the last request was not made, until the next one starts.
        public var refusal: PermissionRequestError?
        /// The outcome of the last Always request.
        public var lastAlwaysOutcome: LocationAlwaysOutcome?
        /// Permissions whose request this screen started and that have not ended.
        public var requestsUnderWay: Set<Permission> = []
        /// Done was tapped: the screen is closing and takes no more taps.
        public var isCompleted = false

        public init() {}
    }

    public enum Event: Equatable, Sendable {
        case appeared
        /// "Allow" on a card: the When-In-Use step for location.
        case allowTapped(Permission)
        /// "Allow Always" on the location card.
        case allowAlwaysTapped
        case settingsTapped
        case learnMoreTapped(Permission)
        case detailClosed
        case doneTapped
        /// A request ended with the permission's new state.
        case requestFinished(Permission, PermissionState)
        /// The Always request ended.
        case alwaysFinished(LocationAlwaysOutcome, PermissionState)
        /// A request was not made.
        case requestRefused(Permission, PermissionRequestError)
    }

    public enum Effect: Equatable, Sendable {
        /// Read the states of these permissions again, in order; never prompts.
        case check([Permission])
        case request(Permission)
        case requestAlways
        case openSettings
        /// Tell whoever opened the screen that it is done.
        case complete
    }

    /// What one event did: the effects to perform, in order, and what happened, for the app's log.
    public typealias Step = MachineStep<Effect, PermissionsScreenModel.Event>

    /// Applies `event` to `state`.
    /// - Parameter permissions: the permissions the screen lists.
    public static func step(_ state: inout State, _ event: Event, permissions: [Permission]) -> Step {
        switch event {
        case .appeared:
            return Step(effects: [.check(permissions)], log: [])
        case .allowTapped(let permission):
            return start(&state, permission, effect: .request(permission))
        case .allowAlwaysTapped:
            return start(&state, .location, effect: .requestAlways)
        case .settingsTapped:
            return Step(effects: state.isCompleted ? [] : [.openSettings], log: [])
        case .learnMoreTapped(let permission):
            if !state.isCompleted { state.detailPermission = permission }
            return Step(effects: [], log: [])
        case .detailClosed:
            state.detailPermission = nil
            return Step(effects: [], log: [])
        case .doneTapped:
            // Once: the completion closes the screen, and a second tap must not close what came after it.
            guard !state.isCompleted else { return Step(effects: [], log: []) }
            state.isCompleted = true
            return Step(effects: [.complete], log: [])
        case .requestFinished(let permission, let permissionState):
            guard state.requestsUnderWay.remove(permission) != nil else { return Step(effects: [], log: []) }
            return Step(effects: [], log: [.requestFinished(permission, permissionState)])
        case .alwaysFinished(let outcome, let permissionState):
            guard state.requestsUnderWay.remove(.location) != nil else { return Step(effects: [], log: []) }
            state.lastAlwaysOutcome = outcome
            return Step(effects: [], log: [.requestFinished(.location, permissionState)])
        case .requestRefused(let permission, let error):
            guard state.requestsUnderWay.remove(permission) != nil else { return Step(effects: [], log: []) }
            state.refusal = error
            return Step(effects: [], log: [.requestRefused(permission, PermissionsScreenModel.RefusalReason(error))])
        }
    }

    /// A tap that asks for `permission`: ignored while one of its requests is under way (the card
    /// shows it busy, with no button) or once the screen is done.
    private static func start(_ state: inout State, _ permission: Permission, effect: Effect) -> Step {
        guard !state.isCompleted, !state.requestsUnderWay.contains(permission) else { return Step(effects: [], log: []) }
        state.refusal = nil
        state.requestsUnderWay.insert(permission)
        return Step(effects: [effect], log: [.requestStarted(permission)])
    }
}

extension PermissionsScreenModel.RefusalReason {
    init(_ error: PermissionRequestError) {
        switch error {
        case .missingUsageDescription: self = .missingUsageDescription
        case .systemError: self = .systemError
        }
    }
}
