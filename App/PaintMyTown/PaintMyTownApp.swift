import DeviceInterfaces
import Foundation
import HealthKit
import PaintMyTownFeature
import PaintMyTownUI
import Permissions
import PlatformLive
import PlatformLiveFitness
import SwiftUI
import UIKit
import WalkFeature

/// Paint My Town, the walking app: its onboarding, then the walk screen — one ``PaintMyTownModel``,
/// one location bridge, one permission manager.
///
/// Everything that decides lives in the package; this file only picks the live implementations
/// (``PaintMyTownDependencies/live(bundle:)``). Should iOS launch the app into the background to go
/// on with a walk (rule 35, docs/requirements.md), the model is built and launched here, at once, as
/// iOS expects of a relaunched app: a scene may never be shown then.
@main
struct PaintMyTownApp: App {
    /// Built once: a model made in `body` would restart the screens on every scene update.
    private let app: PaintMyTownModel

    init() {
        app = PaintMyTownModel(.live(bundle: .main))
        app.launch()
        // Launched into the background, the app gets no scene and so no scene phase: it is told here.
        if UIApplication.shared.applicationState == .background { app.scenePhaseChanged(to: .background) }
    }

    var body: some Scene {
        WindowGroup {
            PaintMyTownRootView(app: app)
        }
    }
}

extension PaintMyTownDependencies {
    /// The live form: CoreLocation, CoreMotion and HealthKit, the Info.plist and UserDefaults of
    /// `bundle`'s app.
    static func live(bundle: Bundle) -> PaintMyTownDependencies {
        let sessions: (any LocationServiceSessions)? =
            if #available(iOS 18, *) { CoreLocationServiceSessions() } else { nil }
        // One store for the app, as HealthKit's documentation asks.
        let health = HKHealthStore()
        return PaintMyTownDependencies(
            locationManager: CoreLocationManager(),
            locationSessions: sessions,
            motion: CoreMotionAuthorizer(),
            health: HealthKitAuthorizer(store: health),
            walkLocation: CoreLocationWalkTracking(),
            walkMotion: CoreMotionWalkTracking(),
            workouts: HealthKitWorkoutSaver(store: health),
            storage: UserDefaultsWalkStorage(),
            settingsOpener: SettingsOpener {
                guard let url = URL(string: UIApplication.openSettingsURLString) else { return }
                UIApplication.shared.open(url)
            },
            ledger: UserDefaultsPermissionLedger(key: "paintMyTown.permissions.alwaysLocationRequested"),
            infoPlist: PropertyList(infoDictionary: bundle.infoDictionary)
        )
    }
}
