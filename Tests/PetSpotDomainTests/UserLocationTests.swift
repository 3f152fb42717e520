import Foundation
import PetSpotDomain
import Testing

@Suite struct UserLocationTests {
    @Test func givenValidCoordinate_whenCreated_thenKeepsEveryField() throws {
        let date = Date(timeIntervalSince1970: 1000)
        let location = try UserLocation(latitude: 52.2297, longitude: 21.0122, horizontalAccuracy: 65, timestamp: date)
        #expect(location.latitude == 52.2297)
        #expect(location.longitude == 21.0122)
        #expect(location.horizontalAccuracy == 65)
        #expect(location.timestamp == date)
    }

    @Test(arguments: [-90.0, 90.0, 0.0])
    func givenLatitudeOnTheEdgeOfTheRange_whenCreated_thenAccepted(latitude: Double) throws {
        #expect(try UserLocation(latitude: latitude, longitude: 180).latitude == latitude)
        #expect(try UserLocation(latitude: latitude, longitude: -180).longitude == -180)
    }

    @Test(arguments: [Double.nan, .infinity, -.infinity, 90.0000001, -91, 1e300])
    func givenInvalidLatitude_whenCreated_thenRefusedNamingTheValue(latitude: Double) {
        #expect(throws: CoordinateError.self) { try UserLocation(latitude: latitude, longitude: 0) }
        do {
            _ = try UserLocation(latitude: latitude, longitude: 0)
        } catch {
            #expect(error.description.contains("latitude \(latitude)"))
        }
    }

    @Test(arguments: [Double.nan, .infinity, -.infinity, 180.5, -181])
    func givenInvalidLongitude_whenCreated_thenRefusedNamingTheValue(longitude: Double) {
        do {
            _ = try UserLocation(latitude: 0, longitude: longitude)
            Issue.record("accepted longitude \(longitude)")
        } catch {
            #expect(error == .longitudeOutOfRange(longitude) || longitude.isNaN)
            #expect(error.description.contains("longitude"))
        }
    }

    @Test(arguments: [-1.0, .nan, .infinity])
    func givenInvalidAccuracy_whenCreated_thenRefused(accuracy: Double) {
        #expect(throws: CoordinateError.self) {
            try UserLocation(latitude: 0, longitude: 0, horizontalAccuracy: accuracy)
        }
    }

    @Test func givenPreciseFix_whenRoundedToTwoDecimals_thenAboutOneKilometreOfPrecisionIsLeft() throws {
        let location = try UserLocation(latitude: 52.229_676, longitude: -21.012_229)
        let rounded = location.rounded(toDecimals: 2)
        #expect(rounded.latitude == 52.23)
        #expect(rounded.longitude == -21.01)
        #expect(rounded.timestamp == location.timestamp)
    }

    @Test func givenFixNearTheEdge_whenRounded_thenStaysWithinRange() throws {
        let location = try UserLocation(latitude: 89.999, longitude: 179.999)
        let rounded = location.rounded(toDecimals: 2)
        #expect(rounded.latitude == 90)
        #expect(rounded.longitude == 180)
    }
}
