import DeviceInterfaces
import Foundation
import PetSpotDomain

/// How a ``SimulatedDevice`` starts: what the installed app declares, what Settings say and where the
/// phone is. Every field has a default, so a scenario names only what it cares about.
public struct DeviceConfiguration: Sendable {
    /// The virtual date at which the device's clock reads zero elapsed time.
    public var epoch: Date
    /// Seed of every random choice the device makes (the offset of reduced-accuracy fixes), so the
    /// same configuration always gives the same events.
    public var seed: UInt64
    /// The keys present in the app's Info.plist (see ``InfoPlistRequirement``).
    public var infoPlistKeys: Set<String>
    /// The purpose keys inside the app's `NSLocationTemporaryUsageDescriptionDictionary`.
    public var temporaryLocationPurposeKeys: Set<String>
    /// The iOS major version: 18 and later have service sessions and live-update diagnostics
    /// (rule 30, rule 31), which the app then uses; 17 has only the classic location manager.
    public var iosVersion: Int
    /// Location Services, the app's location permission and the GPS.
    public var location: Location
    /// Motion & Fitness at start.
    public var motion: Motion
    /// HealthKit at start.
    public var health: Health
    /// The walk the person takes, if any (Paint My Town).
    public var walk: Walk?

    public init(
        epoch: Date = Date(timeIntervalSince1970: 1_767_225_600),
        seed: UInt64 = 0x5EED,
        infoPlistKeys: Set<String> = [InfoPlistRequirement.locationWhenInUse.key],
        temporaryLocationPurposeKeys: Set<String> = [],
        iosVersion: Int = DeviceConfiguration.newestIOSVersion,
        location: Location = Location(),
        motion: Motion = Motion(),
        health: Health = Health(),
        walk: Walk? = nil
    ) {
        self.epoch = epoch
        self.seed = seed
        self.infoPlistKeys = infoPlistKeys
        self.temporaryLocationPurposeKeys = temporaryLocationPurposeKeys
        self.iosVersion = iosVersion
        self.location = location
        self.motion = motion
        self.health = health
        self.walk = walk
    }
}

extension DeviceConfiguration {
    /// The iOS versions the simulator knows apart: 17 (the classic path), 18 (sessions) and 26.
    public static let iosVersions = [17, 18, 26]
    public static let newestIOSVersion = 26

    /// Whether the device has `CLServiceSession` and live-update diagnostics.
    public var supportsServiceSessions: Bool { iosVersion >= 18 }
}

extension DeviceConfiguration {
    /// Motion & Fitness: the phone's coprocessor, the system-wide switch and the app's decision.
    public struct Motion: Sendable {
        public var hasMotionCoprocessor: Bool
        /// Settings › Privacy & Security › Motion & Fitness › Fitness Tracking; off reads `.restricted`.
        public var fitnessTrackingEnabled: Bool
        /// The app's own decision.
        public var status: MotionAuthorizationStatus

        public init(
            hasMotionCoprocessor: Bool = true,
            fitnessTrackingEnabled: Bool = true,
            status: MotionAuthorizationStatus = .notDetermined
        ) {
            self.hasMotionCoprocessor = hasMotionCoprocessor
            self.fitnessTrackingEnabled = fitnessTrackingEnabled
            self.status = status
        }
    }

    /// HealthKit: whether the device has Health data and the app's decisions per type.
    public struct Health: Sendable {
        public var isHealthDataAvailable: Bool
        /// The permission to save each type, as the Health app stores it.
        public var shareStatus: [HealthDataType: HealthShareStatus]
        /// The person's read answers (never reported to the app).
        public var readAllowed: [HealthDataType: Bool]

        public init(
            isHealthDataAvailable: Bool = true,
            shareStatus: [HealthDataType: HealthShareStatus] = [:],
            readAllowed: [HealthDataType: Bool] = [:]
        ) {
            self.isHealthDataAvailable = isHealthDataAvailable
            self.shareStatus = shareStatus
            self.readAllowed = readAllowed
        }
    }
}

extension DeviceConfiguration {
    /// The location part of the device: Settings, GPS and timings.
    public struct Location: Sendable {
        /// The app's status at first launch. `.restricted` means device management forbids location.
        public var authorization: LocationPermissionStatus
        /// Location Services switch for the whole device.
        public var servicesEnabled: Bool
        /// The app's "Precise Location" switch.
        public var preciseLocation: Bool
        /// Where the phone is; nil when no fix can be had (indoors, no signal).
        public var position: GeoCoordinate?
        /// How long `requestLocation()` takes to find a fix at 100 m or better (GPS).
        public var fixDelay: Duration
        /// How long it takes at a kilometre or coarser, from Wi-Fi and cell towers (rule 14); never
        /// longer than ``fixDelay``.
        public var coarseFixDelay: Duration
        /// How long `requestLocation()` tries before failing with `locationUnknown` when no fix is possible.
        public var noFixTimeout: Duration
        /// The last fix the system already has at start, if any.
        public var cachedFix: CachedFix?
        /// Whether `requestLocation()` answers at once with the cached fix (however old) instead of a new one.
        public var deliversCachedFixOnRequest: Bool
        /// How long after the app leaves the foreground an "Allow Once" grant lapses.
        public var allowOnceExpiryDelay: Duration
        /// How long an approximate (reduced-accuracy) position is reused before a new one is drawn.
        public var reducedAccuracyRefreshInterval: Duration
        /// Whether a change made in Settings is reported before or after the scene becomes active again.
        public var settingsChangeReport: ReportOrder

        public init(
            authorization: LocationPermissionStatus = .notDetermined,
            servicesEnabled: Bool = true,
            preciseLocation: Bool = true,
            position: GeoCoordinate? = nil,
            fixDelay: Duration = .seconds(2),
            coarseFixDelay: Duration = .milliseconds(300),
            noFixTimeout: Duration = .seconds(10),
            cachedFix: CachedFix? = nil,
            deliversCachedFixOnRequest: Bool = false,
            allowOnceExpiryDelay: Duration = .seconds(10),
            reducedAccuracyRefreshInterval: Duration = .seconds(15 * 60),
            settingsChangeReport: ReportOrder = .beforeActive
        ) {
            self.authorization = authorization
            self.servicesEnabled = servicesEnabled
            self.preciseLocation = preciseLocation
            self.position = position
            self.fixDelay = fixDelay
            self.coarseFixDelay = coarseFixDelay
            self.noFixTimeout = noFixTimeout
            self.cachedFix = cachedFix
            self.deliversCachedFixOnRequest = deliversCachedFixOnRequest
            self.allowOnceExpiryDelay = allowOnceExpiryDelay
            self.reducedAccuracyRefreshInterval = reducedAccuracyRefreshInterval
            self.settingsChangeReport = settingsChangeReport
        }
    }

    /// A fix the system took before the scenario starts.
    public struct CachedFix: Sendable, Equatable {
        public var coordinate: GeoCoordinate
        /// Metres.
        public var horizontalAccuracy: Double
        /// How old the fix is when the device starts.
        public var age: Duration

        public init(coordinate: GeoCoordinate, horizontalAccuracy: Double = 65, age: Duration) {
            self.coordinate = coordinate
            self.horizontalAccuracy = horizontalAccuracy
            self.age = age
        }
    }

    /// iOS does not document whether the authorization callback or `active` comes first when the app
    /// returns from Settings (rule 10); the app must handle both, so a scenario can pick either.
    public enum ReportOrder: String, Sendable, Equatable, CaseIterable {
        case beforeActive
        case afterActive
    }
}
