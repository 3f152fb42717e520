import GRDB
import PetAPI
@testable import PetServer
import PetSpotDomain
import Testing

/// The one filter written three ways — ``AnimalFilter/keeps(_:)``, its SQL condition and its mask over
/// the position index's traits — must keep the same pets.
@Suite struct AnimalFilterSQLTests {
    private static let ages = [0, 5, 6, 23, 24, 95, 96, 600]

    @Test func givenEveryCombination_whenMadeTraits_thenEachHasItsOwnBitBelowTheUnknownOne() {
        var seen: Set<UInt8> = []
        for species in Animal.Species.allCases {
            for sex in Animal.Sex.allCases {
                for band in AgeBand.allCases {
                    seen.insert(AnimalFilter.traits(species: species, sex: sex, ageMonths: band.months.lowerBound))
                }
            }
        }
        #expect(seen.count == AnimalFilter.traitCombinations)
        #expect(seen.allSatisfy { $0 < AnimalFilter.unknownTraits })
    }

    @Test func givenRandomFilters_whenEveryRowIsCheckedInSQLiteAndInTheMask_thenBothAgreeWithKeeps() throws {
        let database = try DatabaseQueue()
        var random = SplitMix64(seed: 11)
        for _ in 0..<200 {
            let filter = AnimalFilter(
                species: Set(Animal.Species.allCases.filter { _ in random.index(2) == 0 }),
                sexes: Set(Animal.Sex.allCases.filter { _ in random.index(2) == 0 }),
                ageBands: Set(AgeBand.allCases.filter { _ in random.index(2) == 0 })
            )
            let species = Animal.Species.allCases[random.index(Animal.Species.allCases.count)]
            let sex = Animal.Sex.allCases[random.index(Animal.Sex.allCases.count)]
            let age = Self.ages[random.index(Self.ages.count)]
            let expected = filter.keeps(species: species, sex: sex, ageMonths: age)
            let row = "SELECT ? AS species, ? AS sex, ? AS age_months"
            let arguments: StatementArguments = [species.rawValue, sex.rawValue, age]
            let (traits, kept) = try database.read { db in
                let traits = try Int.fetchOne(db, sql: "SELECT \(AnimalFilter.traitsSQL) FROM (\(row))", arguments: arguments)
                let kept = try Bool.fetchOne(
                    db, sql: "SELECT \(filter.sqlCondition ?? "TRUE") FROM (\(row))", arguments: arguments
                )
                return (traits, kept)
            }
            #expect(traits == Int(AnimalFilter.traits(species: species, sex: sex, ageMonths: age)))
            #expect(kept == expected, "\(filter) \(species) \(sex) \(age)")
            #expect((filter.traitMask >> UInt64(traits ?? 0)) & 1 == (expected ? 1 : 0), "\(filter) \(species) \(sex) \(age)")
        }
    }

    @Test func givenARowWithASpeciesNoneOfOurs_whenMadeTraits_thenOnlyTheUnfilteredMaskKeepsIt() throws {
        let traits = try DatabaseQueue().read { db in
            try Int.fetchOne(db, sql: "SELECT \(AnimalFilter.traitsSQL) FROM (SELECT 'hamster' AS species, 'male' AS sex, 3 AS age_months)")
        }
        #expect(traits == Int(AnimalFilter.unknownTraits))
        #expect((AnimalFilter().traitMask >> UInt64(AnimalFilter.unknownTraits)) & 1 == 1)
        #expect((AnimalFilter(ageBands: [.baby]).traitMask >> UInt64(AnimalFilter.unknownTraits)) & 1 == 0)
    }
}
