import AsyncSupport
import DeviceInterfaces
import Foundation
import PetSpotDomain

/// The rules of recording a walk, as a pure function `(State, Event) -> Step`: which fixes become the
/// route, when the walk pauses and resumes, how far it went, which cells of the town it painted.
///
/// A walk is a list of segments, one per stretch between pauses; its distance is the sum of its
/// segments' lengths, and nothing walked while paused counts (the person may have taken a bus). The
/// model that owns the walk performs the effects: location updates, Motion (activity and pedometer),
/// saving the painted town and the workout.
public enum WalkMachine {
    public struct Configuration: Hashable, Sendable {
        /// A fix less accurate than this is not part of the route.
        public var worstAccuracyMetres: Double
        /// A fix closer than this to the last one recorded is not recorded: GPS noise while the
        /// person stands still would otherwise add distance.
        public var minimumSpacingMetres: Double
        /// How sure iOS must be of an activity before the walk pauses or resumes on it.
        public var activityConfidence: MotionActivity.Confidence

        public init(
            worstAccuracyMetres: Double = 50,
            minimumSpacingMetres: Double = 5,
            activityConfidence: MotionActivity.Confidence = .medium
        ) {
            self.worstAccuracyMetres = worstAccuracyMetres
            self.minimumSpacingMetres = minimumSpacingMetres
            self.activityConfidence = activityConfidence
        }
    }

    /// Why a walk is paused.
    public enum PauseReason: String, Hashable, Sendable, CaseIterable {
        /// The person tapped Pause: only the person resumes it.
        case person
        /// Motion said the person stopped: walking again resumes it.
        case stationary
    }

    /// Why a walk resumed.
    public enum ResumeReason: String, Hashable, Sendable, CaseIterable {
        /// The person tapped Resume.
        case person
        /// Motion said the person walks (or runs) again after stopping.
        case moving
    }

    public enum Phase: Hashable, Sendable {
        /// No walk under way.
        case ready
        case recording
        case paused(PauseReason)
        /// The last walk ended; a new one may start.
        case ended
    }

    public struct State: Hashable, Sendable {
        public var phase: Phase = .ready
        public var startedAt: Date?
        public var endedAt: Date?
        /// Since when fixes and activities count: the start, or the last pause or resume.
        public var phaseSince: Date?
        /// The stretches recorded between pauses, each its fixes in order.
        public var segments: [[UserLocation]] = []
        /// The sum of the segments' lengths, in metres.
        public var distanceMetres = 0.0
        /// Steps since the start as the pedometer counts them; nil without Motion.
        public var steps: Int?
        /// Whether Motion pauses and resumes the walk (the person allowed Motion & Fitness).
        public var autoPause = false
        /// The cells painted before this walk.
        public var paintedBefore: Set<TownCell>
        /// The cells this walk painted that were not painted before.
        public var newCells: Set<TownCell> = []
        /// Fixes recorded since the walk was last kept (``Effect/keepWalk``).
        public var fixesSinceKept = 0
        public var configuration: Configuration

        public init(painted: Set<TownCell> = [], configuration: Configuration = Configuration()) {
            paintedBefore = painted
            self.configuration = configuration
        }

        /// Every cell painted, this walk's included.
        public var painted: Set<TownCell> { paintedBefore.union(newCells) }

        public var isUnderWay: Bool {
            switch phase {
            case .recording, .paused: true
            case .ready, .ended: false
            }
        }
    }

    public enum Event: Hashable, Sendable {
        /// The person starts a walk; `autoPause` when Motion & Fitness is allowed.
        case start(at: Date, autoPause: Bool)
        case pause(at: Date)
        case resume(at: Date)
        case end(at: Date)
        /// A fix from location updates.
        case located(UserLocation)
        /// Motion's activity changed.
        case activity(MotionActivity)
        /// The pedometer's count since the walk started.
        case stepsCounted(Int)
        /// The app launched (by the person, or by iOS in the background) with a walk under way when
        /// its last process ended: it goes on from what was kept.
        case restore(WalkInProgress, at: Date)
        /// The app leaves the foreground: from now on iOS may end it without warning.
        case leftForeground
        /// The app launched, by the person or by iOS in the background.
        case launched
    }

