// Declaration-only stand-in for Apple's UIKit, used only to type-check the Apple-only files on Linux
// (scripts/typecheck-apple.sh). Never linked, never built on Apple platforms. Each symbol is
// transcribed from the documentation page named beside it; only what PetSpot uses is declared.
//
// Deviations from the SDK: classes that are Objective-C classes there are plain Swift classes over
// swift-corelibs-foundation's `NSObject`; bodies are `fatalError()` (nothing here ever runs).
// Like the SDK's, this module re-exports Foundation.

@_exported import Foundation

// https://developer.apple.com/documentation/uikit/uiresponder
@MainActor @preconcurrency
open class UIResponder: NSObject {}

// https://developer.apple.com/documentation/uikit/uiviewcontroller
@MainActor @preconcurrency
open class UIViewController: UIResponder {}

// https://developer.apple.com/documentation/uikit/uiapplication
@MainActor @preconcurrency
open class UIApplication: UIResponder {
    // https://developer.apple.com/documentation/uikit/uiapplication/shared
    open class var shared: UIApplication { fatalError() }

    // https://developer.apple.com/documentation/uikit/uiapplication/state
    public enum State: Int, Sendable {
        case active = 0
        case inactive = 1
        case background = 2
    }

    // https://developer.apple.com/documentation/uikit/uiapplication/applicationstate
    open var applicationState: UIApplication.State { fatalError() }

    // https://developer.apple.com/documentation/uikit/uiapplication/opensettingsurlstring
    nonisolated public static let openSettingsURLString: String = "app-settings:"

    // https://developer.apple.com/documentation/uikit/uiapplication/openexternalurloptionskey
    public struct OpenExternalURLOptionsKey: Hashable, RawRepresentable, Sendable {
        public var rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }
    }

    // https://developer.apple.com/documentation/uikit/uiapplication/open(_:options:completionhandler:)
    open func open(
        _ url: URL,
        options: [UIApplication.OpenExternalURLOptionsKey: Any] = [:],
        completionHandler completion: (@MainActor @Sendable (Bool) -> Void)? = nil
    ) { fatalError() }
}
