#if canImport(SwiftUI)
    import PaintMyTownFeature
    import SwiftUI

    /// The walk screen: what the walk does now (its state, distance, steps), why something does not
    /// happen (no location, no Motion), what became of the last walk, and its buttons. Everything shown
    /// comes from ``WalkScreen``; every tap goes to the app model.
    struct WalkView: View {
        let screen: WalkScreen
        let app: PaintMyTownModel

        var body: some View {
            NavigationStack {
                VStack(alignment: .leading, spacing: 16) {
                    Text(verbatim: screen.status)
                        .font(.title2)
                        .accessibilityIdentifier(WalkAccessibilityIdentifiers.status)
                    if let distance = screen.distance {
                        Text(verbatim: distance)
                            .accessibilityIdentifier(WalkAccessibilityIdentifiers.distance)
                    }
                    if let steps = screen.steps {
                        Text(verbatim: steps)
                            .accessibilityIdentifier(WalkAccessibilityIdentifiers.steps)
                    }
                    if let notice = screen.notice {
                        Text(verbatim: notice)
                            .font(.footnote)
                            .foregroundStyle(.secondary)
                            .accessibilityIdentifier(WalkAccessibilityIdentifiers.notice)
                    }
                    if let last = screen.lastWalk {
                        Text(verbatim: last)
                            .accessibilityIdentifier(WalkAccessibilityIdentifiers.lastWalk)
                    }
                    if let health = screen.health {
                        Text(verbatim: health)
                            .font(.footnote)
                            .accessibilityIdentifier(WalkAccessibilityIdentifiers.health)
                    }
                    Spacer()
                    HStack {
                        ForEach(screen.controls, id: \.self) { control in
                            Button(screen.controlTitles[control] ?? control.rawValue) { perform(control) }
                                .buttonStyle(.borderedProminent)
                                .accessibilityIdentifier(WalkAccessibilityIdentifiers.control(control))
                        }
                    }
                }
                .padding()
                .navigationTitle(screen.title)
                .toolbar {
                    Button(screen.permissionsButton) { app.openPermissions() }
                        .accessibilityIdentifier(WalkAccessibilityIdentifiers.permissions)
                }
            }
        }

        private func perform(_ control: WalkScreen.Control) {
            switch control {
            case .start: app.startWalk()
            case .pause: app.pauseWalk()
            case .resume: app.resumeWalk()
            case .end: app.endWalk()
            }
        }
    }
#endif
