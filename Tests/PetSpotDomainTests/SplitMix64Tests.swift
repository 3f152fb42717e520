import PetSpotDomain
import Testing

@Suite struct SplitMix64Tests {
    @Test func givenSeedZero_whenDrawing_thenReferenceSequence() {
        // Reference values of SplitMix64 (Steele, Lea, Flood 2014) for seed 0.
        var random = SplitMix64(seed: 0)
        #expect(random.next() == 0xE220_A839_7B1D_CDAF)
        #expect(random.next() == 0x6E78_9E6A_A1B9_65F4)
        #expect(random.next() == 0x06C4_5D18_8009_454F)
    }

    @Test func givenAnySeed_whenDrawingUnits_thenAllInHalfOpenUnitInterval() {
        var random = SplitMix64(seed: 99)
        for _ in 0..<10_000 {
            let value = random.unit()
            #expect(value >= 0 && value < 1)
        }
    }
}
