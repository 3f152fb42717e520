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
/// ``build(_:)`` makes one from ``AppDependencies``.
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
    @ObservationIgnored private var phases: AsyncStream<AppScenePhase>.Continuation?
    @ObservationIgnored private var tasks: [Task<Void, Never>] = []

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
        let (stream, continuation) = AsyncStream<AppScenePhase>.makeStream()
        phases = continuation
        tasks.append(Task { [weak self] in
            for await phase in stream {
                guard let self else { return }
                await self.applyToLocationAndPermissions(phase)
            }
        })
        permissions.onLocationStatusChange = { [logger] status in
            logger.info("location status is now \(status.rawValue)")
        }
        for permission in Permission.allCases {
            let updates = permissions.stateUpdates(for: permission)
            tasks.append(Task { [weak self] in
                var previous: PermissionState?
                for await state in updates {
                    guard let self else { return }
                    if let previous, previous != state { self.permissionChanged(permission, to: state) }
                    previous = state
                }
            })
        }
    }

    deinit {
        phases?.finish()
        for task in tasks { task.cancel() }
    }

    /// The app launched: the startup screen appears (it asks for location, as the spec says; Motion
    /// and Health are asked only from their cards).
    public func launch() {
        startup.onAppear()
    }

    /// The app's scene phase changed: the startup screen hears it at once; the location bridge hears
    /// it in order (inactive: a prompt may be up; background: it is gone), and a return to active
    /// reads every permission again.
    public func scenePhaseChanged(to phase: AppScenePhase) {
        startup.scenePhaseChanged(to: phase)
        phases?.yield(phase)
    }

    /// The state of one permission now.
    public func state(for permission: Permission) -> PermissionState {
        permissions.state(for: permission)
    }

    /// Opens the permissions screen (the listing's toolbar button).
    public func openPermissions() {
        guard permissionsScreen == nil else { return }
        let screen = PermissionsScreenModel(
            manager: permissions,
            offersAlwaysLocation: offersAlwaysLocation,
            localizer: startup.localizer,
            onComplete: { [weak self] in self?.closePermissions() }
        )
        screen.onEvent = { [weak self] event in self?.permissionsScreenEvent(event) }
        permissionsScreen = screen
        emit(.permissionsScreenShown)
    }

    /// Closes the permissions screen (Done).
    public func closePermissions() {
        guard permissionsScreen != nil else { return }
        permissionsScreen = nil
        emit(.permissionsScreenClosed)
    }

    /// Scene phases reach the location service in order and at once; re-reading every permission on
    /// a return to active runs beside them, so a slow HealthKit read never delays the next phase.
    private func applyToLocationAndPermissions(_ phase: AppScenePhase) async {
        switch phase {
        case .inactive:
            await location.applicationWillResignActive()
        case .background:
            await location.applicationDidEnterBackground()
        case .active:
            await location.applicationDidBecomeActive()
            let permissions = self.permissions
            Task { await permissions.checkAll() }
        }
    }

    private func permissionChanged(_ permission: Permission, to state: PermissionState) {
        logger.info("\(permission.logName) permission is now \(state.rawValue)")
        emit(.permissionStateChanged(permission, state))
    }

    private func permissionsScreenEvent(_ event: PermissionsScreenModel.Event) {
        switch event {
        case .requestStarted(let permission):
            emit(.permissionRequestStarted(permission))
        case .requestFinished(let permission, let state):
            emit(.permissionRequestFinished(permission, state))
        case .requestRefused(let permission, let reason):
            logger.notice("\(permission.logName) request refused: \(reason.rawValue)")
            emit(.permissionRequestRefused(permission, reason))
        }
    }

    private func emit(_ event: AppEvent) {
        onEvent?(event)
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
