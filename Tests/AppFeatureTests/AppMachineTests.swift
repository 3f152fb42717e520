import AsyncSupport
import AppFeature
import DeviceInterfaces
import Permissions
import StartupFeature
import Testing

/// The app's own rules, fed events and checked whole, and every order of events up to a depth checked
/// against the app's invariants.
@Suite struct AppMachineTests {
    @Test func givenTheAppReturnsToActive_whenThePhaseArrives_thenTheScreenHearsItTheBridgeHearsItThenEveryPermissionIsRead() {
        var state = AppMachine.State()

        let step = AppMachine.step(&state, .scenePhaseChanged(.active))

        #expect(step.effects == [.startupScenePhase(.active), .locationScenePhase(.active), .checkAllPermissions])
        #expect(step.log.isEmpty)
    }

    @Test func givenAPermissionFirstObserved_whenItChangesAndThenRepeats_thenOnlyTheChangeIsNews() {
        var state = AppMachine.State()

        let first = AppMachine.step(&state, .permissionObserved(.motion, .notDetermined))
        let change = AppMachine.step(&state, .permissionObserved(.motion, .authorized))
        let same = AppMachine.step(&state, .permissionObserved(.motion, .authorized))

        #expect(first.log.isEmpty)
        #expect(change.log == [.permissionStateChanged(.motion, .authorized)])
        #expect(same.log.isEmpty)
    }

    @Test func givenThePermissionsScreen_whenOpenedTwiceAndClosedTwice_thenItShowsAndClosesOnce() {
        var state = AppMachine.State()

        let steps = [AppMachine.Event.permissionsOpened, .permissionsOpened, .permissionsClosed, .permissionsClosed]
            .map { AppMachine.step(&state, $0) }

        #expect(steps.map(\.effects) == [[.showPermissionsScreen], [], [.hidePermissionsScreen], []])
        #expect(steps.flatMap(\.log) == [.permissionsScreenShown, .permissionsScreenClosed])
    }

    // MARK: - Every order of events

    enum Happening: CaseIterable {
        case launched, inactive, background, active, open, close
        case locationAuthorized, locationDenied, motionAuthorized, requestStarted, requestFinished
    }

    /// The machine and what the world saw of it.
    struct World: Hashable {
        var machine = AppMachine.State()
        var screenShown = false
        var seen: [Permission: PermissionState] = [:]

        static func event(for happening: Happening) -> AppMachine.Event {
            switch happening {
            case .launched: .launched
            case .inactive: .scenePhaseChanged(.inactive)
            case .background: .scenePhaseChanged(.background)
            case .active: .scenePhaseChanged(.active)
            case .open: .permissionsOpened
            case .close: .permissionsClosed
            case .locationAuthorized: .permissionObserved(.location, .authorized)
            case .locationDenied: .permissionObserved(.location, .denied)
            case .motionAuthorized: .permissionObserved(.motion, .authorized)
            case .requestStarted: .permissionsScreen(.requestStarted(.motion))
            case .requestFinished: .permissionsScreen(.requestFinished(.motion, .authorized))
            }
        }

        mutating func apply(_ event: AppMachine.Event) -> String? {
            let step = AppMachine.step(&machine, event)
            // Invariant 1: the screen is shown and closed in turn, effect and log together.
            for effect in step.effects {
                switch effect {
                case .showPermissionsScreen:
                    if screenShown { return "shown twice" }
                    screenShown = true
                    if !step.log.contains(.permissionsScreenShown) { return "shown without its log line" }
                case .hidePermissionsScreen:
                    if !screenShown { return "closed while not shown" }
                    screenShown = false
                    if !step.log.contains(.permissionsScreenClosed) { return "closed without its log line" }
                default: break
                }
            }
            if screenShown != machine.isPermissionsScreenShown { return "the machine and the world disagree on the screen" }
            // Invariant 2: every phase reaches the startup screen and then the location bridge, once
            // each; a return to active then reads every permission.
            if case .scenePhaseChanged(let phase) = event {
                let expected: [AppMachine.Effect] = [.startupScenePhase(phase), .locationScenePhase(phase)]
                    + (phase == .active ? [.checkAllPermissions] : [])
                if step.effects != expected { return "phase \(phase) fanned out as \(step.effects)" }
            } else if step.effects.contains(where: { if case .locationScenePhase = $0 { true } else { false } }) {
                return "the location bridge heard a phase that did not happen"
            }
            // Invariant 3: a permission change is news exactly when it differs from what was seen before.
            if case .permissionObserved(let permission, let state) = event {
                let previous = seen.updateValue(state, forKey: permission)
                let isNews = previous != nil && previous != state
                if step.log.contains(.permissionStateChanged(permission, state)) != isNews {
                    return "\(permission) \(state) after \(String(describing: previous)) logged as news: \(!isNews)"
                }
            }
            return nil
        }
    }

    func explore(_ world: World, depth: Int, trail: inout [Happening], seen: inout [Int: Set<World>], failed: inout Bool) {
        guard depth > 0, !failed, seen[depth]?.contains(world) != true else { return }
        for happening in Happening.allCases where !failed {
            var next = world
            trail.append(happening)
            defer { trail.removeLast() }
            if let broken = next.apply(World.event(for: happening)) {
                Issue.record("\(broken), after \(trail.map { "\($0)" }.joined(separator: " → "))")
                failed = true
                return
            }
            explore(next, depth: depth - 1, trail: &trail, seen: &seen, failed: &failed)
        }
        seen[depth, default: []].insert(world)
    }

    @Test func givenTheApp_whenEverySequenceOfUpToTenEventsApplied_thenInvariantsHoldAfterEachStep() {
        var trail: [Happening] = []
        var seen: [Int: Set<World>] = [:]
        var failed = false

        explore(World(), depth: 10, trail: &trail, seen: &seen, failed: &failed)

        #expect(!failed)
        #expect(seen.values.contains { $0.contains { $0.screenShown && $0.seen[.location] == .denied } })
    }
}
