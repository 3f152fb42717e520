import DeviceInterfaces
import DeviceSimulator
import Localization
import PetSpotDomain
import Permissions
import TestSupport
import Testing

@MainActor
@Suite(.timeLimit(.minutes(1))) struct PermissionsScreenModelTests {
    private func model(
        _ harness: PermissionHarness,
        offersAlwaysLocation: Bool = false,
        onComplete: @escaping @MainActor () -> Void = {}
    ) -> PermissionsScreenModel {
        PermissionsScreenModel(
            manager: harness.manager, offersAlwaysLocation: offersAlwaysLocation, texts: .paintMyTown, localizer: .english,
            onComplete: onComplete
        )
    }

    @Test func givenNothingAsked_whenScreenAppears_thenEveryCardOffersAllowWithItsTexts() async {
        let harness = PermissionHarness()
        let screen = model(harness)
        await screen.appear()
        #expect(screen.cards.map(\.permission) == [.location, .motion, .healthKit])
        #expect(screen.cards.allSatisfy { $0.action == .allow && $0.actionTitle == "Continue" && $0.statusText == "Not asked yet" })
        #expect(screen.cards.map(\.symbolName) == ["location.fill", "figure.walk", "heart.fill"])
        #expect(screen.cards.allSatisfy { !$0.title.isEmpty && !$0.rationale.isEmpty })
    }

    @Test func givenLocationCard_whenAllowTappedAndUserAllowsWhileUsing_thenCardShowsWhileUsingAndNoButton() async {
        let harness = PermissionHarness()
        let screen = model(harness)
        async let tap = await screen.performAction(for: .location)
        await harness.location.waitForCalls(1)
        #expect(screen.card(for: .location).isBusy)
        #expect(!screen.canContinue)
        harness.report(.authorizedWhenInUse)
        await tap
        let card = screen.card(for: .location)
        #expect(card.state == .authorized)
        #expect(card.statusText == "While using the app")
        #expect(card.action == .none)
        #expect(!card.isBusy)
        #expect(screen.canContinue)
    }

    @Test func givenAlwaysOffered_whenWhileUsing_thenAllowAlwaysButtonUntilTheOneRequestIsMade() async {
        let harness = PermissionHarness(locationStatus: .authorizedWhenInUse)
        let screen = model(harness, offersAlwaysLocation: true)
        #expect(screen.card(for: .location).action == .allowAlways)
        async let tap = await screen.performAction(for: .location)
        await harness.location.waitForCalls(1)
        harness.report(.authorizedAlways)
        await tap
        #expect(screen.lastAlwaysOutcome == .upgraded)
        #expect(screen.card(for: .location).statusText == "Always")
        #expect(screen.card(for: .location).action == .none)
    }

    @Test func givenAlwaysOfferedAndAlreadyAsked_whenWhileUsing_thenNoAlwaysButton() {
        let harness = PermissionHarness(
            locationStatus: .authorizedWhenInUse,
            ledger: InMemoryPermissionLedger(alwaysLocationRequested: true)
        )
        #expect(model(harness, offersAlwaysLocation: true).card(for: .location).action == .none)
    }

    @Test func givenMotionDenied_whenSettingsTapped_thenSettingsOpens() async {
        let harness = PermissionHarness(motion: .init(status: .denied))
        let screen = model(harness)
        await screen.appear()
        #expect(screen.card(for: .motion).action == .openSettings)
        #expect(screen.card(for: .motion).actionTitle == "Settings")
        await screen.performAction(for: .motion)
        #expect(harness.settings.opened == 1)
    }

    @Test func givenMotionDeniedInSettings_whenAppReturnsToForeground_thenCardUpdates() async {
        let harness = PermissionHarness(motion: .init(status: .authorized))
        let screen = model(harness)
        await screen.appear()
        harness.motion.setAllowedInSettings(false)
        await harness.becameActive()
        #expect(screen.card(for: .motion).state == .denied)
    }

    @Test func givenRestrictedAndUnavailable_whenShown_thenNoButtonsAndHonestStatus() async {
        let harness = PermissionHarness(
            locationStatus: .restricted,
            motion: .init(hasMotionCoprocessor: false),
            health: .init(isHealthDataAvailable: false)
        )
        let screen = model(harness)
        await screen.appear()
        #expect(screen.cards.allSatisfy { $0.action == .none && $0.actionTitle == nil })
        #expect(screen.card(for: .location).statusText == "Restricted on this device")
        #expect(screen.card(for: .motion).statusText == "Not available on this device")
        #expect(screen.card(for: .healthKit).statusText == "Not available on this device")
    }

    @Test func givenLocationServicesOff_whenShown_thenCardSaysSoAndOffersSettings() async {
        let harness = PermissionHarness(locationStatus: .denied, servicesEnabled: false)
        let screen = model(harness)
        await screen.appear()
        #expect(screen.card(for: .location).statusText == "Location Services are off")
        #expect(screen.card(for: .location).action == .openSettings)
    }

    @Test func givenMissingUsageDescription_whenAllowTapped_thenErrorNamesTheKey() async {
        let harness = PermissionHarness(infoPlist: .complete(without: "NSMotionUsageDescription"))
        let screen = model(harness)
        await screen.allow(.motion)
        #expect(screen.errorMessage?.contains("NSMotionUsageDescription") == true)
        #expect(harness.motion.queryCount == 0)
    }

    @Test func givenLearnMore_whenTapped_thenDetailShowsWhatWeDoWhatWeDontAndPrivacy() {
        let harness = PermissionHarness()
        let screen = model(harness)
        #expect(screen.detail == nil)
        screen.learnMore(.location)
        let detail = screen.detail
        #expect(detail?.card.permission == .location)
        #expect(detail?.details.whatWeDo.isEmpty == false)
        #expect(detail?.details.whatWeDoNotDo.isEmpty == false)
        #expect(detail?.details.privacy.isEmpty == false)
        screen.closeDetail()
        #expect(screen.detail == nil)
    }

    @Test func givenARequestRunning_whenItsCardIsReadByVoiceOver_thenTheProgressIndicatorSaysIOSIsAsked() async {
        let harness = PermissionHarness()
        let screen = model(harness)
        #expect(!screen.card(for: .location).isBusy)
        async let tap = await screen.performAction(for: .location)
        await harness.location.waitForCalls(1)
        let card = screen.card(for: .location)
        #expect(card.isBusy)
        #expect(card.busyLabel == "Asking iOS…")
        #expect(card.busyLabel != card.statusText)
        harness.report(.authorizedWhenInUse)
        await tap
    }

    @Test func givenLearnMoreShown_whenItsDoneButtonIsReadByVoiceOver_thenTheHintSaysItReturnsToTheCards() {
        let screen = model(PermissionHarness())
        screen.learnMore(.motion)
        #expect(screen.detail?.doneHint == "Closes these details and returns to the permissions.")
        #expect(screen.detail?.doneHint != screen.texts.doneHint(.english))
    }

    @Test func givenHealthAnswered_whenDetailShown_thenSavingPerTypeAndNoClaimAboutReading() async {
        let harness = PermissionHarness(health: .init(
            shareStatus: [.workout: .sharingAuthorized, .workoutRoute: .sharingDenied],
            readAllowed: [.stepCount: true, .distanceWalkingRunning: false]
        ))
        let screen = model(harness)
        await screen.appear()
        screen.learnMore(.healthKit)
        let lines = screen.detail?.healthLines ?? []
        #expect(lines.contains("Workouts: saving allowed"))
        #expect(lines.contains("Workout routes: saving not allowed"))
        // Only the types saved have a line: reading is never claimed either way.
        #expect(lines.count == 2)
        #expect(!lines.contains { $0.contains("Steps") || $0.contains("Read") })
        #expect(screen.card(for: .healthKit).statusText == "Saving allowed")
    }

    @Test func givenContinueTappedTwice_whenFinishing_thenCompletionRunsOnce() {
        let harness = PermissionHarness()
        var completions = 0
        let screen = model(harness) { completions += 1 }
        screen.finish()
        screen.finish()
        #expect(completions == 1)
        #expect(screen.isCompleted)
        #expect(!screen.canContinue)
    }
}
