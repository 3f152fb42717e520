import DeviceInterfaces
import PetSpotDomain

/// What the person (or device management) can do about location, and what a driver can read.
extension SimulatedDevice {
    /// The app's location status as iOS reports it now.
    public var locationAuthorization: LocationPermissionStatus {
        catchUp()
        return location.status
    }

    /// The Location Services switch.
    public var locationServicesEnabled: Bool {
        catchUp()
        return location.servicesEnabled
    }

    /// Whether the app's current When-In-Use grant came from "Allow Once".
    public var locationGrantIsTemporary: Bool {
        catchUp()
        return location.grantIsTemporary
    }

    /// Another location manager made by the running app (its creation callback follows).
    /// - Throws: ``SimulatedDeviceError/appNotRunning``.
    public func makeLocationManager() throws(SimulatedDeviceError) -> SimulatedLocationManager {
        catchUp()
        guard phase != .notRunning else { throw .appNotRunning }
        return location.makeManager()
    }

    /// Taps a button of the Always upgrade prompt (rule 6).
    /// - Throws: ``SimulatedDeviceError/noSystemAlertShowing(tried:)`` or
    ///   ``SimulatedDeviceError/buttonNotOnAlert(_:_:)`` when another alert is showing.
    public func answerAlwaysUpgrade(_ answer: AlwaysUpgradeAnswer) throws(SimulatedDeviceError) {
        try answerSystemAlert(answer.button)
    }

    /// The person picks a choice on the app's Location page in Settings (rule 8, rule 10).
    /// - Throws: when the app is in the foreground, the setting is restricted, or the choice is not offered.
    public func setLocationAuthorization(_ choice: LocationSettingsChoice) throws(SimulatedDeviceError) {
        catchUp()
        try ensureSettingsReachable()
        guard !location.restricted else { throw .locationSettingRestricted }
        let required: [String] =
            switch choice {
            case .never, .askNextTime: []
            case .whileUsing: [InfoPlistRequirement.locationWhenInUse.key]
            case .always: [InfoPlistRequirement.locationWhenInUse.key, InfoPlistRequirement.locationAlways.key]
            }
        if let missing = required.first(where: { !infoPlistKeys.contains($0) }) {
            throw .settingsChoiceNotOffered(choice, missingKey: missing)
        }
        record(.settingChanged(name: "Location", value: choice.rawValue))
        location.choose(choice.status)
    }

    /// The person switches Location Services for the whole device (rule 7).
    /// - Throws: ``SimulatedDeviceError/settingsUnreachableWhileAppInForeground``.
    public func setLocationServicesEnabled(_ enabled: Bool) throws(SimulatedDeviceError) {
        catchUp()
        try ensureSettingsReachable()
        record(.settingChanged(name: "Location Services", value: enabled ? "on" : "off"))
        location.setServicesEnabled(enabled)
    }

    /// The person switches the app's "Precise Location" (rule 11).
    /// - Throws: ``SimulatedDeviceError/settingsUnreachableWhileAppInForeground``.
    public func setPreciseLocation(_ precise: Bool) throws(SimulatedDeviceError) {
        catchUp()
        try ensureSettingsReachable()
        record(.settingChanged(name: "Precise Location", value: precise ? "on" : "off"))
        location.setPreciseLocation(precise)
    }

    /// Parental controls or device management forbid (or allow again) location for the app (rule 8).
    /// Applies at once, even while the app is in the foreground.
    public func setLocationRestricted(_ restricted: Bool) {
        catchUp()
        record(.settingChanged(name: "Location restriction", value: restricted ? "on" : "off"))
        location.setRestricted(restricted)
    }

    /// Where the phone is, as the GPS would find it (nil where no fix can be had).
    public var position: GeoCoordinate? {
        catchUp()
        return location.position
    }

    /// The phone moves to `coordinate`; nil means no fix can be had there.
    public func move(to coordinate: GeoCoordinate?) {
        catchUp()
        location.move(to: coordinate)
        record(.positionChanged(hasFix: coordinate != nil))
    }

    /// The phone moves to a latitude and longitude.
    /// - Throws: ``CoordinateError`` when either is out of range or not finite.
    public func moveTo(lat latitude: Double, lon longitude: Double) throws(CoordinateError) {
        move(to: try GeoCoordinate(latitude: latitude, longitude: longitude))
    }
}
