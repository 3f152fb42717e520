import PetSpotDomain

extension StartupMachine {
    /// The startup screen during one app session.
    public struct State: Hashable, Sendable {
        /// The last status the machine acted on.
        public var permissionStatus: LocationPermissionStatus
        /// Whether the screen appeared in this session.
        public var hasAppeared = false
        /// Whether the screen's first status check of the session completed: iOS's alert (FR-003) and
        /// the custom popup (FR-004) may come with that check only.
        public var hasCheckedStatus = false
        /// The step of the load that is running, if any. Only one runs at a time.
        public var activity: Activity = .idle
        /// The latest status change seen while a step ran (FR-015); applied when it ends.
        public var pendingStatus: LocationPermissionStatus?
        /// Whether iOS's alert was requested (FR-003) and no answer to it has arrived yet.
        ///
        /// The answer comes twice, in either order: as the request's return and on the status stream.
        /// The first delivery of a status other than `.notDetermined` is the answer and clears this
        /// flag; the second then finds nothing left to do. A `.notDetermined` return (the bounded
        /// wait ended: no Info.plist key, or no answer yet) leaves it set, because iOS's alert can
        /// outlive that wait and a late tap is still the answer to it.
        public var isAwaitingAuthorizationAnswer = false
        /// The location of the last successful fetch, cleared when permission goes away.
        public var currentLocation: UserLocation?
        /// The last listing shown; nil until the first query completes.
        public var listing: Listing?
        /// Why the last query failed, while its error (with Retry) is showing.
        public var loadFailure: String?
        /// The custom popup on screen, by its cause; nil when none shows. It shows on the first check
        /// of a session only, so at most once (FR-004, FR-013).
        public var popup: PermissionPopupReason?
        /// The status went back to `.notDetermined` in this session (an Allow Once grant lapsed, "Ask
        /// Next Time" in Settings, Location Services back on): iOS is asked again once the app is
        /// active and nothing else runs.
        public var needsAuthorizationRequest = false
        /// The app's scene phase as last reported; iOS shows its alert only to an active app.
        public var scenePhase: AppScenePhase = .active
        /// Whether the app went to the background since it was last active.
        public var hasBeenInBackground = false
        /// Decimal places kept in coordinates sent to the server (2 ≈ 1 km).
        public var coordinateDecimals: Int

        /// A fresh session.
        /// - Parameters:
        ///   - permissionStatus: What is assumed before the first check (the seed's `.notDetermined`).
        ///   - coordinateDecimals: Precision of the coordinates that leave the device.
        public init(permissionStatus: LocationPermissionStatus = .notDetermined, coordinateDecimals: Int = 2) {
            self.permissionStatus = permissionStatus
            self.coordinateDecimals = coordinateDecimals
        }

        /// Whether a step of the load is running (the screen shows progress).
        public var isLoading: Bool { activity != .idle }

        /// Whether a query is in flight.
        public var isQuerying: Bool {
            switch activity {
            case .querying, .queryingFallbackForNothingNearby: true
            case .idle, .checkingStatus, .locating: false
            }
        }

        /// Whether the custom popup is on screen.
        public var isPopupPresented: Bool { popup != nil }

        /// The status the screen knows last: a change deferred behind the running step, or else the
        /// one it acted on. Coordinates leave the device only while this is authorized.
        public var latestKnownStatus: LocationPermissionStatus { pendingStatus ?? permissionStatus }
    }

    /// The running step of a load.
    public enum Activity: Hashable, Sendable {
        case idle
        /// FR-001: reading the status when the screen appeared.
        case checkingStatus
        /// FR-002: waiting for one location.
        case locating
        /// One query in flight, with the coordinates it carries (already rounded).
        case querying(near: UserLocation?)
        /// The query without coordinates that follows a query near the person that found nobody.
        case queryingFallbackForNothingNearby
    }

    /// Animals on screen and how they were asked for.
    public struct Listing: Hashable, Sendable {
        public var animals: [Animal]
        public var queriedNearLocation: Bool
        /// The query near the person found nobody within the radius, so this is the listing without
        /// coordinates (newest first), and the screen says so.
        public var isFallbackForNothingNearby: Bool

        public init(animals: [Animal], queriedNearLocation: Bool, isFallbackForNothingNearby: Bool = false) {
            self.animals = animals
            self.queriedNearLocation = queriedNearLocation
            self.isFallbackForNothingNearby = isFallbackForNothingNearby
        }
    }

    /// Something that happened to the screen.
    public enum Event: Equatable, Sendable {
        case screenAppeared
        /// The result of ``Effect/checkStatus``. `locationServicesEnabled` is false when Location
        /// Services are off for the whole phone (iOS then reports `.denied`, rule 7).
        case statusChecked(LocationPermissionStatus, locationServicesEnabled: Bool = true)
        /// The result of ``Effect/requestAuthorization``: the person's answer, or `.notDetermined`
        /// when none came within the bounded wait.
        case authorizationAnswered(LocationPermissionStatus)
        /// The result of ``Effect/requestLocation``; nil when no location could be had.
        case locationResult(UserLocation?)
        /// The result of ``Effect/fetchAnimals(near:)``.
        case animalsLoaded([Animal])
        /// ``Effect/fetchAnimals(near:)`` failed; the reason is for logs, not for the screen.
        case animalsFailed(String)
        case popupSettingsTapped
        case popupCancelTapped
        case scenePhaseChanged(AppScenePhase)
        /// A status reported by ``Effect/observeStatusChanges``.
        case statusChanged(LocationPermissionStatus)
        case retryTapped
        /// Pull to refresh: re-read the status, locate when authorized, and query.
        case refreshRequested
    }

    /// Work the machine asks for; each result comes back as an ``Event``.
    public enum Effect: Equatable, Sendable {
        /// Read the status (and, when it reads `.denied`, whether Location Services are on); answer
        /// with ``Event/statusChecked(_:locationServicesEnabled:)``.
        case checkStatus
        /// Subscribe to status changes; each arrives as ``Event/statusChanged(_:)``.
        case observeStatusChanges
        /// `requestWhenInUseAuthorization()`; answer with ``Event/authorizationAnswered(_:)``. It runs
        /// alongside the query without coordinates that starts with it.
        case requestAuthorization
        /// `requestLocation()`; answer with ``Event/locationResult(_:)``.
        case requestLocation
        /// Query the listing; answer with ``Event/animalsLoaded(_:)`` or ``Event/animalsFailed(_:)``.
        case fetchAnimals(near: UserLocation?)
        /// Open this app's page in Settings (no answer).
        case openSettings
    }
}
