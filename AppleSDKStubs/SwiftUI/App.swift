// Apps, scenes and hosting. See View.swift for what this module is.

import Foundation
@_exported import UIKit

// https://developer.apple.com/documentation/swiftui/app
@MainActor @preconcurrency
public protocol App {
    // https://developer.apple.com/documentation/swiftui/app/body-swift.associatedtype
    associatedtype Body: Scene
    // https://developer.apple.com/documentation/swiftui/app/body-swift.property
    @SceneBuilder @MainActor @preconcurrency var body: Self.Body { get }
    // https://developer.apple.com/documentation/swiftui/app/init()
    @MainActor @preconcurrency init()
}

extension App {
    // https://developer.apple.com/documentation/swiftui/app/main()
    @MainActor @preconcurrency public static func main() { fatalError() }
}

// https://developer.apple.com/documentation/swiftui/scene
@MainActor @preconcurrency
public protocol Scene {
    // https://developer.apple.com/documentation/swiftui/scene/body-swift.associatedtype
    associatedtype Body: Scene
    // https://developer.apple.com/documentation/swiftui/scene/body-swift.property
    @SceneBuilder @MainActor @preconcurrency var body: Self.Body { get }
}

// https://developer.apple.com/documentation/swiftui/never (SwiftUI's `Scene` conformance)
extension Never: Scene {}

// https://developer.apple.com/documentation/swiftui/scenebuilder
@resultBuilder
public struct SceneBuilder {
    // https://developer.apple.com/documentation/swiftui/scenebuilder/buildexpression(_:)
    public static func buildExpression<Content: Scene>(_ content: Content) -> Content { fatalError() }
    // https://developer.apple.com/documentation/swiftui/scenebuilder/buildblock(_:)
    public static func buildBlock<Content: Scene>(_ content: Content) -> Content { fatalError() }
}

// https://developer.apple.com/documentation/swiftui/windowgroup
public struct WindowGroup<Content: View>: Scene {
    public typealias Body = Never
    // https://developer.apple.com/documentation/swiftui/windowgroup/init(content:)
    nonisolated public init(@ViewBuilder content: () -> Content) { fatalError() }
    public var body: Never { fatalError() }
}

// https://developer.apple.com/documentation/swiftui/uihostingcontroller
@MainActor @preconcurrency
open class UIHostingController<Content: View>: UIViewController {
    // https://developer.apple.com/documentation/swiftui/uihostingcontroller/init(rootview:)
    @MainActor @preconcurrency public init(rootView: Content) { fatalError() }
}
