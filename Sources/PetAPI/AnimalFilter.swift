import PetSpotDomain

/// Which pets a listing keeps: each set names the values allowed, and an empty set allows every value.
/// A pet is kept when it passes every set.
public struct AnimalFilter: Sendable, Equatable, Hashable {
    public var species: Set<Animal.Species>
    public var sexes: Set<Animal.Sex>
    public var ageBands: Set<AgeBand>

    public init(species: Set<Animal.Species> = [], sexes: Set<Animal.Sex> = [], ageBands: Set<AgeBand> = []) {
        self.species = species
        self.sexes = sexes
        self.ageBands = ageBands
    }

    /// True when the filter keeps every pet.
    public var keepsAll: Bool { species.isEmpty && sexes.isEmpty && ageBands.isEmpty }

    public func keeps(_ animal: Animal) -> Bool {
        keeps(species: animal.species, sex: animal.sex, ageMonths: animal.ageMonths)
    }

    public func keeps(species: Animal.Species, sex: Animal.Sex, ageMonths: Int) -> Bool {
        (self.species.isEmpty || self.species.contains(species))
            && (sexes.isEmpty || sexes.contains(sex))
            && (ageBands.isEmpty || ageBands.contains(AgeBand(ageMonths: ageMonths)))
    }
}

/// A pet's age as adoption listings name it, from its age in months as the shelter gave it.
public enum AgeBand: String, Sendable, Hashable, CaseIterable {
    /// Under 6 months.
    case baby
    /// 6 months to under 2 years.
    case young
    /// 2 years to under 8 years.
    case adult
    /// 8 years and older.
    case senior

    /// The ages in months the band holds (the last one is open-ended).
    public var months: Range<Int> {
        switch self {
        case .baby: 0..<6
        case .young: 6..<24
        case .adult: 24..<96
        case .senior: 96..<Int.max
        }
    }

    public init(ageMonths: Int) {
        self = switch ageMonths {
        case ..<6: .baby
        case ..<24: .young
        case ..<96: .adult
        default: .senior
        }
    }
}

/// The order of a listing.
public enum AnimalSort: String, Sendable, Hashable, CaseIterable {
    /// Nearest first, ties by id: the default with coordinates, and only with them.
    case distance
    /// Newest `publishedAt` first, ties by id: the default without coordinates.
    case recent
}
