#if canImport(SwiftUI)
    import DeviceInterfaces
    import SwiftUI

    extension AppScenePhase {
        /// The same phase as SwiftUI reports it. Both apps' root views hand it to their app model.
        public init(_ phase: ScenePhase) {
            switch phase {
            case .active: self = .active
            case .background: self = .background
            default: self = .inactive
            }
        }
    }
#endif
