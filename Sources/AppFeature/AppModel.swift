import AsyncSupport
import DeviceInterfaces
import LocationBridge
import Logging
import Observation
import Permissions
import PetSpotDomain
import StartupFeature

/// The app-wide state: the one permission manager, the startup screen and the permissions screen,
/// all on the app's one ``LocationService`` (one `CLLocationManager`, one reader of its callbacks,
/// one timeout policy).
///
/// A grant made on either screen is seen by the other at once: the startup screen follows the
/// service's status stream, and so does the permission manager, whose every change this model logs
/// (``AppEvent/permissionStateChanged(_:_:)``, and under the `permissions` logger) whichever
/// screen caused it. Scene phases come in once, through ``scenePhaseChanged(to:)``, and fan out from
/// here: to the startup screen, to the location bridge (whose pending authorization waits depend on
/// them) and, on a return to active, to the permission manager, which reads every permission again.
/// The rules are ``AppMachine``'s; this model performs its effects, as the screens' models perform
/// theirs. ``build(_:)`` makes one from ``AppDependencies``.
@MainActor
@Observable
public final class AppModel {
    /// The permission manager of the whole app.
    public let permissions: PermissionManager
    /// The startup screen (the listing).
    public let startup: AnimalListViewModel
    /// The permissions screen while it is open, nil otherwise.
    public private(set) var permissionsScreen: PermissionsScreenModel?

    /// Whether the permissions screen shows, for a sheet's binding: SwiftUI writes `false` when the
    /// person swipes the sheet away, which closes it as Done does.
    public var isPermissionsScreenPresented: Bool {
        get { permissionsScreen != nil }
        set { newValue ? openPermissions() : closePermissions() }
    }

    /// Receives every ``AppEvent`` as it happens, for an event log.
    @ObservationIgnored public var onEvent: (@MainActor (AppEvent) -> Void)?

    /// The one location bridge under both screens.
    @ObservationIgnored public let location: LocationService
    @ObservationIgnored private let offersAlwaysLocation: Bool
    @ObservationIgnored private let logger: Logger
    @ObservationIgnored private var state = AppMachine.State()
    /// Runs ``AppMachine`` over ``state``: this model's ``step(_:)`` and ``perform(_:)``.
    @ObservationIgnored private lazy var runner: EffectRunner<AppMachine.Event, AppMachine.Effect, AppEvent> = {
        // Unowned: the runner is this model's own and never outlives it.
        let runner = EffectRunner(step: { [unowned self] in step($0) }, perform: { [unowned self] in perform($0) })
        runner.onLog = { [unowned self] in log($0) }
        return runner
    }()
    /// Work that must follow the scene phases in order.
    @ObservationIgnored private var lifecycle: AsyncStream<LifecycleWork>.Continuation?
    @ObservationIgnored private var tasks: [Task<Void, Never>] = []

    private enum LifecycleWork {
        case location(AppScenePhase)
        case checkAllPermissions
    }

    /// - Parameters:
    ///   - location: the location bridge both screens stand on.
    ///   - permissions: the app's permission manager (on the same location service as `startup`).
    ///   - startup: the startup screen's view model.
    ///   - infoPlist: the app's Info.plist: the location card offers Always only when it declares
    ///     `NSLocationAlwaysAndWhenInUseUsageDescription`.
    ///   - logger: where permission changes are logged (never a coordinate).
    init(
        location: LocationService,
        permissions: PermissionManager,
        startup: AnimalListViewModel,
        infoPlist: PropertyList,
        logger: Logger
    ) {
        self.location = location
        self.permissions = permissions
        self.startup = startup
        self.logger = logger
        offersAlwaysLocation = PlistRequirementsChecker.isSatisfied(.locationAlways, in: infoPlist)
        let (stream, continuation) = AsyncStream<LifecycleWork>.makeStream()
        lifecycle = continuation
        tasks.append(Task { [weak self] in
            for await work in stream {
                guard let self else { return }
                await self.perform(work)
            }
        })
        permissions.onLocationStatusChange = { [logger] status in
            logger.info("location status is now \(status.rawValue)")
        }
        for permission in Permission.allCases {
            let updates = permissions.stateUpdates(for: permission)
            tasks.append(Task { [weak self] in
                for await state in updates {
                    guard let self else { return }
                    self.send(.permissionObserved(permission, state))
                }
            })
        }
    }

