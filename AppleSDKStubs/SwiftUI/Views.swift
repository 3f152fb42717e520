// Built-in views and the value types their initializers take. See View.swift for what this module is.

import Foundation

// https://developer.apple.com/documentation/swiftui/localizedstringkey
@frozen public struct LocalizedStringKey: Equatable, ExpressibleByStringInterpolation, Sendable {
    // https://developer.apple.com/documentation/swiftui/localizedstringkey/init(_:)
    public init(_ value: String) { fatalError() }
    // https://developer.apple.com/documentation/swiftui/localizedstringkey/init(stringliteral:)
    public init(stringLiteral value: String) { fatalError() }
    // https://developer.apple.com/documentation/swiftui/localizedstringkey/init(stringinterpolation:)
    public init(stringInterpolation: DefaultStringInterpolation) { fatalError() }
}

// https://developer.apple.com/documentation/swiftui/text
@frozen nonisolated public struct Text: View, Equatable, Sendable {
    public typealias Body = Never
    // https://developer.apple.com/documentation/swiftui/text/init(_:)-9d1g4
    public init<S: StringProtocol>(_ content: S) { fatalError() }
    // https://developer.apple.com/documentation/swiftui/text/init(_:tablename:bundle:comment:)
    public init(_ key: LocalizedStringKey, tableName: String? = nil, bundle: Bundle? = nil, comment: StaticString? = nil) {
        fatalError()
    }
    // https://developer.apple.com/documentation/swiftui/text/init(verbatim:)
    public init(verbatim content: String) { fatalError() }
    public var body: Never { fatalError() }
    public static func == (lhs: Text, rhs: Text) -> Bool { fatalError() }
}

// https://developer.apple.com/documentation/swiftui/image
@frozen nonisolated public struct Image: View, Equatable, Sendable {
    public typealias Body = Never
    // https://developer.apple.com/documentation/swiftui/image/init(systemname:)
    public init(systemName: String) { fatalError() }
    public var body: Never { fatalError() }
    public static func == (lhs: Image, rhs: Image) -> Bool { fatalError() }
}

// https://developer.apple.com/documentation/swiftui/label
nonisolated public struct Label<Title: View, Icon: View>: View {
    public typealias Body = Never
    public var body: Never { fatalError() }
}

extension Label where Title == Text, Icon == Image {
    // https://developer.apple.com/documentation/swiftui/label/init(_:systemimage:)
    nonisolated public init<S: StringProtocol>(_ title: S, systemImage name: String) { fatalError() }
}

// https://developer.apple.com/documentation/swiftui/buttonrole
public struct ButtonRole: Equatable, Sendable {
    // https://developer.apple.com/documentation/swiftui/buttonrole/cancel
    public static let cancel = ButtonRole()
    private init() {}
}

// https://developer.apple.com/documentation/swiftui/button
nonisolated public struct Button<Label: View>: View {
    public typealias Body = Never
    public var body: Never { fatalError() }
}

extension Button {
    // https://developer.apple.com/documentation/swiftui/button/init(action:label:)
    @preconcurrency nonisolated public init(action: @escaping @MainActor () -> Void, @ViewBuilder label: () -> Label) {
        fatalError()
    }
}

extension Button where Label == Text {
    // https://developer.apple.com/documentation/swiftui/button/init(_:action:)-lpm7
    @preconcurrency nonisolated public init<S: StringProtocol>(_ title: S, action: @escaping @MainActor () -> Void) {
        fatalError()
    }
    // https://developer.apple.com/documentation/swiftui/button/init(_:action:)-1asy
    @preconcurrency nonisolated public init(_ titleKey: LocalizedStringKey, action: @escaping @MainActor () -> Void) {
        fatalError()
    }
    // https://developer.apple.com/documentation/swiftui/button/init(_:role:action:)
    @preconcurrency nonisolated public init<S: StringProtocol>(
        _ title: S,
        role: ButtonRole?,
        action: @escaping @MainActor () -> Void
    ) { fatalError() }
}

// https://developer.apple.com/documentation/swiftui/progressview
nonisolated public struct ProgressView<Label: View, CurrentValueLabel: View>: View {
    public typealias Body = Never
    public var body: Never { fatalError() }
}

