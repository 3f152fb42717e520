/// Why the simulated device refused a driver's action. Each case names what was wrong.
public enum SimulatedDeviceError: Error, Equatable, Sendable, CustomStringConvertible {
    case noSystemAlertShowing(tried: SystemAlertButton)
    case buttonNotOnAlert(SystemAlertButton, SystemAlert)
    case appAlreadyRunning
    case appNotRunning
    case appNotInForeground(ScenePhase)
    case appNotInBackground(ScenePhase)
    /// Settings is another app: the person must leave the app to change anything there.
    case settingsUnreachableWhileAppInForeground
    /// Parental controls or device management lock the app's location setting (rule 8).
    case locationSettingRestricted
    /// The Settings page offers this choice only when Info.plist has `missingKey`.
    case settingsChoiceNotOffered(LocationSettingsChoice, missingKey: String)
    /// Service sessions and live-update diagnostics need iOS 18; the device runs an older version.
    case requiresIOS18(running: Int)
    /// The person cannot set off: the device has no walk (``DeviceConfiguration/walk``).
    case noWalkConfigured

    public var description: String {
        switch self {
        case .noSystemAlertShowing(let button):
            "cannot tap \(button): no system alert is showing"
        case .buttonNotOnAlert(let button, let alert):
            "cannot tap \(button): the alert showing is \(alert)"
        case .appAlreadyRunning:
            "cannot launch: the app is already running"
        case .appNotRunning:
            "the app is not running"
        case .appNotInForeground(let phase):
            "the app is not in the foreground (scene is \(phase.rawValue))"
        case .appNotInBackground(let phase):
            "the app is not in the background (scene is \(phase.rawValue))"
        case .settingsUnreachableWhileAppInForeground:
            "Settings cannot be changed while the app is in the foreground: background it or open Settings first"
        case .locationSettingRestricted:
            "the app's location setting is restricted by parental controls or device management and cannot be changed"
        case .requiresIOS18(let version):
            "service sessions need iOS 18 or later; the device runs iOS \(version)"
        case .noWalkConfigured:
            "there is no walk to set off on: the device's configuration has none"
        case .settingsChoiceNotOffered(let choice, let key):
            "Settings does not offer \(choice.rawValue): Info.plist lacks \(key)"
        }
    }
}
