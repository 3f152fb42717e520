import AsyncSupport
import DeviceInterfaces
import PetSpotDomain

/// Every rule of the startup screen (FR-001…FR-015) as one pure function.
///
/// ``step(_:_:)`` takes the screen's ``State`` and one ``Event`` and returns the ``Effect``s to
/// perform, with the log of what it did. It never touches a service, a clock or a view: ``AnimalListViewModel`` performs the
/// effects and feeds their results back as events. A `State` lives as long as one app session (one
/// launch), so "once per session" is simply a flag in it.
///
/// How a load goes: the screen appears → check the status → (authorized: locate; `.notDetermined`:
/// ask iOS and query at once; denied/restricted: show the popup and query at once) → query with or
/// without coordinates → listing or error. At most one step of that pipeline runs at a time
/// (``Activity``); a status change seen while it runs is kept in ``State/pendingStatus`` and applied
/// when it ends (FR-015).
///
/// Nobody waits for a permission answer before seeing pets (SC-001, FR-007). For denied/restricted
/// the query without coordinates runs behind the custom popup (departure 5); for a person never
/// asked it runs behind iOS's own alert (FR-003, departure 7), so the listing shows at once even when no answer
/// ever comes (missing Info.plist key, or the person leaves the alert up). The answer arrives twice,
/// in either order — the request's return and the status stream — and only the first delivery of a
/// real answer counts (``State/isAwaitingAuthorizationAnswer``): "Allow" locates and queries again
/// near the person, after the running query if it still runs (FR-002, FR-015); "Don't Allow" adds
/// nothing, and never the custom popup, since the person just answered iOS's alert. A retry only
/// loads: it neither asks nor shows the popup. Pull to refresh re-reads the status and loads; so does a
/// return to the app when an authorized person's listing had to do without their location. When the
/// status goes back to `.notDetermined` in a session, or iOS's alert went away unanswered because the
/// app left the foreground, iOS is asked again as on a first launch, once the app is active (with the
/// query without coordinates only if that listing is not already on screen).
public enum StartupMachine {
    /// What one event did: the effects to perform, in order, and the log of what the machine did
    /// (in order, ending with the effects it started; never coordinates).
    public typealias Step = MachineStep<Effect, StartupEvent>

    /// Applies `event` to `state`: the effects to perform and the log of what was done.
    public static func step(_ state: inout State, _ event: Event) -> Step {
        var transition = Transition(state: state)
        let effects = transition.apply(event)
        state = transition.state
        return Step(effects: effects, log: transition.log + effects.compactMap(StartupEvent.init(starting:)))
    }
}

/// One event applied to the state. Each rule records what it does in ``log`` as it does it.
private struct Transition {
    var state: State
    var log: [StartupEvent] = []

    typealias State = StartupMachine.State
    typealias Effect = StartupMachine.Effect
    typealias Activity = StartupMachine.Activity
    typealias Listing = StartupMachine.Listing

