#if canImport(SwiftUI)
    import Permissions
    import SwiftUI

    /// "Learn more" for one permission: what the app does, what it doesn't do, privacy, the current
    /// state and the card's button. For HealthKit it lists saving per type; nothing is said of reading,
    /// which the apps never ask for.
    public struct PermissionDetailView: View {
        private let model: PermissionsScreenModel
        private let permission: Permission

        public init(model: PermissionsScreenModel, permission: Permission) {
            self.model = model
            self.permission = permission
        }

        public var body: some View {
            let content = model.detail(for: permission)
            NavigationStack {
                ScrollView {
                    VStack(alignment: .leading, spacing: 16) {
                        HStack(spacing: 12) {
                            Image(systemName: content.card.symbolName)
                                .font(.largeTitle)
                                .accessibilityHidden(true)
                            Text(verbatim: content.card.statusText)
                                .font(.headline)
                                .foregroundStyle(content.card.state.tint)
                        }
                        Text(verbatim: content.whatWeDoHeading)
                            .font(.title3)
                            .accessibilityAddTraits(.isHeader)
                        ForEach(content.details.whatWeDo, id: \.self) { line in
                            Label(line, systemImage: "checkmark.circle")
                        }
                        Text(verbatim: content.whatWeDoNotDoHeading)
                            .font(.title3)
                            .accessibilityAddTraits(.isHeader)
                        ForEach(content.details.whatWeDoNotDo, id: \.self) { line in
                            Label(line, systemImage: "xmark.circle")
                        }
                        Text(verbatim: content.privacyHeading)
                            .font(.title3)
                            .accessibilityAddTraits(.isHeader)
                        Text(verbatim: content.details.privacy)
                        ForEach(content.healthLines, id: \.self) { line in
                            Text(verbatim: line)
                                .font(.footnote)
                        }
                        if let title = content.card.actionTitle {
                            Button(title) { Task { await model.performAction(for: permission) } }
                                .disabled(content.card.isBusy)
                                .accessibilityHint(content.card.actionHint ?? "")
                                .accessibilityIdentifier(PermissionsAccessibilityIdentifiers.Detail.action)
                        }
                        Button(content.doneButton) { model.closeDetail() }
                            .accessibilityHint(content.doneHint)
                            .accessibilityIdentifier(PermissionsAccessibilityIdentifiers.Detail.done)
                    }
                    .padding()
                }
                .navigationTitle(content.card.title)
            }
        }
    }
#endif
