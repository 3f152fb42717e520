#if canImport(SwiftUI)
    import Localization
    import StartupFeature
    import SwiftUI

    /// A failed query's message with Retry.
    struct ErrorMessageView: View {
        let message: String
        let localizer: Localizer
        let retry: @MainActor () -> Void

        var body: some View {
            VStack(spacing: 8) {
                Text(verbatim: message)
                    .multilineTextAlignment(.center)
                Button(L10n.text(.listRetryButton, localizer), action: retry)
                    .accessibilityHint(L10n.text(.listRetryHint, localizer))
                    .accessibilityIdentifier(AccessibilityIdentifiers.AnimalList.retry)
            }
            .padding()
            .accessibilityIdentifier(AccessibilityIdentifiers.AnimalList.error)
        }
    }
#endif
