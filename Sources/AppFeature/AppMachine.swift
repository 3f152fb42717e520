import AsyncSupport
import DeviceInterfaces
import Permissions
import StartupFeature

/// The app's own rules as a pure function `(State, Event) -> Step`, composing the two screens as
/// ``StartupMachine`` and ``PermissionsMachine`` compose their rules: which screen shows, where a scene
/// phase goes, which permission changes are news. ``AppModel`` performs the effects.
public enum AppMachine {
    public struct State: Hashable, Sendable {
        /// Whether the permissions screen shows over the listing.
        public var isPermissionsScreenShown = false
        /// The state of each permission as last observed; a change from it is news.
        public var observed: [Permission: PermissionState] = [:]

        public init() {}
    }

    public enum Event: Equatable, Sendable {
        case launched
        case scenePhaseChanged(AppScenePhase)
        /// The listing's Permissions button.
        case permissionsOpened
        /// Done on the permissions screen, or the sheet swiped away.
        case permissionsClosed
        /// The permission manager reports `state` for `permission` (at once when watched, then each change).
        case permissionObserved(Permission, PermissionState)
        /// What the permissions screen did.
        case permissionsScreen(PermissionsScreenModel.Event)
    }

    public enum Effect: Equatable, Sendable {
        /// The startup screen appears (it asks for location; Motion and Health only from their cards).
        case startupAppears
        /// The startup screen hears the phase at once.
        case startupScenePhase(AppScenePhase)
        /// The location bridge hears the phase, in order with the phases before it (inactive: a prompt
        /// may be up; background: it is gone; active: a pending request whose prompt is gone ends soon).
        case locationScenePhase(AppScenePhase)
        /// Every permission is read again (Settings may have changed any; Motion and HealthKit send no
        /// callback), after the location bridge heard the phase before it and beside what follows.
        case checkAllPermissions
        case showPermissionsScreen
        case hidePermissionsScreen
    }

    /// What one event did: the effects to perform, in order, and what happened, for the app's log.
    public typealias Step = MachineStep<Effect, AppEvent>

    public static func step(_ state: inout State, _ event: Event) -> Step {
        switch event {
        case .launched:
            return Step(effects: [.startupAppears])
        case .scenePhaseChanged(let phase):
            let check: [Effect] = phase == .active ? [.checkAllPermissions] : []
            return Step(effects: [.startupScenePhase(phase), .locationScenePhase(phase)] + check)
        case .permissionsOpened:
            guard !state.isPermissionsScreenShown else { return Step() }
            state.isPermissionsScreenShown = true
            return Step(effects: [.showPermissionsScreen], log: [.permissionsScreenShown])
        case .permissionsClosed:
            guard state.isPermissionsScreenShown else { return Step() }
            state.isPermissionsScreenShown = false
            return Step(effects: [.hidePermissionsScreen], log: [.permissionsScreenClosed])
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
        }
    }
}
