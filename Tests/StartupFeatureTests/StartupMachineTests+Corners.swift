import AsyncSupport
import DeviceInterfaces
import PetSpotDomain
import StartupFeature
import Testing
import TestSupport

/// The corners of a session: a revocation racing the fix, pull to refresh, a grant that lapses,
/// nobody nearby, and the popup's three causes.
extension StartupMachineTests {
    /// An authorized session whose query near Warsaw is in flight.
    func queryingNearWarsaw() -> State {
        var state = State()
        _ = StartupMachine.step(&state, .screenAppeared).effects
        _ = StartupMachine.step(&state, .statusChecked(.authorizedWhenInUse)).effects
        _ = StartupMachine.step(&state, .locationResult(Fixtures.warsaw)).effects
        return state
    }

    /// An authorized session showing the listing near Warsaw.
    func listedNearby() -> State {
        var state = queryingNearWarsaw()
        _ = StartupMachine.step(&state, .animalsLoaded(Fixtures.animals)).effects
        return state
    }

    func roundTripToBackground(_ state: inout State) {
        _ = StartupMachine.step(&state, .scenePhaseChanged(.inactive)).effects
        _ = StartupMachine.step(&state, .scenePhaseChanged(.background)).effects
    }

    // iOS's alert goes away unanswered when the app leaves the foreground: asked again on return.
    @Test func givenIOSAlertUp_whenTheAppLeavesAndReturns_thenIOSIsAskedAgain() {
        var state = State()
        _ = StartupMachine.step(&state, .screenAppeared).effects
        _ = StartupMachine.step(&state, .statusChecked(.notDetermined)).effects
        _ = StartupMachine.step(&state, .animalsLoaded(Fixtures.animals)).effects
        _ = StartupMachine.step(&state, .authorizationAnswered(.notDetermined)).effects  // the bounded wait ended
        roundTripToBackground(&state)
        _ = StartupMachine.step(&state, .scenePhaseChanged(.inactive)).effects
        #expect(StartupMachine.step(&state, .scenePhaseChanged(.active)).effects == [.checkStatus])
        // The listing without coordinates already shows: only the alert comes back.
        step(&state, .statusChecked(.notDetermined), effects: [.requestAuthorization]) {
            $0.needsAuthorizationRequest = false
            $0.isAwaitingAuthorizationAnswer = true
        }
        step(&state, .authorizationAnswered(.authorizedWhenInUse), effects: [.requestLocation]) {
            $0.isAwaitingAuthorizationAnswer = false
            $0.permissionStatus = .authorizedWhenInUse
            $0.activity = .locating
        }
    }

    // A first check made while the app was inactive ran the query without coordinates already:
    // becoming active brings iOS's alert, not that query a second time.
    @Test func givenFirstCheckWhileInactive_whenTheAppBecomesActive_thenOnlyTheAlertFollows() {
        var state = State()
        _ = StartupMachine.step(&state, .screenAppeared).effects
        _ = StartupMachine.step(&state, .scenePhaseChanged(.inactive)).effects
        #expect(StartupMachine.step(&state, .statusChecked(.notDetermined)).effects == [.fetchAnimals(near: nil)])
        _ = StartupMachine.step(&state, .animalsLoaded(Fixtures.animals)).effects
        step(&state, .scenePhaseChanged(.active), effects: [.requestAuthorization]) {
            $0.scenePhase = .active
            $0.needsAuthorizationRequest = false
            $0.isAwaitingAuthorizationAnswer = true
        }
    }

    // The same while that query still runs: the alert comes when it ends, and no second query.
    @Test func givenFirstCheckWhileInactiveAndItsQueryRunning_whenActiveThenLoaded_thenOnlyTheAlertFollows() {
        var state = State()
        _ = StartupMachine.step(&state, .screenAppeared).effects
        _ = StartupMachine.step(&state, .scenePhaseChanged(.inactive)).effects
        _ = StartupMachine.step(&state, .statusChecked(.notDetermined)).effects
        #expect(StartupMachine.step(&state, .scenePhaseChanged(.active)).effects == [])
        #expect(StartupMachine.step(&state, .animalsLoaded(Fixtures.animals)).effects == [.requestAuthorization])
    }

    // The "nobody nearby" notice speaks of a location: once it is not allowed any more, the plain
    // listing without coordinates comes with iOS's alert.
    @Test func givenNobodyNearbyFallback_whenAllowOnceLapsesWhileActive_thenAskedWithThePlainListing() {
        var state = queryingNearWarsaw()
        _ = StartupMachine.step(&state, .animalsLoaded([])).effects
        _ = StartupMachine.step(&state, .animalsLoaded(Fixtures.animals)).effects
        #expect(state.listing?.isFallbackForNothingNearby == true)
        #expect(StartupMachine.step(&state, .statusChanged(.notDetermined)).effects == [.requestAuthorization, .fetchAnimals(near: nil)])
    }

