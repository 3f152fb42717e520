import AsyncSupport
import CustomDump
import DeviceInterfaces
import IssueReportingTestSupport
import Localization
import PetSpotDomain
import StartupFeature
import Testing
import TestSupport

/// Choosing a place instead of sharing location: the machine's rules, then the picker's timing.
@Suite struct PlaceChoiceTests {
    typealias State = StartupMachine.State

    static let krakow = Place(
        id: "geonames:3094802", name: "Kraków", region: nil, countryCode: "PL",
        location: try! GeoCoordinate(latitude: 50.06, longitude: 19.94),
        population: 755_050, postalCode: nil, label: "Kraków, Poland"
    )
    static let lyon = Place(
        id: "geonames:2996944", name: "Lyon", region: nil, countryCode: "FR",
        location: try! GeoCoordinate(latitude: 45.75, longitude: 4.85),
        population: 522_969, postalCode: nil, label: "Lyon, France"
    )

    /// A denied session whose listing without location is on screen, the popup cancelled.
    private func deniedAndListed(chosen: Place? = nil) -> State {
        var state = State(chosenPlace: chosen)
        _ = StartupMachine.step(&state, .screenAppeared)
        _ = StartupMachine.step(&state, .statusChecked(.denied))
        _ = StartupMachine.step(&state, .popupCancelTapped)
        _ = StartupMachine.step(&state, .animalsLoaded(Fixtures.animals))
        return state
    }

    @Test func givenTheListingWithoutLocation_whenAPlaceIsChosen_thenItIsRememberedAndThePetsNearItAreAsked() {
        var state = deniedAndListed()
        let step = StartupMachine.step(&state, .placeChosen(Self.krakow))
        expectNoDifference(step.effects, [.rememberPlace(Self.krakow), .fetchAnimalsNearPlace(Self.krakow)])
        expectNoDifference(step.log, [.placeChosen(id: Self.krakow.id), .queryStarted(near: SentCoordinates(Self.krakow.queryLocation))])
        _ = StartupMachine.step(&state, .animalsLoaded([]))
        // Nobody near the place: the newest everywhere, said as for a person's location.
        #expect(state.activity == .queryingFallbackForNothingNearby)
    }

    @Test func givenARememberedPlace_whenDeniedAtLaunch_thenThePopupShowsAndTheQueryBehindItIsNearThePlace() {
        var state = State(chosenPlace: Self.lyon)
        _ = StartupMachine.step(&state, .screenAppeared)
        let step = StartupMachine.step(&state, .statusChecked(.denied))
        expectNoDifference(step.effects, [.fetchAnimalsNearPlace(Self.lyon)])
        #expect(state.popup == .denied)
        _ = StartupMachine.step(&state, .animalsLoaded(Fixtures.animals))
        #expect(state.listing?.place == Self.lyon && state.listing?.queriedNearLocation == false)
    }

    @Test func givenTheListingNearAPlace_whenCleared_thenForgottenAndTheListingWithoutLocationIsAsked() {
        var state = deniedAndListed(chosen: Self.lyon)
        let step = StartupMachine.step(&state, .placeCleared)
        expectNoDifference(step.effects, [.rememberPlace(nil), .fetchAnimals(near: nil)])
        expectNoDifference(step.log, [.placeCleared, .queryStarted(near: nil)])
        #expect(state.chosenPlace == nil)
        // Clearing again changes nothing.
        expectNoDifference(StartupMachine.step(&state, .placeCleared).effects, [])
    }

    // FR-015: never two queries at once; the place is applied when the running query ends.
    @Test func givenAQueryRunning_whenAPlaceIsChosen_thenItsQueryWaitsForTheRunningOne() {
        var state = State()
        _ = StartupMachine.step(&state, .screenAppeared)
        _ = StartupMachine.step(&state, .statusChecked(.denied))
        let chosen = StartupMachine.step(&state, .placeChosen(Self.krakow))
        expectNoDifference(chosen.effects, [.rememberPlace(Self.krakow)])
        expectNoDifference(StartupMachine.step(&state, .animalsLoaded([])).effects, [.fetchAnimalsNearPlace(Self.krakow)])
    }

