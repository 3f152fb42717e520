import AsyncSupport
import Permissions
import Testing

/// The permissions screen's rules, fed events and checked whole, and every order of events up to a
/// depth checked against the screen's invariants.
@Suite struct PermissionsMachineTests {
    private let all = Permission.allCases

    @Test func givenAllowTapped_whenTheRequestEnds_thenItIsLoggedStartedAndFinishedOnce() {
        var state = PermissionsMachine.State()

        let tap = PermissionsMachine.step(&state, .allowTapped(.motion), permissions: all)
        let again = PermissionsMachine.step(&state, .allowTapped(.motion), permissions: all)
        let end = PermissionsMachine.step(&state, .requestFinished(.motion, .authorized), permissions: all)

        #expect(tap == .init(effects: [.request(.motion)], log: [.requestStarted(.motion)]))
        #expect(again == .init(effects: [], log: []))
        #expect(end == .init(effects: [], log: [.requestFinished(.motion, .authorized)]))
        #expect(state.requestsUnderWay.isEmpty)
    }

    @Test func givenARefusal_whenTheNextRequestStarts_thenTheErrorGoes() {
        var state = PermissionsMachine.State()
        let error = PermissionRequestError.missingUsageDescription(.healthKit, keys: ["NSHealthShareUsageDescription"])
        _ = PermissionsMachine.step(&state, .allowTapped(.healthKit), permissions: all)

        let refused = PermissionsMachine.step(&state, .requestRefused(.healthKit, error), permissions: all)
        #expect(refused.log == [.requestRefused(.healthKit, .missingUsageDescription)])
        #expect(state.refusal == error)

        _ = PermissionsMachine.step(&state, .allowTapped(.motion), permissions: all)
        #expect(state.refusal == nil)
    }

    @Test func givenDoneTapped_whenTappedAgainOrACardIsTapped_thenNothingMoreHappens() {
        var state = PermissionsMachine.State()

        let done = PermissionsMachine.step(&state, .doneTapped, permissions: all)
        let later = [PermissionsMachine.Event.doneTapped, .allowTapped(.location), .settingsTapped, .learnMoreTapped(.motion)]
            .map { PermissionsMachine.step(&state, $0, permissions: all) }

        #expect(done.effects == [.complete])
        #expect(later.allSatisfy { $0.effects.isEmpty && $0.log.isEmpty })
        #expect(state.detailPermission == nil)
    }

    @Test func givenAlwaysTapped_whenItEnds_thenTheOutcomeIsKeptAndTheLocationRequestLogged() {
        var state = PermissionsMachine.State()

        _ = PermissionsMachine.step(&state, .allowAlwaysTapped, permissions: all)
        let end = PermissionsMachine.step(&state, .alwaysFinished(.stayedWhenInUse, .authorized), permissions: all)

        #expect(end.log == [.requestFinished(.location, .authorized)])
        #expect(state.lastAlwaysOutcome == .stayedWhenInUse)
    }

    // MARK: - Every order of events

    /// One thing that can happen on the screen: a tap, or a request under way ending.
    enum Happening: CaseIterable {
        case appears, allowLocation, allowMotion, allowHealth, allowAlways, settings, learnMore, closeDetail, done
        case locationEnds, locationRefused, alwaysEnds, motionEnds, healthRefused
    }

    /// The machine and what the world knows: requests in flight (started, not ended), what was logged.
    struct World: Hashable {
        var machine = PermissionsMachine.State()
        var inFlight: Set<Permission> = []
        /// Which location request is in flight, when one is: the Always step or not.
        var alwaysInFlight = false
        var completions = 0
        var errorShows = false

        /// The event for `happening`, or nil when it cannot happen now (no such request in flight).
        func event(for happening: Happening) -> PermissionsMachine.Event? {
            switch happening {
            case .appears: .appeared
            case .allowLocation: .allowTapped(.location)
            case .allowMotion: .allowTapped(.motion)
            case .allowHealth: .allowTapped(.healthKit)
            case .allowAlways: .allowAlwaysTapped
            case .settings: .settingsTapped
            case .learnMore: .learnMoreTapped(.location)
            case .closeDetail: .detailClosed
            case .done: .doneTapped
            case .locationEnds where inFlight.contains(.location) && !alwaysInFlight: .requestFinished(.location, .authorized)
            case .locationRefused where inFlight.contains(.location):
                .requestRefused(.location, .systemError(.location, "kCLErrorDomain 1"))
            case .alwaysEnds where alwaysInFlight: .alwaysFinished(.upgraded, .authorized)
            case .motionEnds where inFlight.contains(.motion): .requestFinished(.motion, .denied)
            case .healthRefused where inFlight.contains(.healthKit):
                .requestRefused(.healthKit, .missingUsageDescription(.healthKit, keys: ["NSHealthUpdateUsageDescription"]))
            case .locationEnds, .locationRefused, .alwaysEnds, .motionEnds, .healthRefused: nil
            }
        }

