import PetSpotDomain
import Testing

@Suite struct LocationPermissionStatusTests {
    @Test func givenEachCLAuthorizationRawValue_whenMapped_thenTheMatchingStatus() {
        #expect(LocationPermissionStatus(rawAuthorizationStatus: 0) == .notDetermined)
        #expect(LocationPermissionStatus(rawAuthorizationStatus: 1) == .restricted)
        #expect(LocationPermissionStatus(rawAuthorizationStatus: 2) == .denied)
        #expect(LocationPermissionStatus(rawAuthorizationStatus: 3) == .authorizedAlways)
        #expect(LocationPermissionStatus(rawAuthorizationStatus: 4) == .authorizedWhenInUse)
    }

    @Test(arguments: [Int32(-1), 5, 99, .max])
    func givenUnknownRawValue_whenMapped_thenNotDetermined(raw: Int32) {
        #expect(LocationPermissionStatus(rawAuthorizationStatus: raw) == .notDetermined)
    }

    @Test func givenEveryStatus_whenRoundTrippedThroughItsRawValue_thenUnchanged() {
        for status in LocationPermissionStatus.allCases {
            #expect(LocationPermissionStatus(rawAuthorizationStatus: status.rawAuthorizationStatus) == status)
        }
    }

    @Test func givenEachStatus_whenAskedIfAuthorized_thenOnlyTheTwoGrantsAre() {
        let authorized = LocationPermissionStatus.allCases.filter(\.isAuthorized)
        #expect(Set(authorized) == [.authorizedWhenInUse, .authorizedAlways])
    }

    @Test func givenRawAccuracyValues_whenMapped_thenZeroIsFullAndAnythingElseReduced() {
        #expect(LocationAccuracyAuthorization(rawAccuracyAuthorization: 0) == .fullAccuracy)
        #expect(LocationAccuracyAuthorization(rawAccuracyAuthorization: 1) == .reducedAccuracy)
        #expect(LocationAccuracyAuthorization(rawAccuracyAuthorization: 7) == .reducedAccuracy)
    }
}