    @Test func givenNobodyNearTheChosenPlace_whenTheFallbackLoads_thenTheListingStillNamesThePlace() {
        var state = deniedAndListed()
        _ = StartupMachine.step(&state, .placeChosen(Self.lyon))
        _ = StartupMachine.step(&state, .animalsLoaded([]))
        _ = StartupMachine.step(&state, .animalsLoaded(Fixtures.animals))
        #expect(state.listing?.isFallbackForNothingNearby == true && state.listing?.place == Self.lyon)
        // The place stays chosen and can be cleared from there.
        expectNoDifference(StartupMachine.step(&state, .placeCleared).effects, [.rememberPlace(nil), .fetchAnimals(near: nil)])
    }

    // FR-015 with both: a status change and a new place wait behind one query; both apply after it.
    @Test func givenAPlaceChosenAndAStatusChangeDuringAQuery_whenTheQueryEnds_thenTheListingFollowsThePlace() {
        var state = deniedAndListed()
        _ = StartupMachine.step(&state, .refreshRequested)
        _ = StartupMachine.step(&state, .statusChecked(.denied))
        #expect(state.isQuerying)
        _ = StartupMachine.step(&state, .placeChosen(Self.krakow))
        _ = StartupMachine.step(&state, .statusChanged(.denied))  // no news: nothing deferred
        _ = StartupMachine.step(&state, .statusChanged(.restricted))
        #expect(state.pendingStatus == .restricted)
        let ended = StartupMachine.step(&state, .animalsLoaded(Fixtures.animals))
        expectNoDifference(ended.effects, [.fetchAnimalsNearPlace(Self.krakow)])
        #expect(state.permissionStatus == .restricted)
    }

    @Test func givenTheDeniedPopup_whenChooseAPlaceInsteadIsTapped_thenThePopupGoesAndThePickerOpens() {
        var state = State()
        _ = StartupMachine.step(&state, .screenAppeared)
        _ = StartupMachine.step(&state, .statusChecked(.denied))
        let step = StartupMachine.step(&state, .choosePlaceTapped)
        expectNoDifference(step.log, [.customPopupDismissed(.choosePlace)])
        #expect(state.popup == nil && state.isChoosingPlace)
        _ = StartupMachine.step(&state, .placePickerClosed)
        #expect(!state.isChoosingPlace)
    }

    // The spec: when location is allowed and a fix comes, the listing is near the person.
    @Test func givenTheListingNearAPlace_whenLocationIsAllowed_thenTheNextQueryIsNearThePerson() throws {
        var state = deniedAndListed(chosen: Self.lyon)
        #expect(StartupMachine.step(&state, .statusChanged(.authorizedWhenInUse)).effects == [.requestLocation])
        let fix = try UserLocation(latitude: 52.2297, longitude: 21.0122)
        let step = StartupMachine.step(&state, .locationResult(fix))
        expectNoDifference(step.effects, [.fetchAnimals(near: fix.rounded(toDecimals: 2))])
        _ = StartupMachine.step(&state, .animalsLoaded(Fixtures.animals))
        #expect(state.listing?.queriedNearLocation == true && state.listing?.place == nil)
        #expect(state.chosenPlace == Self.lyon)  // still remembered, for when location is not available
    }
}

/// Suggestions from a script: what each text answers, and which texts were asked.
private actor ScriptedPlaceSearch: PlaceSearching {
    private let answers: [String: Result<[Place], any Error>]
    private(set) var asked: [String] = []

    init(_ answers: [String: Result<[Place], any Error>] = [:]) {
        self.answers = answers
    }

    func searchPlaces(_ text: String, limit: Int) async throws -> [Place] {
        asked.append(text)
        return try answers[text, default: .success([])].get()
    }
}

private struct Offline: Error {}

@MainActor @Suite struct PlacePickerModelTests {
    @Test func givenKeystrokesWithinTheDebounce_whenTyped_thenOnlyTheLastTextIsSearchedAndShown() async {
        let clock = VirtualClock()
        let search = ScriptedPlaceSearch(["lyon": .success([PlaceChoiceTests.lyon])])
        let picker = PlacePickerModel(search: search, clock: clock)
        var events: [StartupEvent] = []
        picker.onEvent = { events.append($0) }
        picker.type("l")
        clock.advance(by: .milliseconds(100))
        picker.type("ly")
        clock.advance(by: .milliseconds(100))
        picker.type("lyon")
        #expect(picker.status == .searching)
        clock.advance(by: PlacePickerModel.defaultDebounce)
        await picker.waitUntilIdle()
        #expect(await search.asked == ["lyon"])
        #expect(picker.suggestions == [PlaceChoiceTests.lyon] && picker.status == .idle)
        #expect(events == [.placeSuggestions(count: 1)])
    }

