// View modifiers. All are `nonisolated` members of `View`, as documented. See View.swift for what
// this module is.

import Foundation

extension View {
    // https://developer.apple.com/documentation/swiftui/view/padding(_:_:)
    nonisolated public func padding(_ edges: Edge.Set = .all, _ length: CGFloat? = nil) -> some View { _StubView() }

    // https://developer.apple.com/documentation/swiftui/view/frame(minwidth:idealwidth:maxwidth:minheight:idealheight:maxheight:alignment:)
    nonisolated public func frame(
        minWidth: CGFloat? = nil,
        idealWidth: CGFloat? = nil,
        maxWidth: CGFloat? = nil,
        minHeight: CGFloat? = nil,
        idealHeight: CGFloat? = nil,
        maxHeight: CGFloat? = nil,
        alignment: Alignment = .center
    ) -> some View { _StubView() }

    // https://developer.apple.com/documentation/swiftui/view/ignoressafearea(_:edges:)
    nonisolated public func ignoresSafeArea(_ regions: SafeAreaRegions = .all, edges: Edge.Set = .all) -> some View {
        _StubView()
    }

    // https://developer.apple.com/documentation/swiftui/view/background(_:in:fillstyle:)-89n7j
    nonisolated public func background<S: ShapeStyle, T: Shape>(
        _ style: S,
        in shape: T,
        fillStyle: FillStyle = FillStyle()
    ) -> some View { _StubView() }

    // https://developer.apple.com/documentation/swiftui/view/overlay(alignment:content:)
    nonisolated public func overlay<V: View>(
        alignment: Alignment = .center,
        @ViewBuilder content: () -> V
    ) -> some View { _StubView() }

    // https://developer.apple.com/documentation/swiftui/view/font(_:)
    nonisolated public func font(_ font: Font?) -> some View { _StubView() }
    // https://developer.apple.com/documentation/swiftui/view/foregroundstyle(_:)
    nonisolated public func foregroundStyle<S: ShapeStyle>(_ style: S) -> some View { _StubView() }
    // https://developer.apple.com/documentation/swiftui/view/multilinetextalignment(_:)
    nonisolated public func multilineTextAlignment(_ alignment: TextAlignment) -> some View { _StubView() }
    // https://developer.apple.com/documentation/swiftui/view/disabled(_:)
    nonisolated public func disabled(_ disabled: Bool) -> some View { _StubView() }
    // https://developer.apple.com/documentation/swiftui/view/buttonstyle(_:)-66fbx
    nonisolated public func buttonStyle<S: PrimitiveButtonStyle>(_ style: S) -> some View { _StubView() }

    // https://developer.apple.com/documentation/swiftui/view/navigationtitle(_:)
    nonisolated public func navigationTitle<S: StringProtocol>(_ title: S) -> some View { _StubView() }
    // https://developer.apple.com/documentation/swiftui/view/navigationtitle(_:)
    nonisolated public func navigationTitle(_ titleKey: LocalizedStringKey) -> some View { _StubView() }

    // https://developer.apple.com/documentation/swiftui/view/onappear(perform:)
    nonisolated public func onAppear(perform action: (() -> Void)? = nil) -> some View { _StubView() }

    // https://developer.apple.com/documentation/swiftui/view/onchange(of:initial:_:)-4psgg
    nonisolated public func onChange<V: Equatable>(
        of value: V,
        initial: Bool = false,
        _ action: @escaping (_ oldValue: V, _ newValue: V) -> Void
    ) -> some View { _StubView() }

    // https://developer.apple.com/documentation/swiftui/view/task(priority:_:)
    // (The iOS 26.4 SDK adds `name:file:line:` with defaults and takes the action as `sending`
    // instead of `@Sendable`; the stricter iOS 18 form is declared, so what passes here builds with
    // both.)
    nonisolated public func task(
        priority: TaskPriority = .userInitiated,
        @_inheritActorContext _ action: @escaping @isolated(any) @Sendable () async -> Void
    ) -> some View { _StubView() }

    // https://developer.apple.com/documentation/swiftui/view/refreshable(action:)
    nonisolated public func refreshable(action: @escaping @Sendable () async -> Void) -> some View { _StubView() }

    // https://developer.apple.com/documentation/swiftui/view/alert(_:ispresented:actions:message:)-8dvt8
    nonisolated public func alert<S: StringProtocol, A: View, M: View>(
        _ title: S,
        isPresented: Binding<Bool>,
        @ViewBuilder actions: () -> A,
        @ViewBuilder message: () -> M
    ) -> some View { _StubView() }

    // https://developer.apple.com/documentation/swiftui/view/sheet(item:ondismiss:content:)
    nonisolated public func sheet<Item: Identifiable, Content: View>(
        item: Binding<Item?>,
        onDismiss: (() -> Void)? = nil,
        @ViewBuilder content: @escaping (Item) -> Content
    ) -> some View { _StubView() }

    // https://developer.apple.com/documentation/swiftui/view/sheet(ispresented:ondismiss:content:)
    nonisolated public func sheet<Content: View>(
        isPresented: Binding<Bool>,
        onDismiss: (() -> Void)? = nil,
        @ViewBuilder content: @escaping () -> Content
    ) -> some View { _StubView() }

    // https://developer.apple.com/documentation/swiftui/view/interactivedismissdisabled(_:)
    nonisolated public func interactiveDismissDisabled(_ isDisabled: Bool = true) -> some View { _StubView() }

    // https://developer.apple.com/documentation/swiftui/view/toolbar(content:)
    nonisolated public func toolbar<Content: View>(@ViewBuilder content: () -> Content) -> some View { _StubView() }

    // https://developer.apple.com/documentation/swiftui/view/accessibilityidentifier(_:)
    nonisolated public func accessibilityIdentifier(_ identifier: String) -> ModifiedContent<Self, AccessibilityAttachmentModifier> {
        fatalError()
    }
    // https://developer.apple.com/documentation/swiftui/view/accessibilityaction(_:_:)
    // (returns `ModifiedContent<Self, AccessibilityAttachmentModifier>`; declared `some View` here.)
    nonisolated public func accessibilityAction(
        _ actionKind: AccessibilityActionKind = .default,
        _ handler: @escaping () -> Void
    ) -> some View { _StubView() }
    // https://developer.apple.com/documentation/swiftui/view/accessibilityelement(children:)
    nonisolated public func accessibilityElement(children: AccessibilityChildBehavior = .ignore) -> some View {
        _StubView()
    }
    // https://developer.apple.com/documentation/swiftui/view/accessibilitylabel(_:)-5f0zj
    nonisolated public func accessibilityLabel<S: StringProtocol>(
        _ label: S
    ) -> ModifiedContent<Self, AccessibilityAttachmentModifier> { fatalError() }
    // https://developer.apple.com/documentation/swiftui/view/accessibilityhint(_:)-6yfmu
    nonisolated public func accessibilityHint<S: StringProtocol>(
        _ hint: S
    ) -> ModifiedContent<Self, AccessibilityAttachmentModifier> { fatalError() }
    // https://developer.apple.com/documentation/swiftui/view/accessibilityaddtraits(_:)
    nonisolated public func accessibilityAddTraits(
        _ traits: AccessibilityTraits
    ) -> ModifiedContent<Self, AccessibilityAttachmentModifier> { fatalError() }
    // https://developer.apple.com/documentation/swiftui/view/accessibilityhidden(_:)
    nonisolated public func accessibilityHidden(_ hidden: Bool) -> ModifiedContent<Self, AccessibilityAttachmentModifier> {
        fatalError()
    }
}
