// Declaration-only stand-in for Apple's SwiftUI, used only to type-check the Apple-only files on Linux
// (scripts/typecheck-apple.sh). Never linked, never built on Apple platforms. Each symbol is
// transcribed from the documentation page named beside it; only what PetSpot uses is declared
// (plus what the result builder and the declared types need to be whole).
//
// Deviations from the SDK (the API surface — names, labels, parameter types, generic constraints,
// isolation — is kept; what lies behind it is not):
// - Results of modifiers are `some View` backed by one private stand-in view (`_StubView`); bodies
//   are `fatalError()`. Nothing here ever runs.
// - The latest documentation writes content closures as `@ContentBuilder`; the SDKs PetSpot builds
//   with (iOS 17–26) declare `@ViewBuilder`, which is what is declared here.
// - `LocalizedStringKey` interpolates through `DefaultStringInterpolation` instead of its own type.
// - Built-in views are `nonisolated` structs with `nonisolated` initializers, as documented; the
//   protocols `View`, `App`, `Scene` are `@MainActor @preconcurrency`, as documented.
// - Like the SDK's, this module re-exports Foundation (where Linux keeps `CGFloat`) and, on iOS,
//   UIKit: a file that imports only SwiftUI sees them.

@_exported import Foundation

// https://developer.apple.com/documentation/swiftui/view
@MainActor @preconcurrency
public protocol View {
    // https://developer.apple.com/documentation/swiftui/view/body-swift.associatedtype
    associatedtype Body: View
    // https://developer.apple.com/documentation/swiftui/view/body-8kl5o
    @ViewBuilder @MainActor @preconcurrency var body: Self.Body { get }
}

// https://developer.apple.com/documentation/swiftui/viewbuilder
@resultBuilder
public struct ViewBuilder {
    // https://developer.apple.com/documentation/swiftui/viewbuilder/buildexpression(_:)
    public static func buildExpression<Content: View>(_ content: Content) -> Content { fatalError() }
    // https://developer.apple.com/documentation/swiftui/viewbuilder/buildblock()
    public static func buildBlock() -> EmptyView { fatalError() }
    // https://developer.apple.com/documentation/swiftui/viewbuilder/buildblock(_:)
    public static func buildBlock<Content: View>(_ content: Content) -> Content { fatalError() }
    // https://developer.apple.com/documentation/swiftui/viewbuilder/buildblock(_:)
    public static func buildBlock<each Content: View>(_ content: repeat each Content) -> TupleView<(repeat each Content)> {
        fatalError()
    }
    // https://developer.apple.com/documentation/swiftui/viewbuilder/buildif(_:)
    public static func buildIf<Content: View>(_ content: Content?) -> Content? { fatalError() }
    // https://developer.apple.com/documentation/swiftui/viewbuilder/buildeither(first:)
    public static func buildEither<TrueContent: View, FalseContent: View>(
        first: TrueContent
    ) -> _ConditionalContent<TrueContent, FalseContent> { fatalError() }
    // https://developer.apple.com/documentation/swiftui/viewbuilder/buildeither(second:)
    public static func buildEither<TrueContent: View, FalseContent: View>(
        second: FalseContent
    ) -> _ConditionalContent<TrueContent, FalseContent> { fatalError() }
    // https://developer.apple.com/documentation/swiftui/viewbuilder/buildlimitedavailability(_:)
    public static func buildLimitedAvailability<Content: View>(_ content: Content) -> AnyView { fatalError() }
}

// https://developer.apple.com/documentation/swift/never (SwiftUI's `View` conformance)
extension Never: View {
    public typealias Body = Never
    public var body: Never { fatalError() }
}

// https://developer.apple.com/documentation/swift/optional (SwiftUI's `View` conformance)
extension Optional: View where Wrapped: View {
    public typealias Body = Never
    public var body: Never { fatalError() }
}

// https://developer.apple.com/documentation/swiftui/emptyview
nonisolated public struct EmptyView: View {
    public typealias Body = Never
    // https://developer.apple.com/documentation/swiftui/emptyview/init()
    public init() {}
    public var body: Never { fatalError() }
}

// https://developer.apple.com/documentation/swiftui/tupleview
nonisolated public struct TupleView<T>: View {
    public typealias Body = Never
    public var body: Never { fatalError() }
}

// https://developer.apple.com/documentation/swiftui/_conditionalcontent
nonisolated public struct _ConditionalContent<TrueContent: View, FalseContent: View>: View {
    public typealias Body = Never
    public var body: Never { fatalError() }
}

// https://developer.apple.com/documentation/swiftui/anyview
nonisolated public struct AnyView: View {
    public typealias Body = Never
    public var body: Never { fatalError() }
}

/// The one concrete type behind every `some View` a modifier returns here (not in the SDK).
nonisolated public struct _StubView: View {
    public typealias Body = Never
    public init() {}
    public var body: Never { fatalError() }
}

// https://developer.apple.com/documentation/swiftui/viewmodifier
@MainActor @preconcurrency
public protocol ViewModifier {
    // https://developer.apple.com/documentation/swiftui/viewmodifier/body-swift.associatedtype
    associatedtype Body: View
    // https://developer.apple.com/documentation/swiftui/viewmodifier/content
    typealias Content = _ViewModifier_Content<Self>
    // https://developer.apple.com/documentation/swiftui/viewmodifier/body(content:)
    @ViewBuilder @MainActor @preconcurrency func body(content: Self.Content) -> Self.Body
}

// https://developer.apple.com/documentation/swiftui/_viewmodifier_content
nonisolated public struct _ViewModifier_Content<Modifier: ViewModifier>: View {
    public typealias Body = Never
    public var body: Never { fatalError() }
}

// https://developer.apple.com/documentation/swiftui/modifiedcontent
nonisolated public struct ModifiedContent<Content, Modifier> {
    // https://developer.apple.com/documentation/swiftui/modifiedcontent/init(content:modifier:)
    public init(content: Content, modifier: Modifier) { fatalError() }
}

extension ModifiedContent: View where Content: View, Modifier: ViewModifier {
    public typealias Body = Never
    nonisolated public var body: Never { fatalError() }
}

// https://developer.apple.com/documentation/swiftui/accessibilityattachmentmodifier
nonisolated public struct AccessibilityAttachmentModifier: ViewModifier {
    public typealias Body = Never
    public func body(content: Content) -> Never { fatalError() }
}
