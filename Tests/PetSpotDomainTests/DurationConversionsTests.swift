import PetSpotDomain
import Testing

@Suite struct DurationConversionsTests {
    @Test func givenDurationWithFraction_whenConverted_thenSecondsMillisecondsAndWholeMillisecondsAgree() {
        let duration = Duration.seconds(2) + .microseconds(345_678)
        #expect(abs(duration.timeInterval - 2.345_678) < 1e-12)
        #expect(abs(duration.milliseconds - 2_345.678) < 1e-9)
        #expect(duration.wholeMilliseconds == 2_345)
    }

    @Test func givenNegativeDuration_whenConvertedToWholeMilliseconds_thenFractionDroppedTowardZero() {
        let duration = Duration.zero - .milliseconds(1_500) - .microseconds(900)
        #expect(duration.wholeMilliseconds == -1_500)
        #expect(abs(duration.timeInterval + 1.500_9) < 1e-12)
    }
}
