#if canImport(SwiftUI)
    import AppFeature
    import Permissions
    import SwiftUI

    /// The whole app's screen: the listing, with a toolbar button that opens the permissions screen
    /// as a sheet. Scene phases go to the app model, which tells both screens.
    public struct AppRootView: View {
        @Bindable private var app: AppModel

        public init(app: AppModel) {
            self.app = app
        }

        public var body: some View {
            AnimalListView(
                viewModel: app.startup,
                scenePhaseChanged: { app.scenePhaseChanged(to: $0) },
                openPermissions: { app.openPermissions() }
            )
            .sheet(isPresented: $app.isPermissionsScreenPresented) {
                if let screen = app.permissionsScreen {
                    // Like Done, a swipe cannot close the screen while a request is under way.
                    PermissionsView(model: screen)
                        .interactiveDismissDisabled(!screen.canContinue)
                }
            }
        }
    }
#endif
