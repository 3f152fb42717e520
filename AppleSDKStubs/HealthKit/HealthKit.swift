// Declaration-only stand-in for Apple's HealthKit, used only to type-check the Apple-only files on
// Linux (scripts/typecheck-apple.sh). Never linked, never built on Apple platforms. Each symbol is
// transcribed from the documentation page named beside it; only what PetSpot uses is declared.
//
// Deviations from the SDK: Objective-C classes are plain Swift classes over swift-corelibs-foundation's
// `NSObject` (which is `Hashable`, so `Set<HKObjectType>` works as on Apple); imported C enums are
// Swift enums (compiled with library evolution, so switches need `@unknown default` as with the
// SDK's); bodies are `fatalError()`.

import CoreLocation
import Foundation

// https://developer.apple.com/documentation/healthkit/hkauthorizationstatus
public enum HKAuthorizationStatus: Int, Sendable {
    // https://developer.apple.com/documentation/healthkit/hkauthorizationstatus/notdetermined
    case notDetermined = 0
    // https://developer.apple.com/documentation/healthkit/hkauthorizationstatus/sharingdenied
    case sharingDenied = 1
    // https://developer.apple.com/documentation/healthkit/hkauthorizationstatus/sharingauthorized
    case sharingAuthorized = 2
}

// https://developer.apple.com/documentation/healthkit/hkauthorizationrequeststatus
public enum HKAuthorizationRequestStatus: Int, Sendable {
    // https://developer.apple.com/documentation/healthkit/hkauthorizationrequeststatus/unknown
    case unknown = 0
    // https://developer.apple.com/documentation/healthkit/hkauthorizationrequeststatus/shouldrequest
    case shouldRequest = 1
    // https://developer.apple.com/documentation/healthkit/hkauthorizationrequeststatus/unnecessary
    case unnecessary = 2
}

// https://developer.apple.com/documentation/healthkit/hkquantitytypeidentifier
public struct HKQuantityTypeIdentifier: Hashable, RawRepresentable, Sendable {
    public var rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    // https://developer.apple.com/documentation/healthkit/hkquantitytypeidentifier/stepcount
    public static let stepCount = HKQuantityTypeIdentifier(rawValue: "HKQuantityTypeIdentifierStepCount")
    // https://developer.apple.com/documentation/healthkit/hkquantitytypeidentifier/distancewalkingrunning
    public static let distanceWalkingRunning =
        HKQuantityTypeIdentifier(rawValue: "HKQuantityTypeIdentifierDistanceWalkingRunning")
    // https://developer.apple.com/documentation/healthkit/hkquantitytypeidentifier/activeenergyburned
    public static let activeEnergyBurned = HKQuantityTypeIdentifier(rawValue: "HKQuantityTypeIdentifierActiveEnergyBurned")
}

// https://developer.apple.com/documentation/healthkit/hkobjecttype
// `Sendable`: HKObjectType.h marks it and every subclass `NS_SWIFT_SENDABLE` (immutable types).
open class HKObjectType: NSObject, @unchecked Sendable {
    // https://developer.apple.com/documentation/healthkit/hkobjecttype/workouttype()
    open class func workoutType() -> HKWorkoutType { fatalError() }
}

// https://developer.apple.com/documentation/healthkit/hksampletype
open class HKSampleType: HKObjectType, @unchecked Sendable {}

// https://developer.apple.com/documentation/healthkit/hkquantitytype
open class HKQuantityType: HKSampleType, @unchecked Sendable {
    // https://developer.apple.com/documentation/healthkit/hkquantitytype/init(_:)
    public convenience init(_ identifier: HKQuantityTypeIdentifier) { fatalError() }
}

// https://developer.apple.com/documentation/healthkit/hkworkouttype
open class HKWorkoutType: HKSampleType, @unchecked Sendable {}

// https://developer.apple.com/documentation/healthkit/hkseriestype
open class HKSeriesType: HKSampleType, @unchecked Sendable {
    // https://developer.apple.com/documentation/healthkit/hkseriestype/workoutroute()
    open class func workoutRoute() -> Self { fatalError() }
}