    public enum Effect: Hashable, Sendable {
        case startLocationUpdates
        case stopLocationUpdates
        /// Activity updates and the pedometer.
        case startMotionUpdates
        case stopMotionUpdates
        /// Keep the painted town and save the walk to Health.
        case finish(WalkSummary)
        /// Keep the walk under way, so that a new process can go on with it if iOS ends this one
        /// (`WalkInProgress`). Kept at each change of phase and every ``keepEvery`` fixes recorded.
        case keepWalk(WalkInProgress)
        /// Save again each ended walk whose save Health never answered: the last process ended while
        /// it was under way.
        case resumeUnansweredSaves
    }

    /// How many recorded fixes may be lost if iOS ends the app without warning, as it may a process in
    /// the background. Recorded fixes are at least ``Configuration/minimumSpacingMetres`` apart: at
    /// 5 m, about 50 m of route, some 40 s of walking.
    public static let keepEvery = 10

    /// A kept walk whose last fix is older than this when a new process finds it is over: it ends at
    /// that fix instead of going on (the person swiped the app away mid-walk and came back a day later).
    public static let longestGap: TimeInterval = 6 * 3600

    /// What a walk did, for the log. Never a coordinate.
    public enum Logged: Hashable, Sendable {
        case walkStarted(autoPause: Bool)
        case walkPaused(PauseReason)
        case walkResumed(ResumeReason)
        case walkEnded(WalkSummary)
        /// A walk under way went on in a new process; `paused` when it was paused.
        case walkRestored(paused: Bool)
    }

    public typealias Step = MachineStep<Effect, Logged>

    public static func step(_ state: inout State, _ event: Event) -> Step {
        switch event {
        case .start(let date, let autoPause):
            guard !state.isUnderWay else { return Step() }
            state = State(painted: state.painted, configuration: state.configuration)
            state.phase = .recording
            state.startedAt = date
            state.phaseSince = date
            state.segments = [[]]
            state.autoPause = autoPause
            state.steps = autoPause ? 0 : nil
            let motion: [Effect] = autoPause ? [.startMotionUpdates] : []
            return Step(
                effects: [.startLocationUpdates] + motion + [keep(&state)],
                log: [.walkStarted(autoPause: autoPause)]
            )

        case .pause(let date):
            switch state.phase {
            case .recording, .paused(.stationary):
                return pause(&state, .person, at: date)
            case .ready, .paused(.person), .ended:
                return Step()
            }

        case .resume(let date):
            guard case .paused = state.phase else { return Step() }
            return resume(&state, .person, at: date)

        case .end(let date):
            guard state.isUnderWay else { return Step() }
            state.phase = .ended
            state.endedAt = date
            state.phaseSince = date
            let summary = WalkSummary(state)
            let motion: [Effect] = state.autoPause ? [.stopMotionUpdates] : []
            return Step(effects: [.stopLocationUpdates] + motion + [.finish(summary)], log: [.walkEnded(summary)])

        case .located(let fix):
            guard record(fix, in: &state) else { return Step() }
            state.fixesSinceKept += 1
            return state.fixesSinceKept >= keepEvery ? Step(effects: [keep(&state)]) : Step()

        case .activity(let activity):
            guard state.autoPause, activity.confidence >= state.configuration.activityConfidence,
                let since = state.phaseSince, activity.startDate >= since
            else { return Step() }
            switch (state.phase, activity.kind) {
            case (.recording, .stationary):
                return pause(&state, .stationary, at: activity.startDate)
            case (.paused(.stationary), .walking), (.paused(.stationary), .running):
                return resume(&state, .moving, at: activity.startDate)
            default:
                return Step()
            }

        case .restore(let kept, let date):
            guard !state.isUnderWay else { return Step() }
            state = State(painted: state.paintedBefore, configuration: state.configuration)
            kept.apply(to: &state)
            let lastSeen = state.segments.joined().last?.timestamp ?? kept.startedAt
            if date.timeIntervalSince(lastSeen) > longestGap {
                state.phase = .ended
                state.endedAt = lastSeen
                state.phaseSince = lastSeen
                let summary = WalkSummary(state)
                // Stopped too, so that iOS no longer relaunches the app for this walk.
                return Step(effects: [.stopLocationUpdates, .finish(summary)], log: [.walkEnded(summary)])
            }
            // What was walked while no process recorded is not known: a new segment begins here, and
            // only what is recorded from now counts (as after a pause).
            state.phaseSince = date
            if state.segments.last?.isEmpty == false { state.segments.append([]) }
            let motion: [Effect] = state.autoPause ? [.startMotionUpdates] : []
            var paused = false
            if case .paused = state.phase { paused = true }
            return Step(effects: [.startLocationUpdates] + motion + [keep(&state)], log: [.walkRestored(paused: paused)])

        case .leftForeground:
            return state.isUnderWay ? Step(effects: [keep(&state)]) : Step()

        case .launched:
            return Step(effects: [.resumeUnansweredSaves])

        case .stepsCounted(let count):
            guard state.isUnderWay, let steps = state.steps else { return Step() }
            // The pedometer's count since the start never goes back; a late, smaller one is stale.
            state.steps = max(steps, count)
            return Step()
        }
    }

