import AsyncSupport
import DeviceInterfaces
import Foundation
import Observation
import Localization
import PetSpotDomain

/// The startup screen's view model: it feeds ``StartupMachine`` with events and performs the
/// effects the machine returns. It holds no rule of its own.
///
/// The public properties are read from ``state``, the one source of truth. Effects run in tasks the
/// view model owns; ``waitUntilIdle()`` waits until none is left, so tests and the command-line
/// driver can step it deterministically. Status changes arrive through the stream of
/// `authorizationStatusUpdates()`, which is consumed separately: a change pushed into it is seen
/// when it is delivered (watch ``onEvent`` for `.permissionChanged`), then ``waitUntilIdle()``
/// covers what it started.
@MainActor
@Observable
public final class AnimalListViewModel {
    /// The machine's state for this session.
    public private(set) var state: StartupMachine.State

    public var animals: [Animal] { state.listing?.animals ?? [] }
    public var isLoading: Bool { state.isLoading }
    /// The error text with Retry, while the last query's failure is showing.
    public var errorMessage: String? { state.loadFailure == nil ? nil : L10n.text(.listErrorMessage, localizer) }
    public var locationPermissionStatus: LocationPermissionStatus { state.permissionStatus }
    public var currentLocation: UserLocation? { state.currentLocation }

    /// The custom popup's words while it shows, by its cause; nil when it does not show.
    public var permissionPopup: PermissionPopupContent? { state.popup.map { PermissionPopupContent(reason: $0, localizer: localizer) } }

    /// Whether the custom popup shows (``permissionPopup`` says what it says). Read-only: the popup
    /// closes only through ``openSettings()`` or ``continueWithoutLocation()``, its two buttons.
    public var showPermissionDeniedAlert: Bool { state.isPopupPresented }

    /// The language and locale of every text the screen shows.
    public let localizer: Localizer

    /// The place picker; nil when the app has no gazetteer to search.
    public let placePicker: PlacePickerModel?
    /// The place the person chose instead of sharing location, if any.
    public var chosenPlace: Place? { state.chosenPlace }
    /// Whether the place picker shows.
    public var isChoosingPlace: Bool { state.isChoosingPlace }
    /// The picker's field, for a text field's binding: what is set is typed.
    public var placeSearchText: String {
        get { placePicker?.text ?? "" }
        set { placePicker?.type(newValue) }
    }
    /// Whether the picker shows, for a sheet's binding: SwiftUI writes `false` when the person swipes
    /// it away, which closes it as Close does.
    public var isPlacePickerPresented: Bool {
        get { state.isChoosingPlace }
        set { newValue ? openPlacePicker() : closePlacePicker() }
    }
    /// Whether the header offers to clear the chosen place: one is chosen, and the listing on screen
    /// is not near the person (it is near the place, or nobody was near it).
    public var offersPlaceClearing: Bool { offersPlaceChoice && state.chosenPlace != nil }
    /// Whether the header offers "Choose a place": whenever the listing is without the person's location.
    public var offersPlaceChoice: Bool {
        placePicker != nil && state.listing.map { !$0.queriedNearLocation } ?? false
    }

    /// Receives every ``StartupEvent`` as the machine's steps happen, for an event log.
    @ObservationIgnored public var onEvent: (@MainActor (StartupEvent) -> Void)?

    @ObservationIgnored private let locationService: any LocationServiceProtocol
    @ObservationIgnored private let animalRepository: any AnimalRepositoryProtocol
    /// The popup's "Go to Settings": this app's page in Settings.
    @ObservationIgnored private let settingsOpener: SettingsOpener
    @ObservationIgnored private let placeMemory: (any PlaceMemory)?
    /// Runs ``StartupMachine`` over ``state``: this model's ``step(_:)`` and ``perform(_:)``.
    @ObservationIgnored private lazy var runner: EffectRunner<StartupMachine.Event, StartupMachine.Effect, StartupEvent> = {
        // Unowned: the runner is this model's own and never outlives it.
        let runner = EffectRunner(step: { [unowned self] in step($0) }, perform: { [unowned self] in perform($0) })
        runner.onLog = { [unowned self] in onEvent?($0) }
        return runner
    }()
    // Written only on the main actor; read only by `deinit`, which runs when no other reference
    // (and so no concurrent access) exists.
    @ObservationIgnored nonisolated(unsafe) private var observationTask: Task<Void, Never>?

    /// - Parameters:
    ///   - locationService: Permission and location, in domain types.
    ///   - animalRepository: Where the listing comes from.
    ///   - coordinateDecimals: Decimal places of coordinates sent to the server (2 ≈ 1 km).
    ///   - localizer: The language and locale of the screen's texts; the device's by default.
    public init(
        locationService: any LocationServiceProtocol,
        animalRepository: any AnimalRepositoryProtocol,
        settingsOpener: SettingsOpener,
        coordinateDecimals: Int = 2,
        localizer: Localizer = .system,
        places: (any PlaceSearching)? = nil,
        placeMemory: (any PlaceMemory)? = nil,
        clock: any Clock<Duration> = ContinuousClock()
    ) {
        self.localizer = localizer
        self.locationService = locationService
        self.animalRepository = animalRepository
        self.settingsOpener = settingsOpener
        self.placeMemory = placeMemory
        self.placePicker = places.map { PlacePickerModel(search: $0, clock: clock) }
        self.state = StartupMachine.State(coordinateDecimals: coordinateDecimals, chosenPlace: placeMemory?.place)
        placePicker?.onEvent = { [weak self] in self?.onEvent?($0) }
    }

