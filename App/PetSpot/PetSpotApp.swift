import AppFeature
import DeviceInterfaces
import Foundation
import Permissions
import PetAPI
import PlatformLive
import AppUI
import SwiftUI
import UIKit

/// The iOS app: one window with the listing and, from its toolbar, the permissions screen — both on
/// one ``AppModel`` and one location bridge (one `LocationService` over one `CLLocationManager`).
///
/// Everything that decides lives in the package; this file only picks the live implementations
/// (``AppDependencies/live(bundle:)``).
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
        app = AppModel.build(.live(bundle: .main))
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

extension AppDependencies {
    /// iOS 18 and later ask through service sessions and live updates (rule 30, rule 31); iOS 17
    /// through the location manager's calls.
    static func liveLocationSessions() -> (any LocationServiceSessions)? {
        if #available(iOS 18, *) { CoreLocationServiceSessions() } else { nil }
    }

    /// The live form: CoreLocation, the pets server over URLSession, the Info.plist and UserDefaults
    /// of `bundle`'s app. No Motion and no Health: no feature of PetSpot uses them, and the app links
    /// neither framework (`petspot check-plist --app petspot --project App/project.yml`).
    static func live(bundle: Bundle) -> AppDependencies {
        let server = AnimalRepository(baseURL: PetSpotApp.apiBaseURL(in: bundle))
        return AppDependencies(
            locationManager: CoreLocationManager(),
            locationSessions: liveLocationSessions(),
            pets: server,
            places: server,
            placeMemory: UserDefaultsPlaceMemory(),
            settingsOpener: SettingsOpener {
                guard let url = URL(string: UIApplication.openSettingsURLString) else { return }
                UIApplication.shared.open(url)
            },
            ledger: UserDefaultsPermissionLedger(),
            infoPlist: PropertyList(infoDictionary: bundle.infoDictionary)
        )
    }
}
