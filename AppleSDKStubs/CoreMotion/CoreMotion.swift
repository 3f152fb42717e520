// Declaration-only stand-in for Apple's CoreMotion, used only to type-check the Apple-only files on
// Linux (scripts/typecheck-apple.sh). Never linked, never built on Apple platforms. Each symbol is
// transcribed from the documentation page named beside it; only what PetSpot uses is declared.
//
// Deviations from the SDK: Objective-C classes are plain Swift classes over swift-corelibs-foundation's
// `NSObject`; the imported C enum `CMAuthorizationStatus` is a Swift enum (compiled with library
// evolution, so switches need `@unknown default` as with the SDK's); bodies are `fatalError()`.

import Foundation

// https://developer.apple.com/documentation/coremotion/cmerrordomain
public let CMErrorDomain: String = "CMErrorDomain"

// https://developer.apple.com/documentation/coremotion/cmauthorizationstatus
public enum CMAuthorizationStatus: Int, Sendable {
    // https://developer.apple.com/documentation/coremotion/cmauthorizationstatus/notdetermined
    case notDetermined = 0
    // https://developer.apple.com/documentation/coremotion/cmauthorizationstatus/restricted
    case restricted = 1
    // https://developer.apple.com/documentation/coremotion/cmauthorizationstatus/denied
    case denied = 2
    // https://developer.apple.com/documentation/coremotion/cmauthorizationstatus/authorized
    case authorized = 3
}

// https://developer.apple.com/documentation/coremotion/cmlogitem
open class CMLogItem: NSObject {}

// https://developer.apple.com/documentation/coremotion/cmmotionactivityconfidence
// Compared with iPhoneOS17.0.sdk/System/Library/Frameworks/CoreMotion.framework/Headers/CMMotionActivity.h.
public enum CMMotionActivityConfidence: Int, Sendable {
    case low = 0
    case medium = 1
    case high = 2
}

// https://developer.apple.com/documentation/coremotion/cmmotionactivity
// Properties compared with iPhoneOS17.0.sdk/System/Library/Frameworks/CoreMotion.framework/Headers/CMMotionActivity.h.
open class CMMotionActivity: CMLogItem {
    open var confidence: CMMotionActivityConfidence { fatalError() }
    open var startDate: Date { fatalError() }
    open var unknown: Bool { fatalError() }
    open var stationary: Bool { fatalError() }
    open var walking: Bool { fatalError() }
    open var running: Bool { fatalError() }
    open var automotive: Bool { fatalError() }
    open var cycling: Bool { fatalError() }
}

// https://developer.apple.com/documentation/coremotion/cmmotionactivityhandler
public typealias CMMotionActivityHandler = (CMMotionActivity?) -> Void

// https://developer.apple.com/documentation/coremotion/cmpedometerdata
// Compared with iPhoneOS17.0.sdk/System/Library/Frameworks/CoreMotion.framework/Headers/CMPedometer.h.
open class CMPedometerData: NSObject {
    open var numberOfSteps: NSNumber { fatalError() }
}

// https://developer.apple.com/documentation/coremotion/cmpedometerhandler
public typealias CMPedometerHandler = (CMPedometerData?, (any Error)?) -> Void

// https://developer.apple.com/documentation/coremotion/cmpedometer
// Compared with iPhoneOS17.0.sdk/System/Library/Frameworks/CoreMotion.framework/Headers/CMPedometer.h.
open class CMPedometer: NSObject {
    public override init() { fatalError() }
    // https://developer.apple.com/documentation/coremotion/cmpedometer/isstepcountingavailable()
    open class func isStepCountingAvailable() -> Bool { fatalError() }
    // https://developer.apple.com/documentation/coremotion/cmpedometer/startupdates(from:withhandler:)
    open func startUpdates(from start: Date, withHandler handler: @escaping CMPedometerHandler) { fatalError() }
    // https://developer.apple.com/documentation/coremotion/cmpedometer/stopupdates()
    open func stopUpdates() { fatalError() }
}

// https://developer.apple.com/documentation/coremotion/cmmotionactivityqueryhandler
public typealias CMMotionActivityQueryHandler = ([CMMotionActivity]?, (any Error)?) -> Void

// https://developer.apple.com/documentation/coremotion/cmmotionactivitymanager
open class CMMotionActivityManager: NSObject {
    // https://developer.apple.com/documentation/coremotion/cmmotionactivitymanager (init())
    public override init() { fatalError() }
    // https://developer.apple.com/documentation/coremotion/cmmotionactivitymanager/isactivityavailable()
    open class func isActivityAvailable() -> Bool { fatalError() }
    // https://developer.apple.com/documentation/coremotion/cmmotionactivitymanager/authorizationstatus()
    open class func authorizationStatus() -> CMAuthorizationStatus { fatalError() }
    // https://developer.apple.com/documentation/coremotion/cmmotionactivitymanager/startactivityupdates(to:withhandler:)
    open func startActivityUpdates(to queue: OperationQueue, withHandler handler: @escaping CMMotionActivityHandler) { fatalError() }
    // https://developer.apple.com/documentation/coremotion/cmmotionactivitymanager/stopactivityupdates()
    open func stopActivityUpdates() { fatalError() }
    // https://developer.apple.com/documentation/coremotion/cmmotionactivitymanager/queryactivitystarting(from:to:to:withhandler:)
    open func queryActivityStarting(
        from start: Date,
        to end: Date,
        to queue: OperationQueue,
        withHandler handler: @escaping CMMotionActivityQueryHandler
    ) { fatalError() }
}
