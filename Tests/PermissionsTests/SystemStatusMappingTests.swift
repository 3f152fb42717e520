import DeviceInterfaces
import Permissions
import Testing

/// Raw values of CMAuthorizationStatus, CMError, HKAuthorizationStatus and HKAuthorizationRequestStatus.
@Suite struct SystemStatusMappingTests {
    @Test func givenCMAuthorizationStatusRawValues_whenMapped_thenRoundTrip() {
        let expected: [(Int, MotionAuthorizationStatus)] = [(0, .notDetermined), (1, .restricted), (2, .denied), (3, .authorized)]
        for (raw, status) in expected {
            #expect(MotionAuthorizationStatus(rawAuthorizationStatus: raw) == status)
            #expect(status.rawAuthorizationStatus == raw)
        }
        #expect(MotionAuthorizationStatus(rawAuthorizationStatus: 99) == .notDetermined)
    }

    @Test func givenCMErrorCodes_whenNamed_thenTheyAre104To106() {
        #expect(MotionActivityError.notAvailable.code == 104)
        #expect(MotionActivityError.notAuthorized.code == 105)
        #expect(MotionActivityError.notEntitled.code == 106)
        #expect(MotionActivityError(code: 7).description == "CMError 7")
    }

    @Test func givenMotionStatusWithoutCoprocessor_whenMapped_thenUnavailableWhateverTheStatus() {
        for status in MotionAuthorizationStatus.allCases {
            #expect(status.permissionState(isActivityAvailable: false) == .unavailable)
        }
    }

    @Test func givenHKAuthorizationStatusRawValues_whenMapped_thenRoundTrip() {
        let expected: [(Int, HealthShareStatus)] = [(0, .notDetermined), (1, .sharingDenied), (2, .sharingAuthorized)]
        for (raw, status) in expected {
            #expect(HealthShareStatus(rawAuthorizationStatus: raw) == status)
            #expect(status.rawAuthorizationStatus == raw)
        }
        #expect(HealthShareStatus(rawAuthorizationStatus: -1) == .notDetermined)
    }

    @Test func givenHKAuthorizationRequestStatusRawValues_whenMapped_thenRoundTrip() {
        let expected: [(Int, HealthRequestStatus)] = [(0, .unknown), (1, .shouldRequest), (2, .unnecessary)]
        for (raw, status) in expected {
            #expect(HealthRequestStatus(rawRequestStatus: raw) == status)
            #expect(status.rawRequestStatus == raw)
        }
        #expect(HealthRequestStatus(rawRequestStatus: 5) == .unknown)
    }
}
