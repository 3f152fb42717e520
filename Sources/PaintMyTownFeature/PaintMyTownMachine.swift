import AsyncSupport
import Permissions
import WalkFeature

/// Paint My Town's own rules as a pure function `(State, Event) -> Step`: the onboarding shown until
/// it is completed, which screen shows, when a walk may start and whether it pauses itself, which
/// permission changes are news. ``PaintMyTownModel`` performs the effects.
public enum PaintMyTownMachine {
    public struct State: Hashable, Sendable {
        /// Whether the permissions screen shows (as the onboarding or opened from the walk screen).
        public var isPermissionsScreenShown = false
        /// Whether the permissions screen showing is the onboarding.
        public var isOnboarding = false
        /// The state of each permission as last observed; a change from it is news.
        public var observed: [Permission: PermissionState] = [:]

        public init() {}
    }

    public enum Event: Equatable, Sendable {
        /// The app launched; `onboardingCompleted` as kept from an earlier launch.
        case launched(onboardingCompleted: Bool)
        /// The walk screen's Permissions button.
        case permissionsOpened
        /// Done on the permissions screen.
        case permissionsClosed
        case permissionObserved(Permission, PermissionState)
        case permissionsScreen(PermissionsScreenModel.Event)
        /// The person tapped Start, with each permission's state as the manager holds it at the tap (the
        /// observed states may be a hop behind a grant just made).
        case startTapped(location: PermissionState, motion: PermissionState)
    }

    public enum Effect: Equatable, Sendable {
        /// Read every permission (the cards and Start need them; Health is known only once asked).
        case checkAllPermissions
        case showPermissionsScreen(onboarding: Bool)
        case hidePermissionsScreen
        /// Remember that the onboarding was completed.
        case completeOnboarding
        /// Start a walk; `autoPause` when Motion & Fitness is allowed.
        case startWalk(autoPause: Bool)
    }

    /// Why a walk did not start.
    public enum WalkRefusal: String, Hashable, Sendable {
        /// Location is not allowed (never asked, denied, restricted, or Location Services off): nothing
        /// could be recorded, and nothing is.
        case locationNotAuthorized
        /// The onboarding is still up.
        case onboardingNotCompleted
    }

    /// What happened, for the app's log.
    public enum Logged: Equatable, Sendable {
        case permissionsScreenShown
        case permissionsScreenClosed
        case onboardingCompleted
        case permissionStateChanged(Permission, PermissionState)
        case permissionRequestStarted(Permission)
        case permissionRequestFinished(Permission, PermissionState)
        case permissionRequestRefused(Permission, PermissionsScreenModel.RefusalReason)
        case walkNotStarted(WalkRefusal)
    }

    public typealias Step = MachineStep<Effect, Logged>

    public static func step(_ state: inout State, _ event: Event) -> Step {
        switch event {
        case .launched(let completed):
            guard !completed, !state.isPermissionsScreenShown else { return Step(effects: [.checkAllPermissions]) }
            state.isPermissionsScreenShown = true
            state.isOnboarding = true
            return Step(effects: [.checkAllPermissions, .showPermissionsScreen(onboarding: true)], log: [.permissionsScreenShown])
        case .permissionsOpened:
            guard !state.isPermissionsScreenShown else { return Step() }
            state.isPermissionsScreenShown = true
            return Step(effects: [.showPermissionsScreen(onboarding: false)], log: [.permissionsScreenShown])
        case .permissionsClosed:
            guard state.isPermissionsScreenShown else { return Step() }
            let onboarding = state.isOnboarding
            state.isPermissionsScreenShown = false
            state.isOnboarding = false
            return Step(
                effects: [.hidePermissionsScreen] + (onboarding ? [.completeOnboarding] : []),
                log: [.permissionsScreenClosed] + (onboarding ? [.onboardingCompleted] : [])
            )
        case .permissionObserved(let permission, let permissionState):
            let previous = state.observed.updateValue(permissionState, forKey: permission)
            guard let previous, previous != permissionState else { return Step() }
            return Step(log: [.permissionStateChanged(permission, permissionState)])
        case .permissionsScreen(.requestStarted(let permission)):
            return Step(log: [.permissionRequestStarted(permission)])
        case .permissionsScreen(.requestFinished(let permission, let permissionState)):
            return Step(log: [.permissionRequestFinished(permission, permissionState)])
        case .permissionsScreen(.requestRefused(let permission, let reason)):
            return Step(log: [.permissionRequestRefused(permission, reason)])
        case .startTapped(let location, let motion):
            if state.isOnboarding { return Step(log: [.walkNotStarted(.onboardingNotCompleted)]) }
            guard location == .authorized else { return Step(log: [.walkNotStarted(.locationNotAuthorized)]) }
            return Step(effects: [.startWalk(autoPause: motion == .authorized)])
        }
    }
}