    // A failed load leaves the listing without coordinates stale: asking again loads it again.
    @Test func givenAFailedRetryOverTheListingWithoutLocation_whenAskNextTimeIsChosen_thenAskedAndLoaded() {
        var state = State()
        _ = StartupMachine.step(&state, .screenAppeared).effects
        _ = StartupMachine.step(&state, .statusChecked(.denied)).effects
        _ = StartupMachine.step(&state, .popupCancelTapped).effects
        _ = StartupMachine.step(&state, .animalsLoaded(Fixtures.animals)).effects
        _ = StartupMachine.step(&state, .retryTapped).effects
        _ = StartupMachine.step(&state, .animalsFailed("offline")).effects
        #expect(StartupMachine.step(&state, .statusChanged(.notDetermined)).effects == [.requestAuthorization, .fetchAnimals(near: nil)])
    }

    // Location Services came back on while this app stays denied: the popup's text changes, logged.
    @Test func givenServicesOffPopup_whenServicesComeBackWhileDenied_thenThePopupSaysDeniedInTheLog() {
        var state = State()
        _ = StartupMachine.step(&state, .screenAppeared).effects
        _ = StartupMachine.step(&state, .statusChecked(.denied, locationServicesEnabled: false)).effects
        _ = StartupMachine.step(&state, .animalsLoaded(Fixtures.animals)).effects
        let step = StartupMachine.step(&state, .statusChecked(.denied, locationServicesEnabled: true))
        #expect(state.popup == .denied)
        #expect(step.log == [.permissionChecked(.denied), .customPopupChanged(reason: .denied)])
    }

    // US4-4: the revocation came while the fix was on its way; the fix is not used.
    @Test func givenLocating_whenRevokedBeforeTheFixArrives_thenTheQueryGoesWithoutCoordinates() {
        var state = State()
        _ = StartupMachine.step(&state, .screenAppeared).effects
        _ = StartupMachine.step(&state, .statusChecked(.authorizedWhenInUse)).effects
        step(&state, .statusChanged(.denied), effects: []) { $0.pendingStatus = .denied }

        step(&state, .locationResult(Fixtures.warsaw), effects: [.fetchAnimals(near: nil)]) {
            $0.activity = .querying(near: nil)
        }
        step(&state, .animalsLoaded(Fixtures.animals), effects: []) {
            $0.listing = .init(animals: Fixtures.animals, queriedNearLocation: false)
            $0.activity = .idle
            $0.permissionStatus = .denied
            $0.pendingStatus = nil
        }
    }

    // Pull to refresh re-reads the status, locates and queries near where the person is now.
    @Test func givenNearbyListing_whenRefreshRequested_thenStatusRereadLocatedAndQueriedAgain() {
        var state = listedNearby()
        step(&state, .refreshRequested, effects: [.checkStatus]) { $0.activity = .checkingStatus }
        step(&state, .statusChecked(.authorizedWhenInUse), effects: [.requestLocation]) { $0.activity = .locating }
        let sent = Fixtures.krakow.rounded(toDecimals: 2)
        step(&state, .locationResult(Fixtures.krakow), effects: [.fetchAnimals(near: sent)]) {
            $0.currentLocation = Fixtures.krakow
            $0.activity = .querying(near: sent)
        }
    }

    // A refresh only loads: a denied person gets the listing again, and no second popup.
    @Test func givenDeniedAndPopupDismissed_whenRefreshRequested_thenQueryWithoutCoordinatesAndNoPopup() {
        var state = State()
        _ = StartupMachine.step(&state, .screenAppeared).effects
        _ = StartupMachine.step(&state, .statusChecked(.denied)).effects
        _ = StartupMachine.step(&state, .popupCancelTapped).effects
        _ = StartupMachine.step(&state, .animalsLoaded(Fixtures.animals)).effects
        step(&state, .refreshRequested, effects: [.checkStatus]) { $0.activity = .checkingStatus }
        step(&state, .statusChecked(.denied), effects: [.fetchAnimals(near: nil)]) { $0.activity = .querying(near: nil) }
    }

    // FR-015: one step at a time; a pull while a load runs adds nothing.
    @Test func givenLoadRunning_whenRefreshRequested_thenNothingMoreStarts() {
        var state = State()
        _ = StartupMachine.step(&state, .screenAppeared).effects
        _ = StartupMachine.step(&state, .statusChecked(.authorizedWhenInUse)).effects
        step(&state, .refreshRequested, effects: [])
    }

