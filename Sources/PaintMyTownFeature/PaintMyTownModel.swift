import AsyncSupport
import DeviceInterfaces
import Foundation
import Localization
import LocationBridge
import Observation
import Permissions
import PetSpotDomain
import WalkFeature

/// Everything Paint My Town needs from outside itself, in one value: the live form is the iOS app's,
/// the simulated form the scenario runner's.
@MainActor
public struct PaintMyTownDependencies {
    public var locationManager: any LocationManaging
    /// iOS 18 and later: service sessions and live updates for the permission requests. Nil on iOS 17.
    public var locationSessions: (any LocationServiceSessions)?
    public var motion: any MotionAuthorizing
    public var health: any HealthAuthorizing
    public var walkLocation: any WalkLocationTracking
    public var walkMotion: any WalkMotionTracking
    public var workouts: any WorkoutSaving
    public var storage: any WalkStorage
    public var settingsOpener: SettingsOpener
    public var ledger: any PermissionLedger
    public var clock: any Clock<Duration>
    /// The present date, on the clock the fixes are stamped with.
    public var now: @Sendable () -> Date
    public var infoPlist: PropertyList
    public var localizer: Localizer

    public init(
        locationManager: any LocationManaging,
        locationSessions: (any LocationServiceSessions)? = nil,
        motion: any MotionAuthorizing,
        health: any HealthAuthorizing,
        walkLocation: any WalkLocationTracking,
        walkMotion: any WalkMotionTracking,
        workouts: any WorkoutSaving,
        storage: any WalkStorage,
        settingsOpener: SettingsOpener,
        ledger: any PermissionLedger,
        clock: any Clock<Duration> = ContinuousClock(),
        now: @escaping @Sendable () -> Date = { Date() },
        infoPlist: PropertyList,
        localizer: Localizer = .system
    ) {
        self.locationManager = locationManager
        self.locationSessions = locationSessions
        self.motion = motion
        self.health = health
        self.walkLocation = walkLocation
        self.walkMotion = walkMotion
        self.workouts = workouts
        self.storage = storage
        self.settingsOpener = settingsOpener
        self.ledger = ledger
        self.clock = clock
        self.now = now
        self.infoPlist = infoPlist
        self.localizer = localizer
    }
}

/// Paint My Town's app-wide state: the one permission manager, the
/// permissions screen (first as the onboarding), and the walk.
///
/// The rules are ``PaintMyTownMachine``'s; this model performs its effects. Scene phases come in once,
/// through ``scenePhaseChanged(to:)``: to the location bridge, and on a return to active to the
/// permission manager, which reads every permission again (Settings may have changed any).
@MainActor
@Observable
public final class PaintMyTownModel {
    /// What the app did, for an event log. Never a coordinate.
    public enum Event: Equatable, Sendable {
        case app(PaintMyTownMachine.Logged)
        case walk(WalkModel.Event)
    }

    public let permissions: PermissionManager
    public let walk: WalkModel
    /// The permissions screen while it shows, nil otherwise.
    public private(set) var permissionsScreen: PermissionsScreenModel?
    /// Whether the permissions screen showing is the onboarding.
    public var isOnboarding: Bool { state.isOnboarding }
    /// Why the last Start did nothing, until the next walk starts.
    public private(set) var walkRefusal: PaintMyTownMachine.WalkRefusal?
    /// The language and locale of every text the screens show.
    public let localizer: Localizer

    /// Receives every ``Event`` as it happens.
    @ObservationIgnored public var onEvent: (@MainActor (Event) -> Void)?
    /// The one location bridge.
    @ObservationIgnored public let location: LocationService

    @ObservationIgnored private let storage: any WalkStorage
    @ObservationIgnored private let offersAlwaysLocation: Bool
    @ObservationIgnored private var state = PaintMyTownMachine.State()
    @ObservationIgnored private lazy var runner: EffectRunner<PaintMyTownMachine.Event, PaintMyTownMachine.Effect, PaintMyTownMachine.Logged> = {
        // Unowned: the runner is this model's own and never outlives it.
        let runner = EffectRunner(step: { [unowned self] in step($0) }, perform: { [unowned self] in perform($0) })
        runner.onLog = { [unowned self] in onEvent?(.app($0)) }
        return runner
    }()
    @ObservationIgnored private var lifecycle: AsyncStream<AppScenePhase>.Continuation?
    @ObservationIgnored private var tasks: [Task<Void, Never>] = []