extension ProgressView where Label == EmptyView, CurrentValueLabel == EmptyView {
    // https://developer.apple.com/documentation/swiftui/progressview/init()
    nonisolated public init() { fatalError() }
}

extension ProgressView where Label == Text, CurrentValueLabel == EmptyView {
    // https://developer.apple.com/documentation/swiftui/progressview/init(_:)
    nonisolated public init<S: StringProtocol>(_ title: S) { fatalError() }
}

// https://developer.apple.com/documentation/swiftui/foreach
nonisolated public struct ForEach<Data: RandomAccessCollection, ID: Hashable, Content> {}

extension ForEach: View where Content: View {
    public typealias Body = Never
    nonisolated public var body: Never { fatalError() }
}

extension ForEach where ID == Data.Element.ID, Content: View, Data.Element: Identifiable {
    // https://developer.apple.com/documentation/swiftui/foreach/init(_:content:)
    nonisolated public init(_ data: Data, @ViewBuilder content: @escaping (Data.Element) -> Content) { fatalError() }
}

extension ForEach where Content: View {
    // https://developer.apple.com/documentation/swiftui/foreach/init(_:id:content:)
    nonisolated public init(_ data: Data, id: KeyPath<Data.Element, ID>, @ViewBuilder content: @escaping (Data.Element) -> Content) {
        fatalError()
    }
}

// https://developer.apple.com/documentation/swiftui/list
nonisolated public struct List<SelectionValue: Hashable, Content: View>: View {
    public typealias Body = Never
    public var body: Never { fatalError() }
}

extension List where SelectionValue == Never {
    // https://developer.apple.com/documentation/swiftui/list/init(_:rowcontent:)-3vn6i
    nonisolated public init<Data, RowContent>(
        _ data: Data,
        @ViewBuilder rowContent: @escaping (Data.Element) -> RowContent
    ) where Content == ForEach<Data, Data.Element.ID, RowContent>, Data: RandomAccessCollection, RowContent: View,
        Data.Element: Identifiable { fatalError() }

    // https://developer.apple.com/documentation/swiftui/list/init(_:id:rowcontent:)-4s0aj
    nonisolated public init<Data, ID, RowContent>(
        _ data: Data,
        id: KeyPath<Data.Element, ID>,
        @ViewBuilder rowContent: @escaping (Data.Element) -> RowContent
    ) where Content == ForEach<Data, ID, RowContent>, Data: RandomAccessCollection, ID: Hashable, RowContent: View { fatalError() }
}

// https://developer.apple.com/documentation/swiftui/vstack
@frozen nonisolated public struct VStack<Content: View>: View {
    public typealias Body = Never
    // https://developer.apple.com/documentation/swiftui/vstack/init(alignment:spacing:content:)
    public init(alignment: HorizontalAlignment = .center, spacing: CGFloat? = nil, @ViewBuilder content: () -> Content) {
        fatalError()
    }
    public var body: Never { fatalError() }
}

// https://developer.apple.com/documentation/swiftui/hstack
@frozen nonisolated public struct HStack<Content: View>: View {
    public typealias Body = Never
    // https://developer.apple.com/documentation/swiftui/hstack/init(alignment:spacing:content:)
    public init(alignment: VerticalAlignment = .center, spacing: CGFloat? = nil, @ViewBuilder content: () -> Content) {
        fatalError()
    }
    public var body: Never { fatalError() }
}

// https://developer.apple.com/documentation/swiftui/zstack
@frozen nonisolated public struct ZStack<Content: View>: View {
    public typealias Body = Never
    // https://developer.apple.com/documentation/swiftui/zstack/init(alignment:content:)
    public init(alignment: Alignment = .center, @ViewBuilder content: () -> Content) { fatalError() }
    public var body: Never { fatalError() }
}

// https://developer.apple.com/documentation/swiftui/viewthatfits
@frozen nonisolated public struct ViewThatFits<Content: View>: View {
    public typealias Body = Never
    // https://developer.apple.com/documentation/swiftui/viewthatfits/init(in:content:)
    public init(in axes: Axis.Set = [.horizontal, .vertical], @ViewBuilder content: () -> Content) { fatalError() }
    public var body: Never { fatalError() }
}