// https://developer.apple.com/documentation/healthkit/hkhealthstore
// `Sendable` as in current SDKs (Apple's own samples keep one in a `Sendable` class's `let`).
open class HKHealthStore: NSObject, @unchecked Sendable {
    // https://developer.apple.com/documentation/healthkit/hkhealthstore/init()
    public override init() { fatalError() }
    // https://developer.apple.com/documentation/healthkit/hkhealthstore/ishealthdataavailable()
    open class func isHealthDataAvailable() -> Bool { fatalError() }
    // https://developer.apple.com/documentation/healthkit/hkhealthstore/authorizationstatus(for:)
    open func authorizationStatus(for type: HKObjectType) -> HKAuthorizationStatus { fatalError() }
    // https://developer.apple.com/documentation/healthkit/hkhealthstore/statusforauthorizationrequest(toshare:read:)
    open func statusForAuthorizationRequest(
        toShare typesToShare: Set<HKSampleType>,
        read typesToRead: Set<HKObjectType>
    ) async throws -> HKAuthorizationRequestStatus { fatalError() }
    // https://developer.apple.com/documentation/healthkit/hkhealthstore/requestauthorization(toshare:read:)
    open func requestAuthorization(toShare typesToShare: Set<HKSampleType>, read typesToRead: Set<HKObjectType>) async throws {
        fatalError()
    }
}

// MARK: - Saving a walk: the workout builder and the route builder
//
// Compared with iPhoneOS17.0.sdk/System/Library/Frameworks/HealthKit.framework/Headers/HKWorkoutBuilder.h,
// HKWorkoutRouteBuilder.h, HKWorkoutConfiguration.h, HKQuantitySample.h, HKUnit.h, HKDevice.h,
// HKMetadata.h (the sync keys) and HKDefines.h (`HKErrorCode`); the async names are those of their
// `NS_SWIFT_ASYNC_NAME` annotations.

// https://developer.apple.com/documentation/healthkit/hkerror
public struct HKError: Error, Hashable, Sendable {
    // https://developer.apple.com/documentation/healthkit/hkerror/code
    public enum Code: Int, Sendable {
        case errorHealthDataUnavailable = 2
        case errorAuthorizationDenied = 4
        case errorAuthorizationNotDetermined = 5
    }

    public var code: HKError.Code { fatalError() }
}

// https://developer.apple.com/documentation/healthkit/hkmetadatakeysyncidentifier
public let HKMetadataKeySyncIdentifier: String = "HKMetadataKeySyncIdentifier"
// https://developer.apple.com/documentation/healthkit/hkmetadatakeysyncversion
public let HKMetadataKeySyncVersion: String = "HKMetadataKeySyncVersion"

// https://developer.apple.com/documentation/healthkit/hkworkoutactivitytype
public enum HKWorkoutActivityType: UInt, Sendable {
    // https://developer.apple.com/documentation/healthkit/hkworkoutactivitytype/walking
    case walking = 52
}

// https://developer.apple.com/documentation/healthkit/hkworkoutsessionlocationtype
public enum HKWorkoutSessionLocationType: Int, Sendable {
    case unknown = 1
    case indoor = 2
    case outdoor = 3
}

// https://developer.apple.com/documentation/healthkit/hkworkoutconfiguration
open class HKWorkoutConfiguration: NSObject {
    public override init() { fatalError() }
    open var activityType: HKWorkoutActivityType {
        get { fatalError() }
        set { fatalError() }
    }
    open var locationType: HKWorkoutSessionLocationType {
        get { fatalError() }
        set { fatalError() }
    }
}

// https://developer.apple.com/documentation/healthkit/hkdevice
open class HKDevice: NSObject, @unchecked Sendable {
    // https://developer.apple.com/documentation/healthkit/hkdevice/local()
    open class func local() -> HKDevice { fatalError() }
}

