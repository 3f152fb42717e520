#if canImport(UIKit) && canImport(SwiftUI)
    import Foundation
    import PetSpotDomain
    import StartupFeature
    import SwiftUI
    import UIKit

    /// Builds the startup screen and handles its navigation (MVVM-C): the view asks the view model,
    /// the view model calls ``openAppSettings()`` through `onOpenAppSettings`.
    ///
    /// On iOS the services are `LocationService(manager: CoreLocationManager())` (PlatformLive) and
    /// `AnimalRepository(baseURL:)` (PetAPI); any implementation of the two protocols will do.
    @MainActor
    public final class StartupCoordinator {
        /// The screen's view model, once ``start()`` or ``makeRootView()`` built it.
        public private(set) var viewModel: AnimalListViewModel?
        private let locationService: any LocationServiceProtocol
        private let animalRepository: any AnimalRepositoryProtocol

        public init(
            locationService: any LocationServiceProtocol,
            animalRepository: any AnimalRepositoryProtocol
        ) {
            self.locationService = locationService
            self.animalRepository = animalRepository
        }

        /// The startup screen for a SwiftUI scene.
        public func makeRootView() -> AnimalListView {
            let viewModel = AnimalListViewModel(
                locationService: locationService,
                animalRepository: animalRepository
            )
            viewModel.onOpenAppSettings = { [weak self] in self?.openAppSettings() }
            self.viewModel = viewModel
            return AnimalListView(viewModel: viewModel)
        }

        /// The startup screen for a UIKit window.
        public func start() -> UIViewController {
            UIHostingController(rootView: makeRootView())
        }

        /// Opens this app's page in Settings (FR-005).
        public func openAppSettings() {
            guard let url = URL(string: UIApplication.openSettingsURLString) else { return }
            UIApplication.shared.open(url)
        }
    }
#endif
