// Value types of layout and styling. See View.swift for what this module is.

import Foundation

// https://developer.apple.com/documentation/swiftui/horizontalalignment
@frozen public struct HorizontalAlignment: Equatable, Sendable {
    // https://developer.apple.com/documentation/swiftui/horizontalalignment/leading
    public static let leading = HorizontalAlignment()
    // https://developer.apple.com/documentation/swiftui/horizontalalignment/center
    public static let center = HorizontalAlignment()
    private init() {}
}

// https://developer.apple.com/documentation/swiftui/verticalalignment
@frozen public struct VerticalAlignment: Equatable, Sendable {
    // https://developer.apple.com/documentation/swiftui/verticalalignment/center
    public static let center = VerticalAlignment()
    private init() {}
}

// https://developer.apple.com/documentation/swiftui/alignment
@frozen public struct Alignment: Equatable, Sendable {
    // https://developer.apple.com/documentation/swiftui/alignment/init(horizontal:vertical:)
    public init(horizontal: HorizontalAlignment, vertical: VerticalAlignment) { fatalError() }
    // https://developer.apple.com/documentation/swiftui/alignment/center
    public static let center = Alignment(horizontal: .center, vertical: .center)
}

// https://developer.apple.com/documentation/swiftui/textalignment
public enum TextAlignment: Hashable, CaseIterable, Sendable {
    case leading
    case center
    case trailing
}

// https://developer.apple.com/documentation/swiftui/edge
@frozen public enum Edge: Int8, CaseIterable, Sendable {
    case top, leading, bottom, trailing

    // https://developer.apple.com/documentation/swiftui/edge/set
    @frozen public struct Set: OptionSet, Sendable {
        public let rawValue: Int8
        public init(rawValue: Int8) { self.rawValue = rawValue }
        public static let top = Set(rawValue: 1 << 0)
        public static let leading = Set(rawValue: 1 << 1)
        public static let bottom = Set(rawValue: 1 << 2)
        public static let trailing = Set(rawValue: 1 << 3)
        public static let all: Set = [.top, .leading, .bottom, .trailing]
    }
}

// https://developer.apple.com/documentation/swiftui/axis
@frozen public enum Axis: Int8, CaseIterable, Sendable {
    case horizontal, vertical

    // https://developer.apple.com/documentation/swiftui/axis/set
    @frozen public struct Set: OptionSet, Sendable {
        public let rawValue: Int8
        public init(rawValue: Int8) { self.rawValue = rawValue }
        // https://developer.apple.com/documentation/swiftui/axis/set/horizontal
        public static let horizontal = Set(rawValue: 1 << 0)
        // https://developer.apple.com/documentation/swiftui/axis/set/vertical
        public static let vertical = Set(rawValue: 1 << 1)
    }
}

// https://developer.apple.com/documentation/swiftui/font
@frozen public struct Font: Hashable, Sendable {
    // https://developer.apple.com/documentation/swiftui/font/largetitle
    public static let largeTitle = Font()
    // https://developer.apple.com/documentation/swiftui/font/title2
    public static let title2 = Font()
    // https://developer.apple.com/documentation/swiftui/font/title3
    public static let title3 = Font()
    // https://developer.apple.com/documentation/swiftui/font/headline
    public static let headline = Font()
    // https://developer.apple.com/documentation/swiftui/font/body
    public static let body = Font()
    // https://developer.apple.com/documentation/swiftui/font/subheadline
    public static let subheadline = Font()
    // https://developer.apple.com/documentation/swiftui/font/callout
    public static let callout = Font()
    // https://developer.apple.com/documentation/swiftui/font/footnote
    public static let footnote = Font()
    // https://developer.apple.com/documentation/swiftui/font/caption
    public static let caption = Font()
    private init() {}
}

// https://developer.apple.com/documentation/swiftui/shapestyle
public protocol ShapeStyle: Sendable {}

// https://developer.apple.com/documentation/swiftui/hierarchicalshapestyle
@frozen public struct HierarchicalShapeStyle: ShapeStyle {
    // https://developer.apple.com/documentation/swiftui/hierarchicalshapestyle/secondary
    public static let secondary = HierarchicalShapeStyle()
    private init() {}
}

extension ShapeStyle where Self == HierarchicalShapeStyle {
    // https://developer.apple.com/documentation/swiftui/shapestyle/secondary
    public static var secondary: HierarchicalShapeStyle { .secondary }
}