// https://developer.apple.com/documentation/healthkit/hkunit
open class HKUnit: NSObject, @unchecked Sendable {
    // https://developer.apple.com/documentation/healthkit/hkunit/meter()
    open class func meter() -> Self { fatalError() }
    // https://developer.apple.com/documentation/healthkit/hkunit/count()
    open class func count() -> Self { fatalError() }
}

// https://developer.apple.com/documentation/healthkit/hkquantity
open class HKQuantity: NSObject, @unchecked Sendable {
    // https://developer.apple.com/documentation/healthkit/hkquantity/init(unit:doublevalue:)
    public init(unit: HKUnit, doubleValue value: Double) { fatalError() }
}

// https://developer.apple.com/documentation/healthkit/hkobject
open class HKObject: NSObject, @unchecked Sendable {}

// https://developer.apple.com/documentation/healthkit/hksample
open class HKSample: HKObject, @unchecked Sendable {}

// https://developer.apple.com/documentation/healthkit/hkquantitysample
open class HKQuantitySample: HKSample, @unchecked Sendable {
    // https://developer.apple.com/documentation/healthkit/hkquantitysample/init(type:quantity:start:end:)
    public convenience init(type quantityType: HKQuantityType, quantity: HKQuantity, start startDate: Date, end endDate: Date) {
        fatalError()
    }
    // https://developer.apple.com/documentation/healthkit/hkquantitysample/init(type:quantity:start:end:metadata:)
    public convenience init(
        type quantityType: HKQuantityType, quantity: HKQuantity, start startDate: Date, end endDate: Date, metadata: [String: Any]?
    ) {
        fatalError()
    }
}

// https://developer.apple.com/documentation/healthkit/hkworkout
open class HKWorkout: HKSample, @unchecked Sendable {}

// https://developer.apple.com/documentation/healthkit/hkworkoutroute
open class HKWorkoutRoute: HKSample, @unchecked Sendable {}

// https://developer.apple.com/documentation/healthkit/hkworkoutbuilder
open class HKWorkoutBuilder: NSObject {
    // https://developer.apple.com/documentation/healthkit/hkworkoutbuilder/init(healthstore:configuration:device:)
    public init(healthStore: HKHealthStore, configuration: HKWorkoutConfiguration, device: HKDevice?) { fatalError() }
    // https://developer.apple.com/documentation/healthkit/hkworkoutbuilder/begincollection(withstart:completion:)
    open func beginCollection(at startDate: Date) async throws { fatalError() }
    // https://developer.apple.com/documentation/healthkit/hkworkoutbuilder/add(_:completion:)
    open func addSamples(_ samples: [HKSample]) async throws { fatalError() }
    // https://developer.apple.com/documentation/healthkit/hkworkoutbuilder/addmetadata(_:completion:)
    open func addMetadata(_ metadata: [String: Any]) async throws { fatalError() }
    // https://developer.apple.com/documentation/healthkit/hkworkoutbuilder/endcollection(withend:completion:)
    open func endCollection(at endDate: Date) async throws { fatalError() }
    // https://developer.apple.com/documentation/healthkit/hkworkoutbuilder/finishworkout(completion:)
    open func finishWorkout() async throws -> HKWorkout? { fatalError() }
}

// https://developer.apple.com/documentation/healthkit/hkworkoutroutebuilder
open class HKWorkoutRouteBuilder: NSObject {
    // https://developer.apple.com/documentation/healthkit/hkworkoutroutebuilder/init(healthstore:device:)
    public init(healthStore: HKHealthStore, device: HKDevice?) { fatalError() }
    // https://developer.apple.com/documentation/healthkit/hkworkoutroutebuilder/insertroutedata(_:completion:)
    open func insertRouteData(_ routeData: [CLLocation]) async throws { fatalError() }
    // https://developer.apple.com/documentation/healthkit/hkworkoutroutebuilder/finishroute(with:metadata:completion:)
    open func finishRoute(with workout: HKWorkout, metadata: [String: Any]?) async throws -> HKWorkoutRoute { fatalError() }
}
