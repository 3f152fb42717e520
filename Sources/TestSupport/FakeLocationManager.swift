import AsyncSupport
import DeviceInterfaces
import Foundation
import LocationBridge
import PetSpotDomain

/// The one test double of the location dependency: a scriptable `LocationManaging` that records every
/// call. By default it answers nothing, and a test sends exactly the callbacks it wants, in any order
/// iOS might (``neverAnswers(_:)``); given an ``answer`` and a ``position`` it answers iOS's alert and
/// location requests at once, as a phone whose person and GPS respond (``authorized(at:)``,
/// ``asking(answers:at:)``, ``denied``, ``restricted``). The simulated iPhone (`DeviceSimulator`) is
/// for everything end to end.
@MainActor
public final class FakeLocationManager: LocationManaging {
    public enum Call: Sendable, Equatable {
        case requestWhenInUseAuthorization
        case requestAlwaysAuthorization
        case requestLocation(LocationAccuracy)
        case stopUpdatingLocation
    }

    public var authorizationStatus: LocationPermissionStatus
    public var accuracyAuthorization: LocationAccuracyAuthorization = .fullAccuracy
    public var location: LocationFix?
    public var desiredAccuracy: LocationAccuracy = .best
    public nonisolated let events: AsyncStream<LocationManagerEvent>
    private let eventSink: AsyncStream<LocationManagerEvent>.Continuation
    /// Whether Location Services are on for the whole device.
    public var servicesEnabled: Bool
    /// The person's answer to iOS's When-In-Use alert, sent when the app asks while the status is
    /// `.notDetermined`; nil: the alert is never answered.
    public var answer: LocationPermissionStatus?
    /// Where a location request finds the phone, answered at once while authorized (a fix with its
    /// accuracy and timestamp);
    /// nil: the request fails (`locationUnknown`). Without ``answersLocationRequests`` nothing is sent.
    public var position: UserLocation?
    /// Whether a location request is answered at all (from ``position``).
    public var answersLocationRequests: Bool
    /// Every call made, in order.
    public private(set) var calls: [Call] = []
    /// Told of every call as it is made, after the scripted answer (if any) was sent.
    public var onCall: (@MainActor (Call) -> Void)?
    private let callWaiters = ConditionWaiters()

    /// A manager that sends only what the test sends (see ``neverAnswers(_:)``).
    public init(status: LocationPermissionStatus, servicesEnabled: Bool = true) {
        authorizationStatus = status
        self.servicesEnabled = servicesEnabled
        answersLocationRequests = false
        (events, eventSink) = AsyncStream<LocationManagerEvent>.makeStream()
    }

    /// A manager that answers: the alert with `answer`, location requests from `position`; like iOS, it
    /// reports the status once as it is created.
    public convenience init(
        status: LocationPermissionStatus,
        answer: LocationPermissionStatus?,
        position: UserLocation?,
        servicesEnabled: Bool = true
    ) {
        self.init(status: status, servicesEnabled: servicesEnabled)
        self.answer = answer
        self.position = position
        answersLocationRequests = true
        // iOS reports the status once when a manager is created.
        send(.authorizationChanged(status, .fullAccuracy))
    }

    /// Allowed While Using, the phone at `position` (nil: no fix can be had).
    public static func authorized(at position: UserLocation?, status: LocationPermissionStatus = .authorizedWhenInUse) -> FakeLocationManager {
        FakeLocationManager(status: status, answer: nil, position: position)
    }

    /// Never asked: the person answers iOS's alert with `answer` (nil: never), the phone at `position`.
    public static func asking(answers answer: LocationPermissionStatus?, at position: UserLocation?) -> FakeLocationManager {
        FakeLocationManager(status: .notDetermined, answer: answer, position: position)
    }

    /// Denied (in Settings or in iOS's alert earlier), the phone still somewhere.
    public static var denied: FakeLocationManager { FakeLocationManager(status: .denied, answer: nil, position: Fixtures.warsaw) }

    /// Restricted by the device's owner (parental controls, a profile).
    public static var restricted: FakeLocationManager { FakeLocationManager(status: .restricted, answer: nil, position: Fixtures.warsaw) }

    /// A manager in `status` that answers nothing by itself: the test sends every callback.
    public static func neverAnswers(_ status: LocationPermissionStatus) -> FakeLocationManager {
        FakeLocationManager(status: status)
    }

    public func requestWhenInUseAuthorization() {
        record(.requestWhenInUseAuthorization)
        if authorizationStatus == .notDetermined, let answer { send(.authorizationChanged(answer, .fullAccuracy)) }
        told(.requestWhenInUseAuthorization)
    }

    public func requestAlwaysAuthorization() { record(.requestAlwaysAuthorization) }

    public func requestLocation() {
        record(.requestLocation(desiredAccuracy))
        guard answersLocationRequests, authorizationStatus.isAuthorized else { return }
        if let position {
            let fix = LocationFix(
                latitude: position.latitude,
                longitude: position.longitude,
                horizontalAccuracy: position.horizontalAccuracy,
                timestamp: position.timestamp
            )
            send(.locationsUpdated([fix]))
        } else {
            send(.failed(.locationUnknown))
        }
    }

    /// How many times the app asked iOS's When-In-Use alert to show.
    public var authorizationRequestCount: Int { calls.count { $0 == .requestWhenInUseAuthorization } }
    /// How many location requests the app made.
    public var locationRequestCount: Int {
        calls.count { if case .requestLocation = $0 { true } else { false } }
    }
    public func stopUpdatingLocation() { record(.stopUpdatingLocation) }

    public nonisolated func locationServicesEnabled() async -> Bool { await servicesEnabled }

    /// Sends a callback as iOS would. Changing authorization also updates ``authorizationStatus``.
    public func send(_ event: LocationManagerEvent) {
        if case .authorizationChanged(let status, let accuracy) = event {
            authorizationStatus = status
            accuracyAuthorization = accuracy
        }
        eventSink.yield(event)
    }

    /// Waits until at least `count` calls were made (no time involved: it resumes on the call), or
    /// until the waiting task is cancelled.
    public func waitForCalls(_ count: Int) async {
        await callWaiters.wait { [unowned self] in calls.count >= count }
    }

    private func record(_ call: Call) {
        calls.append(call)
        callWaiters.changed()
    }

    private func told(_ call: Call) {
        onCall?(call)
    }
}