    private static func pause(_ state: inout State, _ reason: PauseReason, at date: Date) -> Step {
        state.phase = .paused(reason)
        state.phaseSince = date
        return Step(effects: [keep(&state)], log: [.walkPaused(reason)])
    }

    private static func resume(_ state: inout State, _ reason: ResumeReason, at date: Date) -> Step {
        state.phase = .recording
        state.phaseSince = date
        state.segments.append([])
        return Step(effects: [keep(&state)], log: [.walkResumed(reason)])
    }

    private static func keep(_ state: inout State) -> Effect {
        state.fixesSinceKept = 0
        return .keepWalk(WalkInProgress(state))
    }

    /// Adds `fix` to the current segment when it belongs there: while recording, taken since the
    /// walk started or resumed (iOS may first deliver an older fix it had), after the segment's last
    /// fix, accurate enough, and far enough from the last fix to be a step rather than noise. Returns
    /// whether it was recorded.
    private static func record(_ fix: UserLocation, in state: inout State) -> Bool {
        let configuration = state.configuration
        guard state.phase == .recording, let since = state.phaseSince, fix.timestamp >= since,
            fix.horizontalAccuracy <= configuration.worstAccuracyMetres,
            let index = state.segments.indices.last
        else { return false }
        guard let last = state.segments[index].last else {
            state.segments[index].append(fix)
            paint(TownGrid.cells(from: fix.coordinate, to: fix.coordinate), in: &state)
            return true
        }
        let metres = last.coordinate.distance(to: fix.coordinate)
        guard fix.timestamp > last.timestamp, metres >= configuration.minimumSpacingMetres else { return false }
        state.segments[index].append(fix)
        state.distanceMetres += metres
        paint(TownGrid.cells(from: last.coordinate, to: fix.coordinate), in: &state)
        return true
    }

    private static func paint(_ cells: Set<TownCell>, in state: inout State) {
        state.newCells.formUnion(cells.subtracting(state.paintedBefore))
    }
}

/// An ended walk's numbers and route.
public struct WalkSummary: Hashable, Sendable {
    public var startedAt: Date
    public var endedAt: Date
    /// The sum of the segments' lengths, in metres.
    public var distanceMetres: Double
    /// Nil without Motion & Fitness.
    public var steps: Int?
    /// The route, one segment per stretch between pauses (empty segments left out).
    public var segments: [[UserLocation]]
    /// Cells this walk painted for the first time.
    public var newCells: Int
    /// Cells painted in all, this walk's included.
    public var totalCells: Int

    init(_ state: WalkMachine.State) {
        let start = state.startedAt ?? Date(timeIntervalSince1970: 0)
        startedAt = start
        endedAt = state.endedAt ?? start
        distanceMetres = state.distanceMetres
        steps = state.steps
        segments = state.segments.filter { !$0.isEmpty }
        newCells = state.newCells.count
        totalCells = state.painted.count
    }
}
