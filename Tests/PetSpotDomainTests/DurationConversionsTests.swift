import PetSpotDomain
import Testing

@Suite struct DurationConversionsTests {
    @Test func givenDurationWithFraction_whenConverted_thenSecondsMillisecondsAndWholeMillisecondsAgree() {
        let duration = Duration.seconds(2) + .microseconds(345_678)
        #expect(abs(duration.timeInterval - 2.345_678) < 1e-12)
        #expect(abs(duration.milliseconds - 2_345.678) < 1e-9)
        #expect(duration.wholeMilliseconds == 2_345)
    }

    @Test func givenDurations_whenWrittenAsSeconds_thenThreeDecimalsAndASignWhenNegative() {
        #expect((Duration.seconds(1) + .milliseconds(200)).secondsText == "1.200s")
        #expect(Duration.milliseconds(5).secondsText == "0.005s")
        #expect((Duration.zero - .milliseconds(50)).secondsText == "-0.050s")
        #expect(Duration.seconds(62).secondsText == "62.000s")
    }

    @Test func givenNegativeDuration_whenConvertedToWholeMilliseconds_thenFractionDroppedTowardZero() {
        let duration = Duration.zero - .milliseconds(1_500) - .microseconds(900)
        #expect(duration.wholeMilliseconds == -1_500)
        #expect(abs(duration.timeInterval + 1.500_9) < 1e-12)
    }
}
