#if canImport(SwiftUI)
    import PetSpotDomain
    import StartupFeature
    import SwiftUI

    /// One animal of the listing: name, kind, shelter and, when the query had a location, distance.
    struct AnimalRowView: View {
        let animal: Animal

        var body: some View {
            VStack(alignment: .leading, spacing: 4) {
                Text(animal.name)
                    .font(.headline)
                Text(verbatim: "\(animal.breed) · \(animal.shelter.name), \(animal.shelter.city)")
                    .font(.subheadline)
                    .foregroundStyle(.secondary)
                if let distance = animal.distanceKm {
                    Text(L10n.AnimalList.distance(kilometres: distance))
                        .font(.caption)
                        .foregroundStyle(.secondary)
                }
            }
        }
    }
#endif
