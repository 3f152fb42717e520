import PetServer
import PetSpotDomain
import Testing

@Suite struct SearchBoxTests {
    @Test func givenMidLatitudeCenter_whenCovering_thenOneBoxContainingTheCircle() throws {
        let boxes = SearchBox.covering(center: try GeoCoordinate(latitude: 52.23, longitude: 21.01), radiusKm: 50)
        #expect(boxes.count == 1)
        let box = try #require(boxes.first)
        #expect(box.contains(lat: 52.23 + 50 / AnimalFixtures.kmPerDegree, lon: 21.01))
        #expect(box.maxLon - box.minLon < 2)
    }

    @Test func givenCenterNearAntimeridian_whenCovering_thenSplitIntoTwoBoxesOnEitherSide() throws {
        let boxes = SearchBox.covering(center: try GeoCoordinate(latitude: 0, longitude: 179.9), radiusKm: 50)
        #expect(boxes.count == 2)
        #expect(boxes.contains { $0.contains(lat: 0, lon: -179.9) })
        #expect(boxes.contains { $0.contains(lat: 0, lon: 179.5) })
        #expect(boxes.allSatisfy { $0.minLon >= -180 && $0.maxLon <= 180 && $0.minLon <= $0.maxLon })
    }

    @Test func givenCircleOverNorthPole_whenCovering_thenAllLongitudesUpToThePole() throws {
        let boxes = SearchBox.covering(center: try GeoCoordinate(latitude: 89.9, longitude: 20), radiusKm: 50)
        #expect(boxes == [SearchBox(minLat: boxes[0].minLat, maxLat: 90, minLon: -180, maxLon: 180)])
        #expect(boxes[0].minLat < 89.9 - 50 / AnimalFixtures.kmPerDegree)
    }

    @Test func givenCircleOverSouthPole_whenCovering_thenAllLongitudesDownToThePole() throws {
        let boxes = SearchBox.covering(center: try GeoCoordinate(latitude: -86, longitude: -30), radiusKm: 500)
        #expect(boxes.count == 1)
        #expect(boxes[0].minLat == -90)
        #expect(boxes[0].minLon == -180 && boxes[0].maxLon == 180)
    }
}
