#if canImport(SwiftUI)
    import CoreUI
    import DeviceInterfaces
    import Localization
    import PetSpotDomain
    import StartupFeature
    import SwiftUI

    /// The startup screen. It shows what ``AnimalListViewModel`` exposes and forwards what happens
    /// (appearance, scene phases, taps); every decision is the view model's.
    public struct AnimalListView: View {
        @Bindable private var viewModel: AnimalListViewModel
        @Environment(\.scenePhase) private var scenePhase
        private let appeared: @MainActor () -> Void
        private let scenePhaseChanged: @MainActor (AppScenePhase) -> Void
        private let openPermissions: @MainActor () -> Void

        /// - Parameters:
        ///   - appeared: who hears that the screen appeared: the app model, which tells this screen.
        ///   - scenePhaseChanged: who hears scene phases: the app model, which tells this screen too.
        ///   - openPermissions: the toolbar's Permissions button.
        public init(
            viewModel: AnimalListViewModel,
            appeared: @escaping @MainActor () -> Void,
            scenePhaseChanged: @escaping @MainActor (AppScenePhase) -> Void,
            openPermissions: @escaping @MainActor () -> Void
        ) {
            self.viewModel = viewModel
            self.appeared = appeared
            self.scenePhaseChanged = scenePhaseChanged
            self.openPermissions = openPermissions
        }

        public var body: some View {
            NavigationStack {
                VStack(spacing: 0) {
                    if let banner = viewModel.errorBanner {
                        ErrorMessageView(message: banner, localizer: localizer, retry: { viewModel.retry() })
                    }
                    if let notice = viewModel.nothingNearbyNotice {
                        Text(verbatim: notice)
                            .font(.footnote)
                            .padding()
                            .accessibilityIdentifier(AccessibilityIdentifiers.AnimalList.nothingNearby)
                    }
                    if let summary = viewModel.listingSummary {
                        Text(verbatim: summary)
                            .font(.footnote)
                            .foregroundStyle(.secondary)
                            .padding()
                            .accessibilityAddTraits(.isHeader)
                            .accessibilityIdentifier(AccessibilityIdentifiers.AnimalList.summary)
                    }
                    if viewModel.offersPlaceChoice { placeControls }
                    listing
                }
                .navigationTitle(L10n.text(.listTitle, localizer))
                .toolbar {
                    Button(L10n.text(.listPermissionsButton, localizer)) { openPermissions() }
                        .accessibilityHint(L10n.text(.listPermissionsHint, localizer))
                        .accessibilityIdentifier(AccessibilityIdentifiers.AnimalList.permissions)
                }
            }
            // Hidden explicitly: `.isModal` silences only the card's siblings, maybe not the navigation bar.
            .accessibilityHidden(viewModel.permissionPopup != nil)
            .overlay {
                if let popup = viewModel.permissionPopup {
                    PermissionPopupView(
                        content: popup,
                        openSettings: { viewModel.openSettings() },
                        cancel: { viewModel.continueWithoutLocation() },
                        choosePlace: choosePlaceInstead
                    )
                }
            }
            .sheet(isPresented: $viewModel.isPlacePickerPresented) {
                if let picker = viewModel.placePicker {
                    PlacePickerView(
                        picker: picker, text: $viewModel.placeSearchText, localizer: localizer,
                        choose: { viewModel.choosePlace($0) }, close: { viewModel.closePlacePicker() }
                    )
                }
            }
            .onAppear { appeared() }
            // Every phase is forwarded; on a return to active (background → inactive → active) the
            // view model re-checks the permission status, as `checkPermissionStatusChange()` does.
            .onChange(of: scenePhase) { _, newPhase in
                scenePhaseChanged(AppScenePhase(newPhase))
            }
        }

        private var localizer: Localizer { viewModel.localizer }

        /// The popup's third action, when the app can search places.
        private var choosePlaceInstead: (@MainActor () -> Void)? {
            guard viewModel.placePicker != nil else { return nil }
            return { [viewModel] in viewModel.openPlacePicker() }
        }

        /// "Choose a Place" above a listing without the person's location, and beside "Pets near …"
        /// the control that clears the place.
        private var placeControls: some View {
            HStack {
                Button(L10n.text(.placeChooseButton, localizer)) { viewModel.openPlacePicker() }
                    .accessibilityHint(L10n.text(.placeChooseHint, localizer))
                    .accessibilityIdentifier(AccessibilityIdentifiers.Place.choose)
                if viewModel.offersPlaceClearing {
                    Button(L10n.text(.placeClearButton, localizer)) { viewModel.clearPlace() }
                        .accessibilityHint(L10n.text(.placeClearHint, localizer))
                        .accessibilityIdentifier(AccessibilityIdentifiers.Place.clear)
                }
            }
            .padding()
        }

        @ViewBuilder private var listing: some View {
            switch viewModel.content {
            case .loading:
                ProgressView(L10n.text(.listLoading, localizer))
                    .frame(maxWidth: .infinity, maxHeight: .infinity)
                    .accessibilityIdentifier(AccessibilityIdentifiers.AnimalList.loading)
            case .failed(let message):
                ErrorMessageView(message: message, localizer: localizer, retry: { viewModel.retry() })
                    .frame(maxWidth: .infinity, maxHeight: .infinity)
            case .empty:
                Text(verbatim: L10n.text(.listEmpty, localizer))
                    .frame(maxWidth: .infinity, maxHeight: .infinity)
                    .accessibilityIdentifier(AccessibilityIdentifiers.AnimalList.empty)
            case .animals(let animals):
                List(animals, id: \.rowIdentity) { animal in
                    AnimalRowView(animal: animal, localizer: localizer)
                        .accessibilityIdentifier(AccessibilityIdentifiers.AnimalList.row(id: animal.id))
                }
                .accessibilityIdentifier(AccessibilityIdentifiers.AnimalList.list)
                // Pull to refresh: re-reads the permission, locates when allowed, and queries.
                .refreshable { [viewModel] in await viewModel.refresh() }
            }
        }
    }

private extension Animal {
    /// A row's identity: the id's bytes, as the server tells pets apart (docs/api.md, "Pet ids").
    /// `id` as a `String` would make `é-9` and `e` + U+0301 `-9` one row.
    var rowIdentity: [UInt8] { Array(id.utf8) }
}
#endif
