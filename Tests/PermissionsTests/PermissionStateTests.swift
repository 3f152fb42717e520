import PetSpotDomain
import Permissions
import Testing

@Suite struct PermissionStateTests {
    @Test func givenEachState_whenAsked_thenOnlyAuthorizedIsAuthorizedAndOnlyNotDeterminedCanRequest() {
        for state in PermissionState.allCases {
            #expect(state.isAuthorized == (state == .authorized))
            #expect(state.canRequest == (state == .notDetermined))
        }
    }

    @Test func givenLocationStatuses_whenMapped_thenBothGrantsAreAuthorized() {
        #expect(PermissionState(LocationPermissionStatus.notDetermined) == .notDetermined)
        #expect(PermissionState(LocationPermissionStatus.authorizedWhenInUse) == .authorized)
        #expect(PermissionState(LocationPermissionStatus.authorizedAlways) == .authorized)
        #expect(PermissionState(LocationPermissionStatus.denied) == .denied)
        #expect(PermissionState(LocationPermissionStatus.restricted) == .restricted)
    }

    @Test func givenDeniedOrAuthorized_whenAskedAboutSettings_thenChangeableThereButNotWhenRestricted() {
        #expect(PermissionState.denied.isChangeableInSettings)
        #expect(PermissionState.authorized.isChangeableInSettings)
        #expect(!PermissionState.restricted.isChangeableInSettings)
        #expect(!PermissionState.unavailable.isChangeableInSettings)
    }
}
