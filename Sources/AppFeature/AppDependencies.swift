import DeviceInterfaces
import Foundation
import Localization
import LocationBridge
import Logging
import Permissions
import PetSpotDomain
import StartupFeature

/// Everything the app needs from outside itself, in one value.
///
/// It comes in three forms: live (the iOS app: CoreLocation, URLSession, UserDefaults), simulated (the simulated iPhone of the scenario runner and the demo) and test
/// (whose members fail the test unless it sets them). ``AppModel/build(_:)`` is the one place the
/// app is put together from it.
@MainActor
public struct AppDependencies {
    /// The one location manager: CLLocationManager on iOS.
    public var locationManager: any LocationManaging
    /// iOS 18 and later: service sessions and live updates, through which the app then asks instead of
    /// the manager's request calls. Nil on iOS 17.
    public var locationSessions: (any LocationServiceSessions)?
    /// Where the listing comes from.
    public var pets: any AnimalRepositoryProtocol
    /// Where place suggestions come from; nil: the app offers no place to choose.
    public var places: (any PlaceSearching)?
    /// Where the chosen place is remembered across launches.
    public var placeMemory: (any PlaceMemory)?
    /// Opens the app's page in Settings, for both screens.
    public var settingsOpener: SettingsOpener
    /// Remembers the once-per-install Always request across launches.
    public var ledger: any PermissionLedger
    /// Bounds every wait of the app.
    public var clock: any Clock<Duration>
    /// The current date, to judge a fix's age; must agree with the fixes' timestamps.
    public var now: @Sendable () -> Date
    /// The app's Info.plist.
    public var infoPlist: PropertyList
    /// The timeouts and freshness of the one location bridge.
    public var locationConfiguration: LocationService.Configuration
    /// The language and locale of every text the screens show.
    public var localizer: Localizer
    /// Where permission changes are logged (never a coordinate).
    public var logger: Logger

    public init(
        locationManager: any LocationManaging,
        locationSessions: (any LocationServiceSessions)? = nil,
        pets: any AnimalRepositoryProtocol,
        places: (any PlaceSearching)? = nil,
        placeMemory: (any PlaceMemory)? = nil,
        settingsOpener: SettingsOpener,
        ledger: any PermissionLedger,
        clock: any Clock<Duration> = ContinuousClock(),
        now: @escaping @Sendable () -> Date = { Date() },
        infoPlist: PropertyList,
        locationConfiguration: LocationService.Configuration = LocationService.Configuration(),
        localizer: Localizer = .system,
        logger: Logger = AppModel.logger()
    ) {
        self.locationManager = locationManager
        self.locationSessions = locationSessions
        self.pets = pets
        self.places = places
        self.placeMemory = placeMemory
        self.settingsOpener = settingsOpener
        self.ledger = ledger
        self.clock = clock
        self.now = now
        self.infoPlist = infoPlist
        self.locationConfiguration = locationConfiguration
        self.localizer = localizer
        self.logger = logger
    }
}

extension AppModel {
    /// The app, built from its dependencies: one location bridge under both screens, one Settings
    /// opener, one Info.plist. The iOS app, the scenario runner and the tests all build it here.
    public static func build(_ dependencies: AppDependencies) -> AppModel {
        let location = LocationService(
            manager: dependencies.locationManager,
            sessions: dependencies.locationSessions,
            clock: dependencies.clock,
            now: dependencies.now,
            configuration: dependencies.locationConfiguration
        )
        let settingsOpener = dependencies.settingsOpener
        let startup = AnimalListViewModel(
            locationService: location,
            animalRepository: dependencies.pets,
            settingsOpener: settingsOpener,
            localizer: dependencies.localizer,
            places: dependencies.places,
            placeMemory: dependencies.placeMemory,
            clock: dependencies.clock
        )
        let permissions = PermissionManager(
            locationService: location,
            // No feature of PetSpot uses Motion or Health: its permissions screen shows the
            // location card alone, and the app links neither framework.
            motion: nil,
            health: nil,
            infoPlist: dependencies.infoPlist,
            ledger: dependencies.ledger,
            settingsOpener: settingsOpener,
            clock: dependencies.clock
        )
        return AppModel(
            location: location,
            permissions: permissions,
            startup: startup,
            infoPlist: dependencies.infoPlist,
            logger: dependencies.logger
        )
    }
}
