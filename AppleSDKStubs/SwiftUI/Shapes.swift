// Shapes and what they are drawn with. See View.swift for what this module is.
//
// `Animatable` is declared without its requirement (`animatableData`, which the SDK implements by
// default for every type that does not animate), and `Path` without its members: nothing here
// animates or builds a path; they exist so that `Shape` and its requirement keep the SDK's form.

import Foundation

// https://developer.apple.com/documentation/swiftui/animatable
public protocol Animatable {}

// https://developer.apple.com/documentation/swiftui/path
@frozen public struct Path {}

// https://developer.apple.com/documentation/swiftui/shape
nonisolated public protocol Shape: Sendable, Animatable, View {
    // https://developer.apple.com/documentation/swiftui/shape/path(in:)
    nonisolated func path(in rect: CGRect) -> Path
}

// https://developer.apple.com/documentation/swiftui/roundedcornerstyle
public enum RoundedCornerStyle: Hashable, Sendable {
    // https://developer.apple.com/documentation/swiftui/roundedcornerstyle/circular
    case circular
    // https://developer.apple.com/documentation/swiftui/roundedcornerstyle/continuous
    case continuous
}

// https://developer.apple.com/documentation/swiftui/roundedrectangle
@frozen nonisolated public struct RoundedRectangle: Shape {
    public typealias Body = Never
    // https://developer.apple.com/documentation/swiftui/roundedrectangle/init(cornerradius:style:)
    public init(cornerRadius: CGFloat, style: RoundedCornerStyle = .continuous) { fatalError() }
    // https://developer.apple.com/documentation/swiftui/shape/path(in:)
    public func path(in rect: CGRect) -> Path { fatalError() }
    public var body: Never { fatalError() }
}

// https://developer.apple.com/documentation/swiftui/fillstyle
@frozen public struct FillStyle {
    // https://developer.apple.com/documentation/swiftui/fillstyle/init(eofill:antialiased:)
    public init(eoFill: Bool = false, antialiased: Bool = true) { fatalError() }
}
