// Declaration-only stand-in for Apple's CoreLocation, used only to type-check the Apple-only files on
// Linux (scripts/typecheck-apple.sh). Never linked, never built on Apple platforms. Each symbol is
// transcribed from the documentation page named beside it; only what PetSpot uses is declared.
//
// Deviations from the SDK, all forced by Linux having no Objective-C runtime:
// - `CLLocationManagerDelegate` is `@objc protocol ... : NSObjectProtocol` with `optional`
//   requirements on Apple. Here it refines `NSObjectProtocol` (swift-corelibs-foundation's, which
//   refines `AnyObject`) and each optional requirement gets an empty default implementation in an
//   extension. A conformer's near-miss (wrong label or type) is a "nearly matches defaulted
//   requirement" warning here, as it is a "nearly matches optional requirement" warning on Apple; the
//   script turns that warning into a failure.
// - Imported C enums (`CLAuthorizationStatus`, `CLAccuracyAuthorization`, `CLError.Code`) are Swift
//   enums here; the module is compiled with library evolution so, as with the SDK's, switches over
//   them need `@unknown default`. `CLAuthorizationStatus.authorized` (macOS-only alias of
//   `authorizedAlways`) is left out: a Swift enum cannot repeat a raw value.
// - Bodies are `fatalError()`: nothing here ever runs.

import Foundation

// https://developer.apple.com/documentation/corelocation/cllocationdegrees
public typealias CLLocationDegrees = Double
// https://developer.apple.com/documentation/corelocation/cllocationaccuracy
public typealias CLLocationAccuracy = Double

// https://developer.apple.com/documentation/corelocation/kcllocationaccuracybest
public let kCLLocationAccuracyBest: CLLocationAccuracy = -1
// https://developer.apple.com/documentation/corelocation/kcllocationaccuracynearesttenmeters
public let kCLLocationAccuracyNearestTenMeters: CLLocationAccuracy = 10
// https://developer.apple.com/documentation/corelocation/kcllocationaccuracyhundredmeters
public let kCLLocationAccuracyHundredMeters: CLLocationAccuracy = 100
// https://developer.apple.com/documentation/corelocation/kcllocationaccuracykilometer
public let kCLLocationAccuracyKilometer: CLLocationAccuracy = 1000
// https://developer.apple.com/documentation/corelocation/kcllocationaccuracythreekilometers
public let kCLLocationAccuracyThreeKilometers: CLLocationAccuracy = 3000
// https://developer.apple.com/documentation/corelocation/kcllocationaccuracyreduced
public let kCLLocationAccuracyReduced: CLLocationAccuracy = 3000

// https://developer.apple.com/documentation/corelocation/clauthorizationstatus
public enum CLAuthorizationStatus: Int32, Sendable {
    // https://developer.apple.com/documentation/corelocation/clauthorizationstatus/notdetermined
    case notDetermined = 0
    // https://developer.apple.com/documentation/corelocation/clauthorizationstatus/restricted
    case restricted = 1
    // https://developer.apple.com/documentation/corelocation/clauthorizationstatus/denied
    case denied = 2
    // https://developer.apple.com/documentation/corelocation/clauthorizationstatus/authorizedalways
    case authorizedAlways = 3
    // https://developer.apple.com/documentation/corelocation/clauthorizationstatus/authorizedwheninuse
    case authorizedWhenInUse = 4
}

// https://developer.apple.com/documentation/corelocation/claccuracyauthorization
public enum CLAccuracyAuthorization: Int, Sendable {
    // https://developer.apple.com/documentation/corelocation/claccuracyauthorization/fullaccuracy
    case fullAccuracy = 0
    // https://developer.apple.com/documentation/corelocation/claccuracyauthorization/reducedaccuracy
    case reducedAccuracy = 1
}

// https://developer.apple.com/documentation/corelocation/cllocationcoordinate2d
public struct CLLocationCoordinate2D: Sendable {
    // https://developer.apple.com/documentation/corelocation/cllocationcoordinate2d/latitude
    public var latitude: CLLocationDegrees
    // https://developer.apple.com/documentation/corelocation/cllocationcoordinate2d/longitude
    public var longitude: CLLocationDegrees
    // https://developer.apple.com/documentation/corelocation/cllocationcoordinate2d/init(latitude:longitude:)
    // (an imported C struct's memberwise initializer)
    public init(latitude: CLLocationDegrees, longitude: CLLocationDegrees) { fatalError() }
}