    mutating func apply(_ event: StartupMachine.Event) -> [Effect] {
        switch event {
        case .screenAppeared:
            guard state.hasAppeared else {
                // FR-001: the status is checked when the screen appears; FR-010: and observed from now on.
                log.append(.screenAppeared)
                state.hasAppeared = true
                begin(.checkingStatus)
                return [.observeStatusChanges, .checkStatus]
            }
            // A later appearance re-reads the status as an observation; it does not restart the load.
            return [.checkStatus]

        case .statusChecked(let status, let locationServicesEnabled):
            log.append(.permissionChecked(status))
            guard state.activity == .checkingStatus else {
                if state.popup == .locationServicesOff, locationServicesEnabled, status == .denied {
                    // Location Services are back on; this app itself is still denied: the popup now
                    // says so, and the log with it.
                    state.popup = .denied
                    log.append(.customPopupChanged(reason: .denied))
                }
                return observe(status)
            }
            let isFirstCheck = !state.hasCheckedStatus
            state.hasCheckedStatus = true
            if state.pendingStatus == status { state.pendingStatus = nil }
            return startLoad(
                for: status, isFirstCheck: isFirstCheck, locationServicesEnabled: locationServicesEnabled
            )

        case .authorizationAnswered(let status):
            // The request's return is one of the answer's two deliveries; the stream brings the other.
            // While the answer is awaited it is logged as the answer, even when it brings none.
            let isAnswer = state.isAwaitingAuthorizationAnswer
            if isAnswer { log.append(.permissionAnswered(status)) }
            // `.notDetermined` means the bounded wait ended without an answer: no news, and never a
            // change to apply (it may even come after the stream brought the answer).
            guard status != .notDetermined else { return [] }
            if !isAnswer { announce(status) }
            return observe(status)

        case .locationResult(let location):
            guard state.activity == .locating else { return [] }
            // US4-4: a revocation seen while the fix was on its way wins; the query goes without it.
            let usable = state.latestKnownStatus.isAuthorized ? location : nil
            state.currentLocation = usable
            switch (location, usable) {
            case (nil, _): log.append(.locationUnavailable)
            case (.some, nil): log.append(.locationDroppedAfterRevocation)
            case (.some, .some(let usable)):
                log.append(.locationObtained(sent: SentCoordinates(usable.rounded(toDecimals: state.coordinateDecimals))))
            }
            // FR-008 with a location; FR-009/FR-014 without one.
            return startQuery(near: usable)

        case .animalsLoaded(let animals):
            guard state.isQuerying else { return [] }
            log.append(.queryFinished(count: animals.count))
            switch state.activity {
            case .querying(.some) where animals.isEmpty, .queryingNearPlace where animals.isEmpty:
                // Nobody within the radius: a located listing is never empty while there are pets, so
                // the listing without coordinates follows, and the screen says why.
                log.append(.noPetsNearby)
                if case .queryingNearPlace(let place) = state.activity { state.fallbackPlace = place } else { state.fallbackPlace = nil }
                begin(.queryingFallbackForNothingNearby)
                return [.fetchAnimals(near: nil)]
            case .querying(let location):
                // FR-012: the listing shows when its query completes.
                state.listing = Listing(animals: animals, queriedNearLocation: location != nil)
            case .queryingNearPlace(let place):
                state.listing = Listing(animals: animals, queriedNearLocation: false, place: place)
            case .queryingFallbackForNothingNearby:
                // Nobody near the chosen place either: the screen says whose surroundings were empty.
                state.listing = Listing(
                    animals: animals, queriedNearLocation: false, isFallbackForNothingNearby: true, place: state.fallbackPlace
                )
            case .idle, .checkingStatus, .locating:
                return []
            }
            log.append(.listingShown(count: animals.count, withLocation: state.listing?.queriedNearLocation ?? false))
            state.loadFailure = nil
            state.activity = .idle
            return applyPendingStatus()

        case .animalsFailed(let reason):
            guard state.isQuerying else { return [] }
            log.append(.queryFailed(reason: reason))
            // Earlier results stay; the error offers Retry.
            state.loadFailure = reason
            state.activity = .idle
            return applyPendingStatus()

        case .choosePlaceTapped:
            // From the listing's header, or the popup's third action (which closes the popup: the
            // listing behind it is already on its way).
            if state.isPopupPresented {
                log.append(.customPopupDismissed(.choosePlace))
                state.popup = nil
            }
            state.isChoosingPlace = true
            return []

        case .placePickerClosed:
            state.isChoosingPlace = false
            return []

        case .placeChosen(let place):
            state.isChoosingPlace = false
            state.chosenPlace = place
            log.append(.placeChosen(id: place.id))
            return [.rememberPlace(place)] + reloadForPlaceChange()

        case .placeCleared:
            state.isChoosingPlace = false
            guard state.chosenPlace != nil else { return [] }
            state.chosenPlace = nil
            log.append(.placeCleared)
            return [.rememberPlace(nil)] + reloadForPlaceChange()

        case .popupSettingsTapped:
            guard state.isPopupPresented else { return [] }
            log.append(.customPopupDismissed(.goToSettings))
            state.popup = nil
            return [.openSettings]  // FR-005

        case .popupCancelTapped:
            // FR-006: the query without coordinates already started behind the popup.
            if state.isPopupPresented { log.append(.customPopupDismissed(.cancel)) }
            state.popup = nil
            return []

        case .scenePhaseChanged(let phase):
            log.append(.scenePhaseChanged(phase))
            return scenePhaseChanged(to: phase)

        case .statusChanged(let status):
            announce(status)
            return observe(status)

        case .retryTapped:
            guard state.hasAppeared, state.activity == .idle else { return [] }
            log.append(.retryTapped)
            return startLoad(for: state.permissionStatus, isFirstCheck: false)

        case .refreshRequested:
            guard state.hasCheckedStatus, state.activity == .idle else { return [] }
            log.append(.refreshRequested)
            return recheckAndLoad()
        }
    }
}
// MARK: - State

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
        /// The place the person chose instead of sharing their location, remembered across launches:
        /// every query made without their location is made near it (docs/api.md, "Places").
        public var chosenPlace: Place?
        /// Whether the place picker shows.
        public var isChoosingPlace = false
        /// The chosen place changed while a step ran: the listing follows it when the step ends.
        public var needsPlaceReload = false
        /// The place a "nobody nearby" fallback was asked after, if it was a place (not the person).
        public var fallbackPlace: Place?

        /// A fresh session.
        /// - Parameters:
        ///   - permissionStatus: What is assumed before the first check (`.notDetermined`).
        ///   - coordinateDecimals: Precision of the coordinates that leave the device.
        ///   - chosenPlace: The place remembered from an earlier launch, if any.
        public init(permissionStatus: LocationPermissionStatus = .notDetermined, coordinateDecimals: Int = 2, chosenPlace: Place? = nil) {
            self.permissionStatus = permissionStatus
            self.coordinateDecimals = coordinateDecimals
            self.chosenPlace = chosenPlace
        }

        /// Whether a step of the load is running (the screen shows progress).
        public var isLoading: Bool { activity != .idle }

        /// Whether a query is in flight.
        public var isQuerying: Bool {
            switch activity {
            case .querying, .queryingNearPlace, .queryingFallbackForNothingNearby: true
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
        /// One query in flight near the place the person chose (their location is not used).
        case queryingNearPlace(Place)
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
        /// The place the query was made near, when the person chose one instead of sharing location.
        public var place: Place?

        public init(animals: [Animal], queriedNearLocation: Bool, isFallbackForNothingNearby: Bool = false, place: Place? = nil) {
            self.animals = animals
            self.queriedNearLocation = queriedNearLocation
            self.isFallbackForNothingNearby = isFallbackForNothingNearby
            self.place = place
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
        /// "Choose a place": from the listing's header, or the custom popup's third action.
        case choosePlaceTapped
        /// The place picker went away without a choice.
        case placePickerClosed
        /// The person picked a place from the suggestions.
        case placeChosen(Place)
        /// The clear control: back to the listing without a place.
        case placeCleared
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
        /// Query the listing near the chosen place; answered as ``fetchAnimals(near:)`` is.
        case fetchAnimalsNearPlace(Place)
        /// Remember the chosen place across launches (nil forgets it); no answer.
        case rememberPlace(Place?)
    }
}

// MARK: - Rules

extension Transition {
    /// Starts the pipeline for `status`: ask, locate, or query without coordinates.
    /// - Parameters:
    ///   - isFirstCheck: Whether this is the screen's first check, the only time iOS's alert (FR-003)
    ///     or the custom popup (FR-004) may come with a load. A retry or a refresh only loads: the
    ///     person who answered "Don't Allow" and retries gets no popup for that answer.
    ///   - locationServicesEnabled: False when Location Services are off for the whole phone, which
    ///     iOS reports as `.denied` (rule 7); the popup then says where to turn them on.
    private mutating func startLoad(
        for status: LocationPermissionStatus,
        isFirstCheck: Bool,
        locationServicesEnabled: Bool = true
    ) -> [Effect] {
        let previous = state.permissionStatus
        state.permissionStatus = status
        closePopupIfItNoLongerExplainsTheStatus()
        if status != .notDetermined { state.needsAuthorizationRequest = false }
        if status.isAuthorized {
            return startLocating()  // FR-002
        }
        state.currentLocation = nil
        if status == .notDetermined, isFirstCheck || state.needsAuthorizationRequest || previous != .notDetermined {
            // FR-003: iOS's alert shows. SC-001/FR-007: the query without coordinates starts behind it
            // at once (departure 7), as behind the custom popup (departure 5); the answer is handled
            // when it comes (see `answerAuthorization`). If iOS cannot show it now, it is asked later.
            state.needsAuthorizationRequest = true
            if canAsk { return ask() }
        }
        if isFirstCheck {
            // FR-004, FR-013: the popup, by cause, on the session's first check only.
            let reason: PermissionPopupReason? =
                switch status {
                case .restricted: .restricted
                case .denied: locationServicesEnabled ? .denied : .locationServicesOff
                case .notDetermined, .authorizedWhenInUse, .authorizedAlways: nil
                }
            if let reason {
                state.popup = reason
                log.append(.customPopupShown(reason: reason))
            }
        }
        // Departure 5 / SC-001: the query without coordinates starts at once, behind the popup.
        return startQuery(near: nil)  // FR-007, FR-009
    }

    /// Whether iOS can show its alert now: the app is active and no earlier alert still waits.
    private var canAsk: Bool {
        state.scenePhase == .active && !state.isAwaitingAuthorizationAnswer
    }

    /// iOS's alert and, behind it, the query without coordinates (FR-003, SC-001), unless `querying`
    /// is false. Only after ``canAsk``.
    private mutating func ask(querying: Bool = true) -> [Effect] {
        state.needsAuthorizationRequest = false
        state.isAwaitingAuthorizationAnswer = true
        return [.requestAuthorization] + (querying ? startQuery(near: nil) : [])
    }

    /// Asks iOS again after the status went back to `.notDetermined`, or after its alert went away
    /// unanswered, if iOS can show its alert now (the app is active) and nothing runs; otherwise the
    /// request stays due. The query without coordinates comes with it only when the screen does not
    /// already show that listing: a first check made while the app was inactive already ran it.
    private mutating func askAgainIfPossible() -> [Effect] {
        guard state.needsAuthorizationRequest, state.permissionStatus == .notDetermined else {
            state.needsAuthorizationRequest = false
            return []
        }
        guard canAsk, state.activity == .idle else { return [] }
        // A "nobody nearby" fallback is a listing without location too, but its notice speaks of a
        // location no longer used: it is asked for again, plainly.
        let showsListingWithoutLocation = state.listing.map { !$0.queriedNearLocation && !$0.isFallbackForNothingNearby } ?? false
        return ask(querying: !showsListingWithoutLocation || state.loadFailure != nil)
    }

    /// Starts a step of a load. No dead Retry: a failed query's error goes as soon as any step starts,
    /// since Retry does nothing while one runs.
    private mutating func begin(_ activity: Activity) {
        state.activity = activity
        state.loadFailure = nil
    }

    private mutating func startLocating() -> [Effect] {
        begin(.locating)
        return [.requestLocation]
    }

    /// Re-reads the status, then loads as it says (pull to refresh, a return to the app).
    private mutating func recheckAndLoad() -> [Effect] {
        begin(.checkingStatus)
        return [.checkStatus]
    }

    /// Starts the one query; coordinates leave the device rounded (departure 6). Without the
    /// person's location, the query is made near the place they chose, if they chose one.
    private mutating func startQuery(near location: UserLocation?) -> [Effect] {
        state.needsPlaceReload = false
        if location == nil, let place = state.chosenPlace {
            begin(.queryingNearPlace(place))
            return [.fetchAnimalsNearPlace(place)]
        }
        let sent = location?.rounded(toDecimals: state.coordinateDecimals)
        begin(.querying(near: sent))
        return [.fetchAnimals(near: sent)]
    }

    /// The chosen place changed: a listing made without the person's location follows it — now, or
    /// when the running step ends (FR-015: never two queries at once). A listing near the person
    /// stays as it is.
    private mutating func reloadForPlaceChange() -> [Effect] {
        guard state.hasCheckedStatus else { return [] }  // the first load will use it
        guard state.activity == .idle else {
            state.needsPlaceReload = true
            return []
        }
        if state.listing?.queriedNearLocation == true { return [] }
        return startQuery(near: nil)
    }

    /// Logs what a status delivered by iOS (the stream, or the request's return once the answer is
    /// no longer awaited) is news as, judged before the machine acts on it: the answer to iOS's alert,
    /// or a change the machine takes in (now or after the running step). A re-check is not news.
    private mutating func announce(_ status: LocationPermissionStatus) {
        let isNews: Bool
        if !state.hasAppeared {
            isNews = status != state.permissionStatus
        } else if state.isAwaitingAuthorizationAnswer, status != .notDetermined {
            log.append(.permissionAnswered(status))
            return
        } else if state.activity != .idle {
            isNews = (status == state.permissionStatus ? nil : status) != state.pendingStatus
        } else {
            isNews = status != state.permissionStatus
        }
        if isNews { log.append(.permissionChanged(status)) }
    }

    /// A status seen on the stream, on a re-check or as the request's return (FR-010, FR-011).
    private mutating func observe(_ status: LocationPermissionStatus) -> [Effect] {
        guard state.hasAppeared else {
            state.permissionStatus = status
            return []
        }
        if state.isAwaitingAuthorizationAnswer, status != .notDetermined {
            return answerAuthorization(status)
        }
        guard state.activity == .idle else {
            // FR-015: never cancel or overlap the running step; apply the latest change afterwards.
            setPendingStatus(status == state.permissionStatus ? nil : status)
            return []
        }
        return applyStatusChange(to: status)
    }

    /// Keeps `status` to apply when the running step ends (FR-015); nil forgets the one kept.
    private mutating func setPendingStatus(_ status: LocationPermissionStatus?) {
        if let status, status != state.pendingStatus { log.append(.permissionChangeDeferred(status)) }
        state.pendingStatus = status
    }

    /// Closes the custom popup if it would no longer say what is true about the status.
    private mutating func closePopupIfItNoLongerExplainsTheStatus() {
        guard let popup = state.popup, !popup.explains(state.permissionStatus) else { return }
        state.popup = nil
        log.append(.customPopupDismissed(state.permissionStatus.isAuthorized ? .permissionGranted : .statusChanged))
    }

    /// The person's answer to iOS's alert, from whichever delivery came first; the other delivery
    /// then repeats the status the machine already holds (or defers) and changes nothing.
    private mutating func answerAuthorization(_ status: LocationPermissionStatus) -> [Effect] {
        state.isAwaitingAuthorizationAnswer = false
        guard status.isAuthorized else {
            // FR-009: "Don't Allow": the listing without location is shown or on its way. FR-003 and
            // not FR-004: the person just answered iOS's own alert, so the custom popup does not
            // follow it.
            state.permissionStatus = status
            state.pendingStatus = nil
            state.currentLocation = nil
            return []
        }
        guard state.activity == .idle else {
            // FR-015: the query behind the alert completes first; then locate and query near them.
            setPendingStatus(status)
            return []
        }
        // FR-002, FR-011: "Allow While Using" or "Allow Once": locate, then refresh the listing nearby.
        return applyStatusChange(to: status)
    }

    private mutating func applyPendingStatus() -> [Effect] {
        let placeReload = state.needsPlaceReload
        state.needsPlaceReload = false
        let effects: [Effect]
        if let pending = state.pendingStatus {
            state.pendingStatus = nil
            effects = applyStatusChange(to: pending)
        } else {
            effects = askAgainIfPossible()
        }
        // A place chosen or cleared during the step: the listing follows it, unless what the status
        // started already loads (or locates for) a new listing.
        guard placeReload, state.activity == .idle, state.listing?.queriedNearLocation != true else { return effects }
        return effects + startQuery(near: nil)
    }

    /// Applies a new status while nothing runs.
    private mutating func applyStatusChange(to status: LocationPermissionStatus) -> [Effect] {
        let previous = state.permissionStatus
        state.permissionStatus = status
        closePopupIfItNoLongerExplainsTheStatus()
        if status == .notDetermined {
            if previous != .notDetermined {
                // Rule 5, rule 7: back to "not determined" in this session; ask again as on a first launch.
                state.currentLocation = nil
                state.needsAuthorizationRequest = true
            }
            return state.needsAuthorizationRequest ? askAgainIfPossible() : []
        }
        state.needsAuthorizationRequest = false  // answered some other way (in Settings)
        guard status != previous else { return [] }
        if status.isAuthorized {
            // FR-011: a grant fetches a location and refreshes the listing.
            return previous.isAuthorized ? [] : startLocating()
        }
        // Revoked or lapsed: the location is no longer ours to use; the next query goes without it.
        // No popup: the person just made this change themselves (FR-004 is the first check's).
        state.currentLocation = nil
        return []
    }

    private mutating func scenePhaseChanged(to phase: AppScenePhase) -> [Effect] {
        state.scenePhase = phase
        switch phase {
        case .background:
            state.hasBeenInBackground = true
            return []
        case .inactive:
            return []
        case .active:
            // iOS goes background → inactive → active, so "returned" means "was in the background
            // since the last time it was active" (FR-011: re-check on return from Settings).
            guard state.hasBeenInBackground else { return askAgainIfPossible() }
            state.hasBeenInBackground = false
            if state.isAwaitingAuthorizationAnswer, state.permissionStatus == .notDetermined {
                // iOS's alert went away unanswered when the app left the foreground (its request's
                // bounded wait may have ended long before): no answer is coming to it, so the person
                // is asked again, as the re-check below finds the status still not determined.
                state.isAwaitingAuthorizationAnswer = false
                state.needsAuthorizationRequest = true
            }
            guard state.hasAppeared else { return [] }
            let listedNearby = state.listing.map { $0.queriedNearLocation || $0.isFallbackForNothingNearby } ?? false
            if state.hasCheckedStatus, state.activity == .idle, state.permissionStatus.isAuthorized, !listedNearby {
                // The listing had to do without the person's location (no fix, too slow, failed):
                // try again now, as a refresh does.
                return recheckAndLoad()
            }
            return [.checkStatus]
        }
    }
}