// https://developer.apple.com/documentation/swiftui/color
@frozen nonisolated public struct Color: Hashable, ShapeStyle, View {
    public typealias Body = Never
    public var body: Never { fatalError() }
    // https://developer.apple.com/documentation/swiftui/color/red
    public static let red = Color()
    // https://developer.apple.com/documentation/swiftui/color/orange
    public static let orange = Color()
    // https://developer.apple.com/documentation/swiftui/color/green
    public static let green = Color()
    // https://developer.apple.com/documentation/swiftui/color/gray
    public static let gray = Color()
    // https://developer.apple.com/documentation/swiftui/color/black
    public static let black = Color()
    private init() {}

    // https://developer.apple.com/documentation/swiftui/color/opacity(_:)
    public func opacity(_ opacity: Double) -> Color { fatalError() }
}

extension ShapeStyle where Self == Color {
    // https://developer.apple.com/documentation/swiftui/shapestyle/red
    public static var red: Color { .red }
}

// https://developer.apple.com/documentation/swiftui/material
public struct Material: ShapeStyle {
    // https://developer.apple.com/documentation/swiftui/material/regular
    public static let regular = Material()
    private init() {}
}

extension ShapeStyle where Self == Material {
    // https://developer.apple.com/documentation/swiftui/shapestyle/regularmaterial
    public static var regularMaterial: Material { .regular }
}

// https://developer.apple.com/documentation/swiftui/safearearegions
@frozen public struct SafeAreaRegions: OptionSet, Sendable {
    public let rawValue: UInt
    public init(rawValue: UInt) { self.rawValue = rawValue }
    // https://developer.apple.com/documentation/swiftui/safearearegions/all
    public static let all = SafeAreaRegions(rawValue: .max)
}

// https://developer.apple.com/documentation/swiftui/accessibilityactionkind
public struct AccessibilityActionKind: Sendable {
    // https://developer.apple.com/documentation/swiftui/accessibilityactionkind/default
    public static let `default` = AccessibilityActionKind()
    // https://developer.apple.com/documentation/swiftui/accessibilityactionkind/escape
    public static let escape = AccessibilityActionKind()
    private init() {}
}

// https://developer.apple.com/documentation/swiftui/accessibilitychildbehavior
public struct AccessibilityChildBehavior: Hashable, Sendable {
    // https://developer.apple.com/documentation/swiftui/accessibilitychildbehavior/ignore
    public static let ignore = AccessibilityChildBehavior()
    // https://developer.apple.com/documentation/swiftui/accessibilitychildbehavior/contain
    public static let contain = AccessibilityChildBehavior()
    private init() {}
}

// https://developer.apple.com/documentation/swiftui/accessibilitytraits (a `SetAlgebra` of itself, so
// traits combine as `[.isHeader, .isButton]`; the requirements without a default are declared)
public struct AccessibilityTraits: SetAlgebra, Sendable {
    // https://developer.apple.com/documentation/swiftui/accessibilitytraits/isheader
    public static let isHeader = AccessibilityTraits()
    // https://developer.apple.com/documentation/swiftui/accessibilitytraits/ismodal
    public static let isModal = AccessibilityTraits()

    public init() {}
    public func contains(_ member: AccessibilityTraits) -> Bool { fatalError() }
    public func union(_ other: AccessibilityTraits) -> AccessibilityTraits { fatalError() }
    public func intersection(_ other: AccessibilityTraits) -> AccessibilityTraits { fatalError() }
    public func symmetricDifference(_ other: AccessibilityTraits) -> AccessibilityTraits { fatalError() }
    @discardableResult
    public mutating func insert(
        _ newMember: AccessibilityTraits
    ) -> (inserted: Bool, memberAfterInsert: AccessibilityTraits) { fatalError() }
    @discardableResult
    public mutating func remove(_ member: AccessibilityTraits) -> AccessibilityTraits? { fatalError() }
    @discardableResult
    public mutating func update(with newMember: AccessibilityTraits) -> AccessibilityTraits? { fatalError() }
    public mutating func formUnion(_ other: AccessibilityTraits) { fatalError() }
    public mutating func formIntersection(_ other: AccessibilityTraits) { fatalError() }
    public mutating func formSymmetricDifference(_ other: AccessibilityTraits) { fatalError() }
}
