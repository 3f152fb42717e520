import PetAPI
import PetSpotDomain

extension AnimalFilter {
    /// The filter as an SQL condition over the columns `species`, `sex` and `age_months` that SQLite and
    /// PostgreSQL read alike; nil when it keeps every pet.
    ///
    /// Values are written into the text, not bound: each is an enum's raw value (lower-case letters) or a
    /// band's bound in months, never text from the request.
    var sqlCondition: String? {
        var terms: [String] = []
        func quoted<Value: RawRepresentable>(_ values: some Sequence<Value>) -> String where Value.RawValue == String {
            values.map { "'\($0.rawValue)'" }.joined(separator: ", ")
        }
        if !species.isEmpty { terms.append("species IN (\(quoted(Animal.Species.allCases.filter(species.contains))))") }
        if !sexes.isEmpty { terms.append("sex IN (\(quoted(Animal.Sex.allCases.filter(sexes.contains))))") }
        if !ageBands.isEmpty {
            // By the same bounds as ``AgeBand/init(ageMonths:)``: the first band has no lower one.
            let ranges = AgeBand.allCases.filter(ageBands.contains).map { band in
                switch (band.months.lowerBound, band.months.upperBound) {
                case (_, Int.max): "age_months >= \(band.months.lowerBound)"
                case (AgeBand.allCases[0].months.lowerBound, let upper): "age_months < \(upper)"
                case let (lower, upper): "(age_months >= \(lower) AND age_months < \(upper))"
                }
            }
            terms.append("(" + ranges.joined(separator: " OR ") + ")")
        }
        return terms.isEmpty ? nil : terms.joined(separator: " AND ")
    }

    /// Every combination of species, sex and age band as one number below ``traitCombinations``, so that
    /// a filter is a set of bits (``traitMask``) and a stored position carries one byte for all three.
    static func traits(species: Animal.Species, sex: Animal.Sex, ageMonths: Int) -> UInt8 {
        let speciesIndex = Animal.Species.allCases.firstIndex(of: species) ?? 0
        let sexIndex = Animal.Sex.allCases.firstIndex(of: sex) ?? 0
        let bandIndex = AgeBand.allCases.firstIndex(of: AgeBand(ageMonths: ageMonths)) ?? 0
        return UInt8((speciesIndex * Animal.Sex.allCases.count + sexIndex) * AgeBand.allCases.count + bandIndex)
    }

    static let traitCombinations = Animal.Species.allCases.count * Animal.Sex.allCases.count * AgeBand.allCases.count

    /// The traits of a row whose species or sex is none of ours (written by hand, say): no filter
    /// keeps it, as no SQL condition does; only the unfiltered listing counts it. Above every
    /// combination, which must stay fewer than 64 for a mask to hold them.
    static let unknownTraits: UInt8 = 63

    /// Bit `traits` is set for each combination the filter keeps; every bit when it keeps every pet.
    var traitMask: UInt64 {
        guard !keepsAll else { return .max }
        var mask: UInt64 = 0
        for species in Animal.Species.allCases {
            for sex in Animal.Sex.allCases {
                for band in AgeBand.allCases where keeps(species: species, sex: sex, ageMonths: band.months.lowerBound) {
                    mask |= 1 << UInt64(Self.traits(species: species, sex: sex, ageMonths: band.months.lowerBound))
                }
            }
        }
        return mask
    }
}

extension AnimalFilter {
    /// An SQL expression giving a row's ``traits(species:sex:ageMonths:)`` from its columns, so that an
    /// index reads one integer per row instead of two strings.
    static let traitsSQL: String = {
        func index<Value: RawRepresentable & CaseIterable>(_ column: String, _: Value.Type) -> String where Value.RawValue == String {
            "CASE \(column) " + Value.allCases.enumerated().map { "WHEN '\($1.rawValue)' THEN \($0)" }.joined(separator: " ") + " ELSE 0 END"
        }
        let band = "CASE " + AgeBand.allCases.enumerated().dropLast().map { offset, band in
            "WHEN age_months < \(band.months.upperBound) THEN \(offset)"
        }.joined(separator: " ") + " ELSE \(AgeBand.allCases.count - 1) END"
        func known<Value: RawRepresentable & CaseIterable>(_ column: String, _: Value.Type) -> String where Value.RawValue == String {
            "\(column) IN (" + Value.allCases.map { "'\($0.rawValue)'" }.joined(separator: ", ") + ")"
        }
        return "CASE WHEN \(known("species", Animal.Species.self)) AND \(known("sex", Animal.Sex.self)) THEN "
            + "((\(index("species", Animal.Species.self))) * \(Animal.Sex.allCases.count) + (\(index("sex", Animal.Sex.self))))"
            + " * \(AgeBand.allCases.count) + (\(band)) ELSE \(unknownTraits) END"
    }()
}
