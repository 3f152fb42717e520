#if canImport(SwiftUI)
    import Permissions
    import SwiftUI

    /// The permissions screen (PG-FR-001…, docs/requirements.md): a card per permission with its state, Allow or Settings,
    /// "Learn more", and Done, which calls the completion callback. Everything shown comes from
    /// ``PermissionsScreenModel``; every tap goes to it.
    public struct PermissionsView: View {
        @Bindable private var model: PermissionsScreenModel

        public init(model: PermissionsScreenModel) {
            self.model = model
        }

        public var body: some View {
            NavigationStack {
                ScrollView {
                    VStack(alignment: .leading, spacing: 16) {
                        Text(verbatim: model.texts.intro(model.localizer))
                            .font(.subheadline)
                            .foregroundStyle(.secondary)
                        ForEach(model.cards) { card in
                            PermissionCardView(
                                card: card,
                                perform: { Task { await model.performAction(for: card.permission) } },
                                learnMore: { model.learnMore(card.permission) }
                            )
                        }
                        if let message = model.errorMessage {
                            Text(verbatim: message)
                                .font(.footnote)
                                .foregroundStyle(.red)
                                .accessibilityIdentifier(PermissionsAccessibilityIdentifiers.error)
                        }
                        Button(PermissionsL10n.doneButton(model.localizer)) { model.finish() }
                            .disabled(!model.canContinue)
                            .accessibilityHint(model.texts.doneHint(model.localizer))
                            .accessibilityIdentifier(PermissionsAccessibilityIdentifiers.done)
                    }
                    .padding()
                }
                .navigationTitle(PermissionsL10n.title(model.localizer))
            }
            .task { await model.appear() }
            .sheet(item: $model.detailPermission) { permission in
                PermissionDetailView(model: model, permission: permission)
            }
        }
    }

    /// One permission's card.
    struct PermissionCardView: View {
        let card: PermissionCard
        let perform: @MainActor () -> Void
        let learnMore: @MainActor () -> Void

        var body: some View {
            VStack(alignment: .leading, spacing: 8) {
                HStack(spacing: 12) {
                    Image(systemName: card.symbolName)
                        .font(.title2)
                        .accessibilityHidden(true)
                    VStack(alignment: .leading, spacing: 2) {
                        Text(verbatim: card.title)
                            .font(.headline)
                        Text(verbatim: card.statusText)
                            .font(.subheadline)
                            .foregroundStyle(card.state.tint)
                            .accessibilityIdentifier(PermissionsAccessibilityIdentifiers.status(card.permission))
                    }
                }
                Text(verbatim: card.rationale)
                    .font(.callout)
                    .foregroundStyle(.secondary)
                HStack {
                    Button(card.learnMoreTitle, action: learnMore)
                        .accessibilityHint(card.learnMoreHint)
                        .accessibilityIdentifier(PermissionsAccessibilityIdentifiers.learnMore(card.permission))
                    Spacer()
                    if card.isBusy {
                        ProgressView()
                            .accessibilityLabel(card.busyLabel)
                    } else if let title = card.actionTitle {
                        Button(title, action: perform)
                            .accessibilityHint(card.actionHint ?? "")
                            .accessibilityIdentifier(PermissionsAccessibilityIdentifiers.action(card.permission))
                    }
                }
            }
            .padding()
        }
    }

    extension PermissionState {
        /// The colour of a status line.
        var tint: Color {
            switch self {
            case .authorized: .green
            case .denied: .red
            case .restricted: .orange
            case .notDetermined, .unavailable: .gray
            }
        }
    }
#endif