    deinit {
        observationTask?.cancel()
    }

    // MARK: - Inputs

    /// The screen appeared (FR-001).
    public func onAppear() { send(.screenAppeared) }

    /// "Go to Settings" in the custom popup (FR-005).
    public func openSettings() { send(.popupSettingsTapped) }

    /// "Cancel" in the custom popup (FR-006).
    public func continueWithoutLocation() { send(.popupCancelTapped) }

    /// Retry after a failed query.
    public func retry() { send(.retryTapped) }

    /// "Choose a place", in the header or as the popup's third action: the picker opens, empty.
    public func openPlacePicker() {
        guard placePicker != nil else { return }
        placePicker?.reset()
        send(.choosePlaceTapped)
    }

    /// The picker closes without a choice.
    public func closePlacePicker() {
        placePicker?.reset()
        send(.placePickerClosed)
    }

    /// The person picked `place`: the listing becomes the pets near it, and it is remembered.
    public func choosePlace(_ place: Place) {
        placePicker?.reset()
        send(.placeChosen(place))
    }

    /// The clear control: back to the listing without a place.
    public func clearPlace() { send(.placeCleared) }

    /// Pull to refresh: re-reads the status, locates when authorized and queries; returns when the
    /// load has finished (what `.refreshable` waits for).
    public func refresh() async {
        requestRefresh()
        await waitUntilIdle()
    }

    /// Starts what ``refresh()`` does without waiting for it.
    public func requestRefresh() { send(.refreshRequested) }

    /// The app's scene phase changed; a return to active re-checks the status (FR-011).
    public func scenePhaseChanged(to phase: AppScenePhase) { send(.scenePhaseChanged(phase)) }

    /// Reads the status now and lets the machine react to any change (FR-010, FR-011); returns when
    /// everything it started has finished.
    public func checkPermissionStatusChange() async {
        send(await readStatus())
        await waitUntilIdle()
    }

    /// Loads the listing: the whole startup flow the first time, a fresh load afterwards. Returns
    /// when it has finished.
    public func loadAnimals() async {
        send(state.hasAppeared ? .retryTapped : .screenAppeared)
        await waitUntilIdle()
    }

    /// Returns when no effect is running (effects that start others are waited for too), or as soon
    /// as the calling task is cancelled: cancelling stops the wait, never the screen's work.
    public func waitUntilIdle() async {
        await placePicker?.waitUntilIdle()
        await runner.waitUntilIdle()
    }

    // MARK: - The loop

    func send(_ event: StartupMachine.Event) {
        runner.send(event)
    }

    private func step(_ event: StartupMachine.Event) -> StartupMachine.Step {
        StartupMachine.step(&state, event)
    }

    /// Performs `effect`; what goes on after it runs in a task that ``waitUntilIdle()`` waits for.
    private func perform(_ effect: StartupMachine.Effect) -> (@MainActor () async -> Void)? {
        let locationService = self.locationService
        let animalRepository = self.animalRepository
        switch effect {
        case .openSettings:
            settingsOpener()
            return nil
        case .observeStatusChanges:
            return { self.observe(await locationService.authorizationStatusUpdates()) }
        case .checkStatus:
            return { self.send(await self.readStatus()) }
        case .requestAuthorization:
            return { self.send(.authorizationAnswered(await locationService.requestWhenInUseAuthorization())) }
        case .requestLocation:
            return { self.send(.locationResult(await locationService.requestLocation())) }
        case .fetchAnimals(let location):
            return {
                do {
                    self.send(.animalsLoaded(try await animalRepository.fetchAnimals(near: location)))
                } catch {
                    self.send(.animalsFailed(String(describing: error)))
                }
            }
        case .fetchAnimalsNearPlace(let place):
            return {
                do {
                    self.send(.animalsLoaded(try await animalRepository.fetchAnimals(near: place.queryLocation)))
                } catch {
                    self.send(.animalsFailed(String(describing: error)))
                }
            }
        case .rememberPlace(let place):
            placeMemory?.place = place
            return nil
        }
    }

    /// The status as ``StartupMachine/Event/statusChecked(_:locationServicesEnabled:)``. Rule 7: with
    /// Location Services off the status reads `.denied`, so only then is the device-wide switch read.
    private func readStatus() async -> StartupMachine.Event {
        let status = await locationService.authorizationStatus
        let servicesOn = status == .denied ? await locationService.locationServicesEnabled : true
        return .statusChecked(status, locationServicesEnabled: servicesOn)
    }

    private func observe(_ updates: AsyncStream<LocationPermissionStatus>) {
        observationTask?.cancel()
        observationTask = Task { [weak self] in
            for await status in updates {
                guard let self else { return }
                self.send(.statusChanged(status))
            }
        }
    }
}
