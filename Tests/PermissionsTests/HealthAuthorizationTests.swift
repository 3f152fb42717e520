import DeviceInterfaces
import Permissions
import Testing

@Suite struct HealthAuthorizationTests {
    private func state(
        _ write: [HealthDataType: HealthShareStatus],
        _ request: HealthRequestStatus,
        available: Bool = true
    ) -> PermissionState {
        HealthAuthorization(isAvailable: available, writeStatus: write, requestStatus: request).permissionState
    }

    @Test func givenNoHealthData_whenMapped_thenUnavailable() {
        #expect(state([.workout: .sharingAuthorized], .unnecessary, available: false) == .unavailable)
    }

    @Test func givenASheetWouldAppear_whenMapped_thenNotDeterminedEvenWithSomeWritesAllowed() {
        #expect(state([.workout: .sharingAuthorized], .shouldRequest) == .notDetermined)
    }

    @Test func givenAnUndecidedWriteType_whenMapped_thenNotDetermined() {
        #expect(state([.workout: .sharingAuthorized, .workoutRoute: .notDetermined], .unknown) == .notDetermined)
    }

    @Test func givenSomeWritesAllowed_whenMapped_thenAuthorized() {
        #expect(state([.workout: .sharingAuthorized, .workoutRoute: .sharingDenied], .unnecessary) == .authorized)
    }

    @Test func givenEveryWriteDenied_whenMapped_thenDenied() {
        #expect(state([.workout: .sharingDenied, .workoutRoute: .sharingDenied], .unnecessary) == .denied)
    }

    @Test func givenReadOnlyRequest_whenMapped_thenAuthorizedOnlyMeansAsked() {
        #expect(state([:], .shouldRequest) == .notDetermined)
        #expect(state([:], .unnecessary) == .authorized)
        #expect(state([:], .unknown) == .notDetermined)
    }
}
