import AppFeature
import Foundation
import LocationService
import Permissions
import PetAPI
import PlatformLive
import StartupFeature
import StartupFeatureUI
import SwiftUI
import UIKit

/// The iOS app: one window with the listing and, from its toolbar, the permissions screen — both on
/// one ``AppModel`` and one location bridge (one `LocationService` over one `CLLocationManager`).
///
/// Everything that decides lives in the package; this file only picks the live implementations.
@main
struct PetSpotApp: App {
    /// Info.plist key of the pets server's root URL, e.g. `https://api.example.org`.
    static let apiBaseURLKey = "PetSpotAPIBaseURL"
    /// Used when Info.plist has no valid URL: the development server (`swift run petspot serve`) on
    /// this Mac, which the Simulator reaches on its loopback address.
    static let defaultAPIBaseURL = URL(string: "http://127.0.0.1:8080")

    /// Built once: a model made in `body` would restart the screens on every scene update.
    private let app: AppModel

    init() {
        let locationService = LocationService(manager: CoreLocationManager())
        let infoPlist = PropertyList(infoDictionary: Bundle.main.infoDictionary)
        let settingsOpener = SettingsOpener {
            guard let url = URL(string: UIApplication.openSettingsURLString) else { return }
            UIApplication.shared.open(url)
        }
        let startup = AnimalListViewModel(
            locationService: locationService,
            animalRepository: AnimalRepository(baseURL: Self.apiBaseURL(in: .main))
        )
        startup.onOpenAppSettings = { settingsOpener() }
        let permissions = PermissionManager(
            locationService: locationService,
            motion: CoreMotionAuthorizer(),
            health: HealthKitAuthorizer(),
            infoPlist: infoPlist,
            ledger: UserDefaultsPermissionLedger(),
            settingsOpener: settingsOpener
        )
        app = AppModel(permissions: permissions, startup: startup, infoPlist: infoPlist)
    }

    var body: some Scene {
        WindowGroup {
            AppRootView(app: app)
        }
    }

    /// The server root from Info.plist's ``apiBaseURLKey``, or ``defaultAPIBaseURL``.
    static func apiBaseURL(in bundle: Bundle) -> URL {
        if let value = bundle.object(forInfoDictionaryKey: apiBaseURLKey) as? String,
            let url = URL(string: value.trimmingCharacters(in: .whitespaces)),
            url.scheme == "http" || url.scheme == "https"
        {
            return url
        }
        guard let fallback = defaultAPIBaseURL else {
            preconditionFailure("defaultAPIBaseURL is a valid URL literal")
        }
        return fallback
    }
}
