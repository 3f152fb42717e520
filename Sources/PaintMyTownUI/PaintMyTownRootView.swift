#if canImport(SwiftUI)
    import DeviceInterfaces
    import PaintMyTownFeature
    import CoreUI
    import SwiftUI

    /// Paint My Town's whole screen: the permissions screen while it shows (first as the onboarding,
    /// later from the walk screen's Permissions button), the walk screen otherwise. Every scene phase
    /// goes to the app model. The app launches the model itself, before any scene: iOS may launch the
    /// app into the background, where no scene appears (rule 35).
    public struct PaintMyTownRootView: View {
        @Bindable private var app: PaintMyTownModel
        @Environment(\.scenePhase) private var scenePhase

        public init(app: PaintMyTownModel) {
            self.app = app
        }

        public var body: some View {
            content
                // Every phase is forwarded: leaving the foreground keeps the walk under way (iOS may
                // end the app from then on), a return to active reads every permission again.
                .onChange(of: scenePhase) { _, newPhase in
                    app.scenePhaseChanged(to: AppScenePhase(newPhase))
                }
        }

        @ViewBuilder private var content: some View {
            if let screen = app.permissionsScreen {
                PermissionsView(model: screen)
            } else {
                WalkView(screen: WalkScreen(app), app: app)
            }
        }
    }
#endif
