#if canImport(SwiftUI)
    import Permissions
    import SwiftUI

    /// "Learn more" for one permission: what PetSpot does, what it doesn't do, privacy, the current
    /// state and the card's button. For HealthKit it lists saving per type and says that iOS does not
    /// reveal reading.
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
                            Text(content.card.statusText)
                                .font(.headline)
                                .foregroundStyle(content.card.state.tint)
                        }
                        Text("What we do")
                            .font(.title3)
                        ForEach(content.details.whatWeDo, id: \.self) { line in
                            Label(line, systemImage: "checkmark.circle")
                        }
                        Text("What we don't do")
                            .font(.title3)
                        ForEach(content.details.whatWeDoNotDo, id: \.self) { line in
                            Label(line, systemImage: "xmark.circle")
                        }
                        Text("Privacy")
                            .font(.title3)
                        Text(content.details.privacy)
                        ForEach(content.healthLines, id: \.self) { line in
                            Text(line)
                                .font(.footnote)
                        }
                        if let title = content.card.actionTitle {
                            Button(title) { Task { await model.performAction(for: permission) } }
                                .disabled(content.card.isBusy)
                                .accessibilityIdentifier("permissionDetail.action")
                        }
                        Button("Done") { model.closeDetail() }
                            .accessibilityIdentifier("permissionDetail.done")
                    }
                    .padding()
                }
                .navigationTitle(content.card.title)
            }
        }
    }
#endif