// https://developer.apple.com/documentation/corelocation/cllocation
open class CLLocation: NSObject, @unchecked Sendable {
    // https://developer.apple.com/documentation/corelocation/cllocation/coordinate
    open var coordinate: CLLocationCoordinate2D { fatalError() }
    // https://developer.apple.com/documentation/corelocation/cllocation/horizontalaccuracy
    open var horizontalAccuracy: CLLocationAccuracy { fatalError() }
    // https://developer.apple.com/documentation/corelocation/cllocation/timestamp
    open var timestamp: Date { fatalError() }
    // https://developer.apple.com/documentation/corelocation/cllocation/init(coordinate:altitude:horizontalaccuracy:verticalaccuracy:timestamp:)
    public init(
        coordinate: CLLocationCoordinate2D,
        altitude: CLLocationDistance,
        horizontalAccuracy hAccuracy: CLLocationAccuracy,
        verticalAccuracy vAccuracy: CLLocationAccuracy,
        timestamp: Date
    ) { fatalError() }
}

// https://developer.apple.com/documentation/corelocation/cllocationdistance
public typealias CLLocationDistance = Double

// https://developer.apple.com/documentation/corelocation/clbackgroundactivitysession-3mzv3
// Compared with iPhoneOS17.0.sdk/usr/lib/swift/CoreLocation.swiftmodule/arm64e-apple-ios.swiftinterface
// (`@available(iOS 17.0, watchOS 10.0, *) final public class CLBackgroundActivitySession : Swift.Sendable`)
// and iPhoneOS17.0.sdk/System/Library/Frameworks/CoreLocation.framework/Headers/CLBackgroundActivitySession.h.
// iOS 18's `diagnostics` is left out: the walk does not read it.
@available(iOS 17.0, *)
public final class CLBackgroundActivitySession: Sendable {
    public init() { fatalError() }
    public final func invalidate() { fatalError() }
}

// https://developer.apple.com/documentation/corelocation/clerror-swift.struct
public struct CLError: Error, Hashable, Sendable {
    // https://developer.apple.com/documentation/corelocation/clerror-swift.struct/code
    public enum Code: Int, Sendable {
        // https://developer.apple.com/documentation/corelocation/clerror-swift.struct/code/locationunknown
        case locationUnknown = 0
    }
    // https://developer.apple.com/documentation/foundation/customnserror (the `code` of a bridged error struct)
    public var code: Code { fatalError() }
}

// https://developer.apple.com/documentation/corelocation/cllocationmanager
open class CLLocationManager: NSObject {
    // https://developer.apple.com/documentation/objectivec/nsobject/init() (inherited designated initializer)
    public override init() { fatalError() }

    // https://developer.apple.com/documentation/corelocation/cllocationmanager/delegate
    weak open var delegate: (any CLLocationManagerDelegate)?

    // https://developer.apple.com/documentation/corelocation/cllocationmanager/authorizationstatus-swift.property
    open var authorizationStatus: CLAuthorizationStatus { fatalError() }
    // https://developer.apple.com/documentation/corelocation/cllocationmanager/accuracyauthorization
    open var accuracyAuthorization: CLAccuracyAuthorization { fatalError() }
    // https://developer.apple.com/documentation/corelocation/cllocationmanager/location
    // (`@NSCopying` in the SDK; Swift rejects it on a get-only stand-in.)
    open var location: CLLocation? { fatalError() }
    // https://developer.apple.com/documentation/corelocation/cllocationmanager/desiredaccuracy
    open var desiredAccuracy: CLLocationAccuracy {
        get { fatalError() }
        set { fatalError() }
    }

    // https://developer.apple.com/documentation/corelocation/cllocationmanager/locationservicesenabled()
    open class func locationServicesEnabled() -> Bool { fatalError() }

    // https://developer.apple.com/documentation/corelocation/cllocationmanager/requestwheninuseauthorization()
    open func requestWhenInUseAuthorization() { fatalError() }
    // https://developer.apple.com/documentation/corelocation/cllocationmanager/requestalwaysauthorization()
    open func requestAlwaysAuthorization() { fatalError() }
    // https://developer.apple.com/documentation/corelocation/cllocationmanager/requestlocation()
    open func requestLocation() { fatalError() }
    // https://developer.apple.com/documentation/corelocation/cllocationmanager/stopupdatinglocation()
    open func stopUpdatingLocation() { fatalError() }
    // https://developer.apple.com/documentation/corelocation/cllocationmanager/startmonitoringsignificantlocationchanges()
    open func startMonitoringSignificantLocationChanges() { fatalError() }
    // https://developer.apple.com/documentation/corelocation/cllocationmanager/stopmonitoringsignificantlocationchanges()
    open func stopMonitoringSignificantLocationChanges() { fatalError() }
}

