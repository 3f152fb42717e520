import Foundation
import DeviceInterfaces
import PetSpotDomain

/// What the startup screen's machine did, as ``StartupMachine/step(_:_:)`` records it, for an event log.
/// The coordinates sent to the server travel as ``SentCoordinates``, which no description shows: a log
/// prints them only by reading them on purpose.
public enum StartupEvent: Equatable, Sendable {
    /// How the custom popup went away.
    public enum PopupDismissal: String, Equatable, Sendable {
        case goToSettings
        case cancel
        /// Permission was granted while it was up, so it closed itself.
        case permissionGranted
        /// The status it explained changed otherwise (back to "not determined", say), so it closed itself.
        case statusChanged
        /// "Choose a place instead": the place picker took its place.
        case choosePlace
    }

    case screenAppeared
    case scenePhaseChanged(AppScenePhase)
    case permissionChecked(LocationPermissionStatus)
    case permissionRequested
    case permissionAnswered(LocationPermissionStatus)
    case permissionChanged(LocationPermissionStatus)
    /// FR-015: a change seen while a step ran; applied when it ends.
    case permissionChangeDeferred(LocationPermissionStatus)
    case locationRequested
    /// A usable fix came; the query starts with it, rounded as sent.
    case locationObtained(sent: SentCoordinates)
    case locationUnavailable
    /// A fix came, but location was no longer allowed by then (US4-4): it is not used.
    case locationDroppedAfterRevocation
    /// The query started, with the coordinates it sends (nil: without location).
    case queryStarted(near: SentCoordinates?)
    case queryFinished(count: Int)
    case queryFailed(reason: String)
    case listingShown(count: Int, withLocation: Bool)
    /// The query near the person found nobody within the radius; the listing without coordinates follows.
    case noPetsNearby
    case customPopupShown(reason: PermissionPopupReason)
    /// The popup on screen now explains another cause (Location Services came back on while this app
    /// stays denied).
    case customPopupChanged(reason: PermissionPopupReason)
    case customPopupDismissed(PopupDismissal)
    case settingsOpened
    case retryTapped
    /// Pull to refresh started a load.
    case refreshRequested
    /// Suggestions for what the person typed came (the last answer; earlier ones are dropped).
    case placeSuggestions(count: Int)
    /// Suggestions could not be had (the network failed); what was typed stays.
    case placeSuggestionsFailed
    /// The person chose a place (its id; a place's coordinates are public, the person's are not).
    case placeChosen(id: String)
    /// The person cleared the chosen place.
    case placeCleared

    /// What starting `effect` is called in the log; nil for effects that are not logged.
    init?(starting effect: StartupMachine.Effect) {
        switch effect {
        case .checkStatus, .observeStatusChanges: return nil
        case .requestAuthorization: self = .permissionRequested
        case .requestLocation: self = .locationRequested
        case .fetchAnimals(let location): self = .queryStarted(near: location.map(SentCoordinates.init))
        case .fetchAnimalsNearPlace(let place): self = .queryStarted(near: SentCoordinates(place.queryLocation))
        case .openSettings: self = .settingsOpened
        case .rememberPlace: return nil
        }
    }
}

/// Coordinates as the app sends them to the server (already rounded). Every description of them is
/// the word "coordinates", so a log line made by interpolating an event never shows where a person is.
public struct SentCoordinates: Equatable, Sendable, CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    public let location: UserLocation

    public init(_ location: UserLocation) {
        self.location = location
    }

    public var description: String { "coordinates" }
    public var debugDescription: String { "coordinates" }
    public var customMirror: Mirror { Mirror(self, children: [:]) }
}

extension Place {
    /// The place as a query's center: its coordinates (public, already rounded by the server).
    public var queryLocation: UserLocation {
        UserLocation(coordinate: location, timestamp: Date(timeIntervalSince1970: 0))
    }
}
