import Foundation
import LocationService
import PetAPI
import PlatformLive
import StartupFeatureUI
import SwiftUI

/// The iOS app: one window with the startup screen, wired to the device's location services and the
/// pets server.
///
/// Everything that decides lives in the package; this file only picks the live implementations.
@main
struct PetSpotApp: App {
    /// Info.plist key of the pets server's root URL, e.g. `https://api.example.org`.
    static let apiBaseURLKey = "PetSpotAPIBaseURL"
    /// Used when Info.plist has no valid URL: the development server (`swift run petspot serve`) on
    /// this Mac, which the Simulator reaches on its loopback address.
    static let defaultAPIBaseURL = URL(string: "http://127.0.0.1:8080")

    private let coordinator: StartupCoordinator
    /// Built once: a view model made in `body` would restart the screen on every scene update.
    private let rootView: AnimalListView

    init() {
        let coordinator = StartupCoordinator(
            locationService: LocationService(manager: CoreLocationManager()),
            animalRepository: AnimalRepository(baseURL: Self.apiBaseURL(in: .main))
        )
        self.coordinator = coordinator
        rootView = coordinator.makeRootView()
    }

    var body: some Scene {
        WindowGroup {
            rootView
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
