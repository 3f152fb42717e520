#if canImport(SwiftUI)
    import StartupFeature
    import SwiftUI

    /// A failed query's message with Retry.
    struct ErrorMessageView: View {
        let message: String
        let retry: @MainActor () -> Void

        var body: some View {
            VStack(spacing: 8) {
                Text(message)
                    .multilineTextAlignment(.center)
                Button(L10n.AnimalList.retryButton, action: retry)
                    .accessibilityIdentifier(AccessibilityIdentifiers.AnimalList.retry)
            }
            .padding()
            .accessibilityIdentifier(AccessibilityIdentifiers.AnimalList.error)
        }
    }
#endif
