#if canImport(SwiftUI)
    import Foundation
    import Localization
    import PetSpotDomain
    import StartupFeature
    import SwiftUI

    /// One animal of the listing: name, kind, shelter and, when the query had a location, distance.
    /// VoiceOver reads it as one element: "Reksio, dog, 2.5 kilometres away".
    struct AnimalRowView: View {
        let animal: Animal
        let localizer: Localizer

        var body: some View {
            VStack(alignment: .leading, spacing: 4) {
                Text(verbatim: animal.name)
                    .font(.headline)
                Text(verbatim: L10n.rowDetail(animal, localizer))
                    .font(.subheadline)
                    .foregroundStyle(.secondary)
                if let distance = animal.distanceKm {
                    Text(verbatim: L10n.distance(Measurement(value: distance, unit: .kilometers), localizer))
                        .font(.caption)
                        .foregroundStyle(.secondary)
                }
            }
            .accessibilityElement(children: .ignore)
            .accessibilityLabel(L10n.rowAccessibilityLabel(animal, localizer))
        }
    }
#endif