// https://developer.apple.com/documentation/corelocation/cllocationmanagerdelegate
public protocol CLLocationManagerDelegate: NSObjectProtocol {
    // https://developer.apple.com/documentation/corelocation/cllocationmanagerdelegate/locationmanagerdidchangeauthorization(_:)
    func locationManagerDidChangeAuthorization(_ manager: CLLocationManager)
    // https://developer.apple.com/documentation/corelocation/cllocationmanagerdelegate/locationmanager(_:didupdatelocations:)
    func locationManager(_ manager: CLLocationManager, didUpdateLocations locations: [CLLocation])
    // https://developer.apple.com/documentation/corelocation/cllocationmanagerdelegate/locationmanager(_:didfailwitherror:)
    func locationManager(_ manager: CLLocationManager, didFailWithError error: any Error)
}

/// Stands in for `optional`: a conformer may leave any requirement out.
extension CLLocationManagerDelegate {
    public func locationManagerDidChangeAuthorization(_ manager: CLLocationManager) {}
    public func locationManager(_ manager: CLLocationManager, didUpdateLocations locations: [CLLocation]) {}
    public func locationManager(_ manager: CLLocationManager, didFailWithError error: any Error) {}
}

// MARK: - iOS 18: service sessions and live updates
//
// Every declaration below was also compared with the iOS 18.0 SDK's own interface,
// iPhoneOS18.0.sdk/usr/lib/swift/CoreLocation.swiftmodule/arm64e-apple-ios.swiftinterface (written by
// Apple Swift 6.0, swiftlang-6.0.0.7.24): names, labels, types, availability and conformances match,
// except where noted. `@available(macOS, unavailable)` and the watchOS/tvOS/visionOS versions are left
// out: PetSpot builds for iOS only. Two unused members are left out too:
// `init(authorization:fullAccuracyPurposeKey:)` and the deprecated `CLLocationUpdate.isStationary`.
// The trap: compiled for Linux, `@available(iOS 18.0, *)` is not enforced, so this type-check cannot
// tell whether a use is guarded by `if #available(iOS 18, *)`; the one use (App/PetSpotApp.swift) and
// the adapter (marked `@available(iOS 18.0, *)` whole) are kept that small for that reason.

// https://developer.apple.com/documentation/corelocation/clservicesession-pt7n
@available(iOS 18.0, *)
public final class CLServiceSession: Sendable {
    // https://developer.apple.com/documentation/corelocation/clservicesession-pt7n/init(authorization:)
    public init(authorization: CLServiceSession.AuthorizationRequirement) { fatalError() }
    // https://developer.apple.com/documentation/corelocation/clservicesession-pt7n/invalidate()
    public final func invalidate() { fatalError() }
    // https://developer.apple.com/documentation/corelocation/clservicesession-pt7n/diagnostics-swift.property
    public final var diagnostics: CLServiceSession.Diagnostics { fatalError() }
}

@available(iOS 18.0, *)
extension CLServiceSession {
    // https://developer.apple.com/documentation/corelocation/clservicesession-pt7n/authorizationrequirement
    // (the SDK spells out `==`, `hash(into:)` and `hashValue`: a synthesized `Hashable`.)
    public enum AuthorizationRequirement: Hashable {
        // https://developer.apple.com/documentation/corelocation/clservicesession-pt7n/authorizationrequirement/none
        case none
        // https://developer.apple.com/documentation/corelocation/clservicesession-pt7n/authorizationrequirement/wheninuse
        case whenInUse
        // https://developer.apple.com/documentation/corelocation/clservicesession-pt7n/authorizationrequirement/always
        case always
    }