    deinit {
        lifecycle?.finish()
        for task in tasks { task.cancel() }
    }

    /// The app launched: the startup screen appears (it asks for location, as the spec says; Motion
    /// and Health are asked only from their cards).
    public func launch() {
        send(.launched)
    }

    /// The app's scene phase changed: the startup screen hears it at once; the location bridge hears
    /// it in order (inactive: a prompt may be up; background: it is gone), and a return to active
    /// reads every permission again.
    public func scenePhaseChanged(to phase: AppScenePhase) {
        send(.scenePhaseChanged(phase))
    }

    /// The state of one permission now.
    public func state(for permission: Permission) -> PermissionState {
        permissions.state(for: permission)
    }

    /// Opens the permissions screen (the listing's toolbar button).
    public func openPermissions() {
        send(.permissionsOpened)
    }

    /// Closes the permissions screen (Done).
    public func closePermissions() {
        send(.permissionsClosed)
    }

    // MARK: - The loop

    private func send(_ event: AppMachine.Event) {
        runner.send(event)
    }

    private func step(_ event: AppMachine.Event) -> AppMachine.Step {
        AppMachine.step(&state, event)
    }

    /// What happened goes to the `permissions` logger (changes and refusals) and to ``onEvent``.
    private func log(_ event: AppEvent) {
        switch event {
        case .permissionStateChanged(let permission, let state):
            logger.info("\(permission.logName) permission is now \(state.rawValue)")
        case .permissionRequestRefused(let permission, let reason):
            logger.notice("\(permission.logName) request refused: \(reason.rawValue)")
        default:
            break
        }
        onEvent?(event)
    }

    /// Performs `effect` at once; what must follow the scene phases in order goes to `lifecycle`, so
    /// no effect of the app goes on in a task of the runner's.
    private func perform(_ effect: AppMachine.Effect) -> (@MainActor () async -> Void)? {
        switch effect {
        case .startupAppears:
            startup.onAppear()
        case .startupScenePhase(let phase):
            startup.scenePhaseChanged(to: phase)
        case .locationScenePhase(let phase):
            lifecycle?.yield(.location(phase))
        case .checkAllPermissions:
            lifecycle?.yield(.checkAllPermissions)
        case .showPermissionsScreen:
            let screen = PermissionsScreenModel(
                manager: permissions,
                permissions: permissions.permissions,
                offersAlwaysLocation: offersAlwaysLocation,
                texts: .petSpot,
                localizer: startup.localizer,
                onComplete: { [weak self] in self?.closePermissions() }
            )
            screen.onEvent = { [weak self] event in self?.send(.permissionsScreen(event)) }
            permissionsScreen = screen
        case .hidePermissionsScreen:
            permissionsScreen = nil
        }
        return nil
    }

    /// The location bridge hears each phase in order, each after the one before; re-reading every
    /// permission runs beside what follows, so a slow HealthKit read never delays the next phase.
    private func perform(_ work: LifecycleWork) async {
        switch work {
        case .location(.inactive):
            await location.applicationWillResignActive()
        case .location(.background):
            await location.applicationDidEnterBackground()
        case .location(.active):
            await location.applicationDidBecomeActive()
        case .checkAllPermissions:
            let permissions = self.permissions
            Task { await permissions.checkAll() }
        }
    }
}

/// What the app model did, for an event log. Never carries coordinates.
public enum AppEvent: Sendable, Equatable {
    case permissionsScreenShown
    case permissionsScreenClosed
    /// A permission's state changed, whichever screen (or Settings) caused it.
    case permissionStateChanged(Permission, PermissionState)
    case permissionRequestStarted(Permission)
    case permissionRequestFinished(Permission, PermissionState)
    /// A request was not made: iOS would crash or ignore it.
    case permissionRequestRefused(Permission, PermissionsScreenModel.RefusalReason)
}

extension Permission {
    /// The name in logs and scenario files: `location`, `motion`, `health`.
    public var logName: String {
        switch self {
        case .location: "location"
        case .motion: "motion"
        case .healthKit: "health"
        }
    }
}

extension AppModel {
    /// The app's logger for permission changes, at `level`.
    public nonisolated static func logger(level: Logger.Level = .info) -> Logger {
        var logger = Logger(label: "permissions")
        logger.logLevel = level
        return logger
    }
}