    @Test func givenTheNetworkFailing_whenTyped_thenItSaysSoAndKeepsTheText() async {
        let clock = VirtualClock()
        let search = ScriptedPlaceSearch(["lyo": .failure(Offline())])
        let picker = PlacePickerModel(search: search, clock: clock)
        var events: [StartupEvent] = []
        picker.onEvent = { events.append($0) }
        picker.type("lyo")
        clock.advance(by: PlacePickerModel.defaultDebounce)
        await picker.waitUntilIdle()
        #expect(picker.status == .failed && picker.text == "lyo" && picker.suggestions.isEmpty)
        #expect(events == [.placeSuggestionsFailed])
    }

    @Test func givenAnAnswerToAnOlderText_whenItArrivesLate_thenItIsDropped() async {
        let clock = VirtualClock()
        let search = SlowFirstSearch()
        let picker = PlacePickerModel(search: search, clock: clock)
        var events: [StartupEvent] = []
        picker.onEvent = { events.append($0) }
        picker.type("ly")
        clock.advance(by: PlacePickerModel.defaultDebounce)
        await search.waitForFirstCall()
        picker.type("lyon")  // the answer to "ly" (Kraków) is still on its way, whatever cancellation says
        clock.advance(by: PlacePickerModel.defaultDebounce)
        await search.waitForSecondAnswer()
        await search.releaseFirst()
        await picker.waitUntilIdle()  // both searches have ended: Lyon's shown, Kraków's dropped
        #expect(picker.suggestions.map(\.id) == [PlaceChoiceTests.lyon.id])
        #expect(events == [.placeSuggestions(count: 1)])
    }

    @Test func givenSpacesOnly_whenTyped_thenNothingIsAsked() async {
        let clock = VirtualClock()
        let search = ScriptedPlaceSearch()
        let picker = PlacePickerModel(search: search, clock: clock)
        picker.type("   ")
        clock.advance(by: .seconds(1))
        await picker.waitUntilIdle()
        #expect(await search.asked.isEmpty)
        #expect(picker.status == .idle)
    }
}

/// The first search waits until released, cancelled or not; later ones answer Lyon at once.
private actor SlowFirstSearch: PlaceSearching {
    private var calls = 0
    private var answered = 0
    private var first: CheckedContinuation<Void, Never>?
    private var firstCalled: [CheckedContinuation<Void, Never>] = []
    private var secondAnswered: [CheckedContinuation<Void, Never>] = []
    private var released = false

    func searchPlaces(_ text: String, limit: Int) async throws -> [Place] {
        calls += 1
        if calls == 1 {
            for waiter in firstCalled { waiter.resume() }
            firstCalled = []
            if !released { await withCheckedContinuation { first = $0 } }
            return [PlaceChoiceTests.krakow]
        }
        answered += 1
        for waiter in secondAnswered { waiter.resume() }
        secondAnswered = []
        return [PlaceChoiceTests.lyon]
    }

    func waitForFirstCall() async {
        if calls >= 1 { return }
        await withCheckedContinuation { firstCalled.append($0) }
    }

    func waitForSecondAnswer() async {
        if answered >= 1 { return }
        await withCheckedContinuation { secondAnswered.append($0) }
    }

    func releaseFirst() {
        released = true
        first?.resume()
        first = nil
    }
}

@Suite struct PlaceSuggestionTextTests {
    @Test(arguments: [("en", "Kraków, Poland"), ("pl", "Kraków, Polska"), ("de", "Kraków, Polen"), ("ja", "Kraków（ポーランド）")])
    func givenACity_whenShownInALanguage_thenItsNameAsGivenAndItsCountryInThatLanguage(_ tag: String, _ expected: String) throws {
        #expect(L10n.placeSuggestion(PlaceChoiceTests.krakow, try Localizer(tag: tag)) == expected)
    }

    @Test func givenAPostalCode_whenShown_thenTheServersLabel() throws {
        let zip = Place(
            id: "us-zip:10001", name: "New York", region: "New York", countryCode: "US",
            location: try GeoCoordinate(latitude: 40.75, longitude: -74), population: 0, postalCode: "10001", label: "New York, NY 10001"
        )
        #expect(L10n.placeSuggestion(zip, try Localizer(tag: "fr")) == "New York, NY 10001")
    }
}
