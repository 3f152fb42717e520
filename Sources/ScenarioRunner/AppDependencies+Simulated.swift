import AppFeature
import AsyncSupport
import DeviceInterfaces
import DeviceSimulator
import Foundation
import Localization
import Logging
import Permissions
import PetSpotDomain

extension AppDependencies {
    /// The simulated form: the app on the simulated iPhone, on virtual time. The device's clock reads
    /// its epoch plus the virtual time, as the fixes it delivers are stamped.
    /// - Parameters:
    ///   - locationManager: the manager the device made for this launch.
    ///   - pets: the listing as the device's network delivers it.
    static func simulated(
        device: SimulatedDevice,
        locationManager: any LocationManaging,
        pets: any AnimalRepositoryProtocol & PlaceSearching,
        settingsOpener: SettingsOpener,
        ledger: any PermissionLedger,
        placeMemory: any PlaceMemory,
        clock: VirtualClock,
        infoPlist: PropertyList,
        localizer: Localizer
    ) throws(SimulatedDeviceError) -> AppDependencies {
        let epoch = device.configuration.epoch
        return AppDependencies(
            locationManager: locationManager,
            // Chosen by the device's iOS version, as the iOS app chooses with `#available`.
            locationSessions: device.configuration.supportsServiceSessions ? try device.serviceSessions() : nil,
            pets: pets,
            places: pets,
            placeMemory: placeMemory,
            settingsOpener: settingsOpener,
            ledger: ledger,
            clock: clock,
            now: { epoch.addingTimeInterval(clock.now.offset.timeInterval) },
            infoPlist: infoPlist,
            localizer: localizer,
            // The event log has every permission change; the logger speaks only of problems here.
            logger: AppModel.logger(level: .warning)
        )
    }
}