    public init(_ dependencies: PaintMyTownDependencies) {
        location = LocationService(
            manager: dependencies.locationManager,
            sessions: dependencies.locationSessions,
            clock: dependencies.clock,
            now: dependencies.now
        )
        permissions = PermissionManager(
            locationService: location,
            motion: dependencies.motion,
            health: dependencies.health,
            infoPlist: dependencies.infoPlist,
            ledger: dependencies.ledger,
            settingsOpener: dependencies.settingsOpener,
            clock: dependencies.clock,
            configuration: PermissionManager.Configuration(healthRequest: AppManifest.paintMyTown.healthRequest ?? .paintMyTown)
        )
        walk = WalkModel(
            location: dependencies.walkLocation,
            motion: dependencies.walkMotion,
            workouts: dependencies.workouts,
            storage: dependencies.storage,
            now: dependencies.now
        )
        storage = dependencies.storage
        localizer = dependencies.localizer
        offersAlwaysLocation = PlistRequirementsChecker.isSatisfied(.locationAlways, in: dependencies.infoPlist)
        walk.onEvent = { [weak self] event in
            if case .walk(.walkStarted) = event { self?.walkRefusal = nil }
            self?.onEvent?(.walk(event))
        }
        let (phases, continuation) = AsyncStream<AppScenePhase>.makeStream()
        lifecycle = continuation
        tasks.append(Task { [weak self, location] in
            // In order, each after the one before, as the location bridge needs them.
            for await phase in phases {
                switch phase {
                case .inactive: await location.applicationWillResignActive()
                case .background: await location.applicationDidEnterBackground()
                case .active:
                    await location.applicationDidBecomeActive()
                    guard let permissions = self?.permissions else { return }
                    Task { await permissions.checkAll() }
                }
            }
        })
        for permission in permissions.permissions {
            let updates = permissions.stateUpdates(for: permission)
            tasks.append(Task { [weak self] in
                for await state in updates {
                    guard let self else { return }
                    self.runner.send(.permissionObserved(permission, state))
                }
            })
        }
    }

    deinit {
        lifecycle?.finish()
        for task in tasks { task.cancel() }
    }

    /// The app launched, by the person or by iOS in the background: the onboarding shows until the
    /// person completes it once, and a walk that was under way when the last process ended goes on.
    public func launch() {
        runner.send(.launched(onboardingCompleted: storage.onboardingCompleted))
        walk.restore()
    }

    public func scenePhaseChanged(to phase: AppScenePhase) {
        if phase == .background { walk.leftForeground() }
        lifecycle?.yield(phase)
    }

    /// The walk screen's Permissions button.
    public func openPermissions() { runner.send(.permissionsOpened) }

    /// Done on the permissions screen.
    public func closePermissions() { runner.send(.permissionsClosed) }

    /// Start: a walk begins if location is allowed; it pauses itself if Motion is.
    public func startWalk() {
        runner.send(.startTapped(location: permissions.state(for: .location), motion: permissions.state(for: .motion)))
    }

    public func pauseWalk() { walk.pause() }

    public func resumeWalk() { walk.resume() }

    public func endWalk() { walk.end() }

    private func step(_ event: PaintMyTownMachine.Event) -> PaintMyTownMachine.Step {
        let step = PaintMyTownMachine.step(&state, event)
        if case .walkNotStarted(let refusal)? = step.log.last { walkRefusal = refusal }
        return step
    }

    private func perform(_ effect: PaintMyTownMachine.Effect) -> (@MainActor () async -> Void)? {
        switch effect {
        case .checkAllPermissions:
            let permissions = self.permissions
            return { await permissions.checkAll() }
        case .showPermissionsScreen:
            let screen = PermissionsScreenModel(
                manager: permissions,
                permissions: permissions.permissions,
                offersAlwaysLocation: offersAlwaysLocation,
                texts: .paintMyTown,
                localizer: localizer,
                onComplete: { [weak self] in self?.closePermissions() }
            )
            screen.onEvent = { [weak self] event in self?.runner.send(.permissionsScreen(event)) }
            permissionsScreen = screen
        case .hidePermissionsScreen:
            permissionsScreen = nil
        case .completeOnboarding:
            storage.onboardingCompleted = true
        case .startWalk(let autoPause):
            walk.start(autoPause: autoPause)
        }
        return nil
    }
}
