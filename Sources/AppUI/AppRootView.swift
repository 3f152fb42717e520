#if canImport(SwiftUI)
    import AppFeature
    import Permissions
    import CoreUI
    import SwiftUI

    /// The whole app's screen: the listing, with a toolbar button that opens the permissions screen
    /// as a sheet. The listing's appearance and every scene phase go to the app model, which tells the
    /// screens and the location bridge.
    public struct AppRootView: View {
        @Bindable private var app: AppModel

        public init(app: AppModel) {
            self.app = app
        }

        public var body: some View {
            AnimalListView(
                viewModel: app.startup,
                appeared: { app.launch() },
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