    // An authorized person whose listing had to do without their location gets it on their return.
    @Test func givenAuthorizedListingWithoutLocation_whenTheAppReturnsFromTheBackground_thenItLocatesAndQueriesAgain() {
        var state = State()
        _ = StartupMachine.step(&state, .screenAppeared).effects
        _ = StartupMachine.step(&state, .statusChecked(.authorizedWhenInUse)).effects
        _ = StartupMachine.step(&state, .locationResult(nil)).effects  // no fix in time
        _ = StartupMachine.step(&state, .animalsLoaded(Fixtures.animals)).effects
        roundTripToBackground(&state)
        _ = StartupMachine.step(&state, .scenePhaseChanged(.inactive)).effects

        step(&state, .scenePhaseChanged(.active), effects: [.checkStatus]) {
            $0.scenePhase = .active
            $0.hasBeenInBackground = false
            $0.activity = .checkingStatus
        }
        step(&state, .statusChecked(.authorizedWhenInUse), effects: [.requestLocation]) { $0.activity = .locating }
    }

    // The located listing stays as it is on a return; only the status is re-read (FR-011).
    @Test func givenNearbyListing_whenTheAppReturnsFromTheBackground_thenOnlyTheStatusIsRechecked() {
        var state = listedNearby()
        roundTripToBackground(&state)
        _ = StartupMachine.step(&state, .scenePhaseChanged(.inactive)).effects
        step(&state, .scenePhaseChanged(.active), effects: [.checkStatus]) {
            $0.scenePhase = .active
            $0.hasBeenInBackground = false
        }
        step(&state, .statusChecked(.authorizedWhenInUse), effects: [])
    }

    enum LapseReport: CaseIterable {
        /// iOS reports the lapse while the app is in the background.
        case whileInBackground
        /// iOS reports it on the return, as the re-check's answer.
        case onTheReturnCheck
    }

    // Rule 5: an Allow Once grant lapsed; the app is active again: iOS is asked again, the listing
    // without coordinates comes at once behind the alert, and "Allow" brings the listing nearby.
    @Test(arguments: LapseReport.allCases)
    func givenAllowOnceLapsedInTheBackground_whenTheAppIsActiveAgain_thenIOSIsAskedAgainAsOnAFirstLaunch(report: LapseReport) {
        var state = listedNearby()
        roundTripToBackground(&state)
        if report == .whileInBackground {
            step(&state, .statusChanged(.notDetermined), effects: []) {  // no alert for a background app
                $0.permissionStatus = .notDetermined
                $0.currentLocation = nil
                $0.needsAuthorizationRequest = true
            }
        }
        _ = StartupMachine.step(&state, .scenePhaseChanged(.inactive)).effects
        #expect(StartupMachine.step(&state, .scenePhaseChanged(.active)).effects == [.checkStatus])

        step(&state, .statusChecked(.notDetermined), effects: [.requestAuthorization, .fetchAnimals(near: nil)]) {
            $0.permissionStatus = .notDetermined
            $0.currentLocation = nil
            $0.needsAuthorizationRequest = false
            $0.isAwaitingAuthorizationAnswer = true
            $0.activity = .querying(near: nil)
        }
        _ = StartupMachine.step(&state, .animalsLoaded(Fixtures.animals)).effects
        step(&state, .authorizationAnswered(.authorizedWhenInUse), effects: [.requestLocation]) {
            $0.isAwaitingAuthorizationAnswer = false
            $0.permissionStatus = .authorizedWhenInUse
            $0.activity = .locating
        }
    }

    // "Ask Next Time" in Settings, seen while the app is active: asked at once. The listing without
    // coordinates already shows, so it is not asked for again.
    @Test func givenDeniedSession_whenTheStatusGoesBackToNotDeterminedWhileActive_thenIOSIsAskedAtOnce() {
        var state = State()
        _ = StartupMachine.step(&state, .screenAppeared).effects
        _ = StartupMachine.step(&state, .statusChecked(.denied)).effects
        _ = StartupMachine.step(&state, .popupCancelTapped).effects
        _ = StartupMachine.step(&state, .animalsLoaded(Fixtures.animals)).effects
        step(&state, .statusChanged(.notDetermined), effects: [.requestAuthorization]) {
            $0.permissionStatus = .notDetermined
            $0.isAwaitingAuthorizationAnswer = true
        }
    }