// https://developer.apple.com/documentation/swiftui/spacer
@frozen nonisolated public struct Spacer: View {
    public typealias Body = Never
    // https://developer.apple.com/documentation/swiftui/spacer/init(minlength:)
    public init(minLength: CGFloat? = nil) { fatalError() }
    public var body: Never { fatalError() }
}

// https://developer.apple.com/documentation/swiftui/scrollview
nonisolated public struct ScrollView<Content: View>: View {
    public typealias Body = Never
    // https://developer.apple.com/documentation/swiftui/scrollview/init(_:showsindicators:content:)
    public init(_ axes: Axis.Set = .vertical, showsIndicators: Bool = true, @ViewBuilder content: () -> Content) {
        fatalError()
    }
    public var body: Never { fatalError() }
}

// https://developer.apple.com/documentation/swiftui/navigationpath
public struct NavigationPath: Equatable {
}

// https://developer.apple.com/documentation/swiftui/navigationstack
@MainActor @preconcurrency
public struct NavigationStack<Data, Root: View>: View {
    public typealias Body = Never
    public var body: Never { fatalError() }
}

extension NavigationStack where Data == NavigationPath {
    // https://developer.apple.com/documentation/swiftui/navigationstack/init(root:)
    @MainActor @preconcurrency public init(@ViewBuilder root: () -> Root) { fatalError() }
}

// https://developer.apple.com/documentation/swiftui/primitivebuttonstyle
@MainActor @preconcurrency
public protocol PrimitiveButtonStyle {
    // https://developer.apple.com/documentation/swiftui/primitivebuttonstyle/body
    associatedtype Body: View
    // https://developer.apple.com/documentation/swiftui/primitivebuttonstyle/configuration
    typealias Configuration = PrimitiveButtonStyleConfiguration
    // https://developer.apple.com/documentation/swiftui/primitivebuttonstyle/makebody(configuration:)
    @ViewBuilder @MainActor @preconcurrency func makeBody(configuration: Self.Configuration) -> Self.Body
}

// https://developer.apple.com/documentation/swiftui/primitivebuttonstyleconfiguration
public struct PrimitiveButtonStyleConfiguration {}

// https://developer.apple.com/documentation/swiftui/borderedbuttonstyle
nonisolated public struct BorderedButtonStyle: PrimitiveButtonStyle {
    // https://developer.apple.com/documentation/swiftui/borderedbuttonstyle/init()
    public init() {}
    // https://developer.apple.com/documentation/swiftui/borderedbuttonstyle/makebody(configuration:)
    public func makeBody(configuration: BorderedButtonStyle.Configuration) -> some View { _StubView() }
}

extension PrimitiveButtonStyle where Self == BorderedButtonStyle {
    // https://developer.apple.com/documentation/swiftui/primitivebuttonstyle/bordered
    nonisolated public static var bordered: BorderedButtonStyle { BorderedButtonStyle() }
}

// https://developer.apple.com/documentation/swiftui/borderedprominentbuttonstyle
nonisolated public struct BorderedProminentButtonStyle: PrimitiveButtonStyle {
    // https://developer.apple.com/documentation/swiftui/borderedprominentbuttonstyle/init()
    public init() {}
    // https://developer.apple.com/documentation/swiftui/borderedprominentbuttonstyle/makebody(configuration:)
    public func makeBody(configuration: BorderedProminentButtonStyle.Configuration) -> some View { _StubView() }
}

extension PrimitiveButtonStyle where Self == BorderedProminentButtonStyle {
    // https://developer.apple.com/documentation/swiftui/primitivebuttonstyle/borderedprominent
    nonisolated public static var borderedProminent: BorderedProminentButtonStyle { BorderedProminentButtonStyle() }
}

// https://developer.apple.com/documentation/swiftui/textfield
nonisolated public struct TextField<Label: View>: View {
    public typealias Body = Never
    public var body: Never { fatalError() }
}

extension TextField where Label == Text {
    // https://developer.apple.com/documentation/swiftui/textfield/init(_:text:)-2laoi
    nonisolated public init<S: StringProtocol>(_ title: S, text: Binding<String>) { fatalError() }
}