    // https://developer.apple.com/documentation/corelocation/clservicesession-pt7n/diagnostic
    // (not `Sendable` in the SDK either: it is read where the sequence is iterated.)
    public struct Diagnostic {
        // https://developer.apple.com/documentation/corelocation/clservicesession-pt7n/diagnostic/authorizationdenied
        public var authorizationDenied: Bool { fatalError() }
        // https://developer.apple.com/documentation/corelocation/clservicesession-pt7n/diagnostic/authorizationdeniedglobally
        public var authorizationDeniedGlobally: Bool { fatalError() }
        // https://developer.apple.com/documentation/corelocation/clservicesession-pt7n/diagnostic/authorizationrestricted
        public var authorizationRestricted: Bool { fatalError() }
        // https://developer.apple.com/documentation/corelocation/clservicesession-pt7n/diagnostic/insufficientlyinuse
        public var insufficientlyInUse: Bool { fatalError() }
        // https://developer.apple.com/documentation/corelocation/clservicesession-pt7n/diagnostic/fullaccuracydenied
        public var fullAccuracyDenied: Bool { fatalError() }
        // https://developer.apple.com/documentation/corelocation/clservicesession-pt7n/diagnostic/alwaysauthorizationdenied
        public var alwaysAuthorizationDenied: Bool { fatalError() }
        // https://developer.apple.com/documentation/corelocation/clservicesession-pt7n/diagnostic/servicesessionrequired
        public var serviceSessionRequired: Bool { fatalError() }
        // https://developer.apple.com/documentation/corelocation/clservicesession-pt7n/diagnostic/authorizationrequestinprogress
        public var authorizationRequestInProgress: Bool { fatalError() }
    }

    // https://developer.apple.com/documentation/corelocation/clservicesession-pt7n/diagnostics-swift.class
    // (its iterator's `Failure` is `any Error`, as the SDK declares through `@_implements`.)
    public final class Diagnostics: AsyncSequence {
        public typealias Element = CLServiceSession.Diagnostic
        public struct Iterator: AsyncIteratorProtocol {
            public mutating func next() async throws -> CLServiceSession.Diagnostic? { fatalError() }
        }
        public final func makeAsyncIterator() -> Iterator { fatalError() }
    }
}

// https://developer.apple.com/documentation/corelocation/cllocationupdate
@available(iOS 17.0, *)
public struct CLLocationUpdate: Sendable {
    // https://developer.apple.com/documentation/corelocation/cllocationupdate/location
    public var location: CLLocation? { fatalError() }
    // https://developer.apple.com/documentation/corelocation/cllocationupdate/stationary
    @available(iOS 18.0, *)
    public var stationary: Bool { fatalError() }
    // https://developer.apple.com/documentation/corelocation/cllocationupdate/authorizationdenied
    @available(iOS 18.0, *)
    public var authorizationDenied: Bool { fatalError() }
    // https://developer.apple.com/documentation/corelocation/cllocationupdate/authorizationdeniedglobally
    @available(iOS 18.0, *)
    public var authorizationDeniedGlobally: Bool { fatalError() }
    // https://developer.apple.com/documentation/corelocation/cllocationupdate/authorizationrestricted
    @available(iOS 18.0, *)
    public var authorizationRestricted: Bool { fatalError() }
    // https://developer.apple.com/documentation/corelocation/cllocationupdate/insufficientlyinuse
    @available(iOS 18.0, *)
    public var insufficientlyInUse: Bool { fatalError() }
    // https://developer.apple.com/documentation/corelocation/cllocationupdate/locationunavailable
    @available(iOS 18.0, *)
    public var locationUnavailable: Bool { fatalError() }
    // https://developer.apple.com/documentation/corelocation/cllocationupdate/accuracylimited
    @available(iOS 18.0, *)
    public var accuracyLimited: Bool { fatalError() }
    // https://developer.apple.com/documentation/corelocation/cllocationupdate/servicesessionrequired
    @available(iOS 18.0, *)
    public var serviceSessionRequired: Bool { fatalError() }
    // https://developer.apple.com/documentation/corelocation/cllocationupdate/authorizationrequestinprogress
    @available(iOS 18.0, *)
    public var authorizationRequestInProgress: Bool { fatalError() }

    // https://developer.apple.com/documentation/corelocation/cllocationupdate/liveconfiguration
    public enum LiveConfiguration: Hashable {
        case `default`
        case automotiveNavigation
        case otherNavigation
        case fitness
        case airborne
    }

    // https://developer.apple.com/documentation/corelocation/cllocationupdate/liveupdates(_:)
    public static func liveUpdates(_ configuration: CLLocationUpdate.LiveConfiguration = .default) -> CLLocationUpdate.Updates {
        fatalError()
    }

    // https://developer.apple.com/documentation/corelocation/cllocationupdate/updates
    // (its iterator is explicitly not `Sendable` in the SDK; its `Failure` is `any Error`.)
    public struct Updates: AsyncSequence, Sendable {
        public typealias Element = CLLocationUpdate
        public struct Iterator: AsyncIteratorProtocol {
            public mutating func next() async throws -> CLLocationUpdate? { fatalError() }
        }
        public func makeAsyncIterator() -> Iterator { fatalError() }
    }
}
