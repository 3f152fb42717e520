#if canImport(SwiftUI)
    import Localization
    import PetSpotDomain
    import StartupFeature
    import SwiftUI

    /// The place picker: a field, then the suggestions for what it holds, or why none show. Every
    /// keystroke goes to ``PlacePickerModel`` (through `text`), which debounces and keeps the last
    /// answer; this view only shows it.
    struct PlacePickerView: View {
        let picker: PlacePickerModel
        @Binding var text: String
        let localizer: Localizer
        let choose: @MainActor (Place) -> Void
        let close: @MainActor () -> Void

        var body: some View {
            NavigationStack {
                ScrollView {
                    VStack(alignment: .leading, spacing: 12) {
                        TextField(L10n.text(.placeSearchPlaceholder, localizer), text: $text)
                            .accessibilityIdentifier(AccessibilityIdentifiers.Place.searchField)
                        if picker.status == .failed {
                            Text(verbatim: L10n.text(.placeSearchFailed, localizer))
                                .font(.footnote)
                                .accessibilityIdentifier(AccessibilityIdentifiers.Place.failed)
                        } else if picker.foundNothing {
                            Text(verbatim: L10n.text(.placeSearchNoResults, localizer))
                                .font(.footnote)
                                .accessibilityIdentifier(AccessibilityIdentifiers.Place.noResults)
                        }
                        ForEach(picker.suggestions, id: \.id) { place in
                            // The name as the server gives it, its country in the person's language:
                            // VoiceOver reads "Lyon, France" (in Polish "Lyon, Francja").
                            Button(L10n.placeSuggestion(place, localizer)) { choose(place) }
                                .accessibilityIdentifier(AccessibilityIdentifiers.Place.suggestion(id: place.id))
                        }
                        if !picker.suggestions.isEmpty {
                            Text(verbatim: L10n.text(.placeAttribution, localizer))
                                .font(.footnote)
                                .accessibilityIdentifier(AccessibilityIdentifiers.Place.attribution)
                        }
                    }
                    .padding()
                }
                .toolbar {
                    Button(L10n.text(.placeSearchCloseButton, localizer)) { close() }
                        .accessibilityIdentifier(AccessibilityIdentifiers.Place.close)
                }
            }
            .accessibilityIdentifier(AccessibilityIdentifiers.Place.picker)
        }
    }
#endif
