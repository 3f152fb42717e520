#if canImport(SwiftUI)
    import StartupFeature
    import SwiftUI

    /// The custom location-permission popup: a card over the dimmed screen with the cause's title and
    /// message, Go to Settings (the prominent button), Cancel and, when the app can search places,
    /// Choose a Place Instead. It decides nothing: each button calls back, and the popup goes away
    /// when the view model stops showing it.
    struct PermissionPopupView: View {
        let content: PermissionPopupContent
        let openSettings: @MainActor () -> Void
        let cancel: @MainActor () -> Void
        /// The third action; nil hides it.
        let choosePlace: (@MainActor () -> Void)?

        var body: some View {
            ZStack {
                // Dims the whole screen and takes its taps: only the two buttons close the popup.
                Color.black.opacity(0.4)
                    .ignoresSafeArea()
                // The card keeps its natural height and scrolls only when large text makes it taller
                // than the screen.
                ViewThatFits(in: .vertical) {
                    card
                    ScrollView { card }
                }
                .background(.regularMaterial, in: RoundedRectangle(cornerRadius: 16))
                .padding()
                .accessibilityElement(children: .contain)
                .accessibilityAddTraits(.isModal)
                // VoiceOver's two-finger scrub closes it as Cancel does.
                .accessibilityAction(.escape) { cancel() }
                .accessibilityIdentifier(AccessibilityIdentifiers.PermissionPopup.popup)
            }
        }

        private var card: some View {
            VStack(spacing: 16) {
                Text(verbatim: content.title)
                    .font(.headline)
                    .accessibilityAddTraits(.isHeader)
                    .accessibilityIdentifier(AccessibilityIdentifiers.PermissionPopup.title)
                Text(verbatim: content.message)
                    .font(.body)
                    .accessibilityIdentifier(AccessibilityIdentifiers.PermissionPopup.message)
                // Stacked and full width, so long translations and large text never squeeze them.
                VStack(spacing: 8) {
                    Button(action: openSettings) {
                        Text(verbatim: content.settingsButton)
                            .frame(maxWidth: .infinity)
                    }
                    .buttonStyle(.borderedProminent)
                    .accessibilityHint(content.settingsHint)
                    .accessibilityIdentifier(AccessibilityIdentifiers.PermissionPopup.goToSettings)
                    Button(action: cancel) {
                        Text(verbatim: content.cancelButton)
                            .frame(maxWidth: .infinity)
                    }
                    .buttonStyle(.bordered)
                    .accessibilityHint(content.cancelHint)
                    .accessibilityIdentifier(AccessibilityIdentifiers.PermissionPopup.cancel)
                    if let choosePlace {
                        Button(action: choosePlace) {
                            Text(verbatim: content.choosePlaceButton)
                                .frame(maxWidth: .infinity)
                        }
                        .buttonStyle(.bordered)
                        .accessibilityHint(content.choosePlaceHint)
                        .accessibilityIdentifier(AccessibilityIdentifiers.PermissionPopup.choosePlace)
                    }
                }
            }
            .multilineTextAlignment(.center)
            .padding()
        }
    }
#endif