    // A located listing is never empty while there are pets: nobody within the radius → the newest
    // everywhere, marked so that the screen says why.
    @Test func givenQueryNearThePerson_whenNobodyIsWithinTheRadius_thenTheListingWithoutCoordinatesFollowsAndSaysSo() {
        var state = queryingNearWarsaw()
        step(&state, .animalsLoaded([]), effects: [.fetchAnimals(near: nil)]) {
            $0.activity = .queryingFallbackForNothingNearby
        }
        step(&state, .animalsLoaded(Fixtures.animals), effects: []) {
            $0.listing = .init(animals: Fixtures.animals, queriedNearLocation: false, isFallbackForNothingNearby: true)
            $0.activity = .idle
        }
        #expect(state.currentLocation == Fixtures.warsaw)  // still allowed and known; the next refresh uses it
    }

    // With no pets at all, the fallback is empty too, and so is the listing: nothing is hidden.
    @Test func givenNobodyNearby_whenTheFallbackFindsNobodyEither_thenTheListingIsEmpty() {
        var state = queryingNearWarsaw()
        _ = StartupMachine.step(&state, .animalsLoaded([])).effects
        step(&state, .animalsLoaded([]), effects: []) {
            $0.listing = .init(animals: [], queriedNearLocation: false, isFallbackForNothingNearby: true)
            $0.activity = .idle
        }
    }

    // FR-004: the popup names its cause; with Location Services off iOS reports `.denied` (rule 7).
    @Test(arguments: [
        (LocationPermissionStatus.denied, true, PermissionPopupReason.denied),
        (.restricted, true, .restricted),
        (.denied, false, .locationServicesOff),
    ])
    func givenFirstCheck_whenTheStatusIsNotAllowed_thenThePopupSaysWhy(
        status: LocationPermissionStatus, servicesOn: Bool, reason: PermissionPopupReason
    ) {
        var state = State()
        _ = StartupMachine.step(&state, .screenAppeared).effects
        step(&state, .statusChecked(status, locationServicesEnabled: servicesOn), effects: [.fetchAnimals(near: nil)]) {
            $0.permissionStatus = status
            $0.hasCheckedStatus = true
            $0.popup = reason
            $0.activity = .querying(near: nil)
        }
    }
}

extension StartupMachineTests {
    // The popup says what is true: "Ask Next Time" in Settings makes the denied popup false, so it closes
    // before iOS's alert is shown.
    @Test func givenDeniedPopupUp_whenTheStatusGoesBackToNotDetermined_thenThePopupClosesBeforeIOSAsks() {
        var state = State()
        _ = StartupMachine.step(&state, .screenAppeared).effects
        _ = StartupMachine.step(&state, .statusChecked(.denied)).effects
        _ = StartupMachine.step(&state, .animalsLoaded(Fixtures.animals)).effects
        step(&state, .statusChanged(.notDetermined), effects: [.requestAuthorization]) {
            $0.popup = nil
            $0.permissionStatus = .notDetermined
            $0.isAwaitingAuthorizationAnswer = true
        }
    }

    // Location Services back on while the app itself stays denied: the popup now names the app's own setting.
    @Test func givenServicesOffPopupUp_whenARecheckFindsServicesOnAndTheAppDenied_thenThePopupSaysDenied() {
        var state = State()
        _ = StartupMachine.step(&state, .screenAppeared).effects
        _ = StartupMachine.step(&state, .statusChecked(.denied, locationServicesEnabled: false)).effects
        _ = StartupMachine.step(&state, .animalsLoaded(Fixtures.animals)).effects
        step(&state, .statusChecked(.denied, locationServicesEnabled: true), effects: []) { $0.popup = .denied }
    }

    // A lapse seen in the background, then "While Using" chosen in Settings before the return: the grant
    // is applied (located and queried), not swallowed by the pending request to ask again.
    @Test func givenLapseSeenInTheBackground_whenGrantedInSettingsBeforeTheReturn_thenItLocates() {
        var state = listedNearby()
        roundTripToBackground(&state)
        _ = StartupMachine.step(&state, .statusChanged(.notDetermined)).effects
        step(&state, .statusChanged(.authorizedWhenInUse), effects: [.requestLocation]) {
            $0.permissionStatus = .authorizedWhenInUse
            $0.needsAuthorizationRequest = false
            $0.activity = .locating
        }
    }

    // A listing near nobody is still a located one: a return to the app only re-checks the status.
    @Test func givenNobodyNearbyListing_whenTheAppReturnsFromTheBackground_thenOnlyTheStatusIsRechecked() {
        var state = queryingNearWarsaw()
        _ = StartupMachine.step(&state, .animalsLoaded([])).effects
        _ = StartupMachine.step(&state, .animalsLoaded(Fixtures.animals)).effects
        roundTripToBackground(&state)
        _ = StartupMachine.step(&state, .scenePhaseChanged(.inactive)).effects
        #expect(StartupMachine.step(&state, .scenePhaseChanged(.active)).effects == [.checkStatus])
    }
}
