import PetServer
import PetSpotDomain
import Testing

@Suite struct GreatCircleTests {
    @Test func givenPointsEitherSideOfAntimeridian_whenMeasured_thenAbout22KmApart() throws {
        let distance = GreatCircle.distanceKm(
            try GeoCoordinate(latitude: 0, longitude: 179.9), try GeoCoordinate(latitude: 0, longitude: -179.9))
        #expect(abs(distance - 22.239) < 0.01)
    }

    @Test func givenPointsAcrossNorthPole_whenMeasured_thenDistanceGoesOverThePole() throws {
        let distance = GreatCircle.distanceKm(
            try GeoCoordinate(latitude: 89.9, longitude: 0), try GeoCoordinate(latitude: 89.9, longitude: 180))
        #expect(abs(distance - 22.239) < 0.01)
    }

    @Test func givenWarsawAndBerlin_whenMeasured_thenKnownDistance() throws {
        let distance = GreatCircle.distanceKm(
            try GeoCoordinate(latitude: 52.23, longitude: 21.01), try GeoCoordinate(latitude: 52.52, longitude: 13.40))
        #expect(abs(distance - 518) < 3)
    }

    @Test func givenAntipodes_whenMeasured_thenHalfTheCircumference() throws {
        let distance = GreatCircle.distanceKm(
            try GeoCoordinate(latitude: 10, longitude: 20), try GeoCoordinate(latitude: -10, longitude: -160))
        #expect(abs(distance - .pi * GreatCircle.earthRadiusKm) < 0.001)
    }
}
