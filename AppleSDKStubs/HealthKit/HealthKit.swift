// Declaration-only stand-in for Apple's HealthKit, used only to type-check the Apple-only files on
// Linux (scripts/typecheck-apple.sh). Never linked, never built on Apple platforms. Each symbol is
// transcribed from the documentation page named beside it; only what PetSpot uses is declared.
//
// Deviations from the SDK: Objective-C classes are plain Swift classes over swift-corelibs-foundation's
// `NSObject` (which is `Hashable`, so `Set<HKObjectType>` works as on Apple); imported C enums are
// Swift enums (compiled with library evolution, so switches need `@unknown default` as with the
// SDK's); bodies are `fatalError()`.

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