        /// Applies `event`; returns the first invariant it breaks, if any.
        mutating func apply(_ event: PermissionsMachine.Event) -> String? {
            let wasCompleted = machine.isCompleted
            let step = PermissionsMachine.step(&machine, event, permissions: Permission.allCases)
            for effect in step.effects {
                switch effect {
                case .request(let permission):
                    // Invariant 1: never two requests of one permission from this screen at once.
                    if inFlight.contains(permission) { return "a second \(permission) request while one was under way" }
                    inFlight.insert(permission)
                    errorShows = false
                case .requestAlways:
                    if inFlight.contains(.location) { return "a second location request while one was under way" }
                    inFlight.insert(.location)
                    alwaysInFlight = true
                    errorShows = false
                case .complete, .openSettings:
                    if effect == .complete { completions += 1 }
                case .check:
                    continue
                }
                // Invariant 2: after Done, nothing more is asked or opened.
                if wasCompleted { return "\(effect) after Done" }
            }
            // Invariant 3: Done completes once.
            if completions > 1 { return "completed \(completions) times" }
            for entry in step.log {
                switch entry {
                case .requestStarted(let permission):
                    if !step.effects.contains(where: { $0 == .request(permission) || (permission == .location && $0 == .requestAlways) }) {
                        return "\(permission) logged as started with no request"
                    }
                case .requestFinished(let permission, _), .requestRefused(let permission, _):
                    // Invariant 4: every request that started ends in the log exactly once.
                    guard inFlight.remove(permission) != nil else { return "\(permission) logged as ended with none under way" }
                    if permission == .location { alwaysInFlight = false }
                    if case .requestRefused = entry { errorShows = true }
                }
            }
            // Invariant 5: the machine's requests under way are the world's.
            if machine.requestsUnderWay != inFlight { return "the machine and the world disagree on the requests under way" }
            // Invariant 6: the error shows exactly from a refusal until the next request starts.
            if (machine.refusal != nil) != errorShows { return "the error shows \(machine.refusal != nil) after \(event)" }
            // Invariant 7: Done does nothing but complete.
            if !wasCompleted, machine.isCompleted, step.effects != [.complete] { return "Done started more than the completion" }
            return nil
        }
    }

    /// Walks every sequence below `world`, up to `depth` more events; a world already walked to the
    /// same depth is not walked again (what follows depends on the world alone). Stops at the first
    /// broken invariant, recorded with the sequence that broke it.
    func explore(_ world: World, depth: Int, trail: inout [Happening], seen: inout [Int: Set<World>], failed: inout Bool) -> Int {
        guard depth > 0, !failed, seen[depth]?.contains(world) != true else { return 0 }
        var walked = 0
        for happening in Happening.allCases where !failed {
            var next = world
            guard let event = next.event(for: happening) else { continue }
            trail.append(happening)
            defer { trail.removeLast() }
            if let broken = next.apply(event) {
                Issue.record("\(broken), after \(trail.map { "\($0)" }.joined(separator: " → "))")
                failed = true
                return walked + 1
            }
            walked += 1 + explore(next, depth: depth - 1, trail: &trail, seen: &seen, failed: &failed)
        }
        seen[depth, default: []].insert(world)
        return walked
    }

    @Test func givenTheScreen_whenEverySequenceOfUpToTwelveEventsApplied_thenInvariantsHoldAfterEachStep() {
        var trail: [Happening] = []
        var seen: [Int: Set<World>] = [:]
        var failed = false

        let walked = explore(World(), depth: 12, trail: &trail, seen: &seen, failed: &failed)

        #expect(!failed)
        // The walk reached the corners that matter: Done with requests still under way, an error
        // showing while another request runs.
        #expect(seen.values.contains { $0.contains { $0.completions == 1 && !$0.inFlight.isEmpty } })
        #expect(seen.values.contains { $0.contains { $0.errorShows && !$0.inFlight.isEmpty } })
        print("PermissionsMachine exploration: every sequence of 1…12 events, \(walked) steps walked over \(Set(seen.values.joined()).count) distinct worlds")
    }
}
