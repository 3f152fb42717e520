import AsyncSupport
import Foundation
import PetSpotDomain

/// A simulated iPhone with the app installed, following the iOS behaviour written down as the
/// numbered rules of docs/requirements.md. A scenario driver (or a test) plays the person: it launches
/// the app, taps alert buttons, changes Settings, moves the phone and advances the injected clock.
///
/// The device state shared by every permission simulation lives here: the app's scene phase, its
/// Info.plist keys, the system alert on screen, the timed-work scheduler and the event log. Each
/// permission area is a ``DeviceSubsystem`` (location is in `LocationSubsystem.swift`; Motion or
/// HealthKit go in their own files and register with ``subsystem(_:make:)``).
///
/// Determinism: everything runs on the main actor; before any action or observation the device first
/// runs the timed work that is due at the clock's current time, oldest deadline first, each "at" its
/// deadline. The same configuration and the same calls at the same virtual times therefore give the
/// same log, byte for byte.
@MainActor
public final class SimulatedDevice {
    /// What the device started with.
    public let configuration: DeviceConfiguration
    let time: VirtualTime
    let scheduler = DeviceScheduler()
    /// The only source of randomness; seeded from the configuration.
    var random: SplitMix64

    private(set) var phase: ScenePhase = .notRunning
    private var presentedAlert: PresentedAlert?
    private var entries: [DeviceLogEntry] = []
    private var logSubscribers = Subscribers<DeviceLogEntry>()
    private var phaseSubscribers = Subscribers<ScenePhase>()
    private var processingDeadline: Duration?
    private var isCatchingUp = false
    private var subsystems: [(id: ObjectIdentifier, subsystem: any DeviceSubsystem)] = []
    /// Location Services, the app's location permission and the GPS.
    let location: LocationSubsystem

    /// Called synchronously with every log entry, in order. Only observe from here: do not act on
    /// the device inside the callback.
    public var onEvent: (@MainActor (DeviceLogEntry) -> Void)?

    /// - Parameters:
    ///   - configuration: the app's Info.plist keys, Settings and GPS at start.
    ///   - clock: drives every delay (a ``VirtualClock`` in tests and scenario replays, `ContinuousClock` live).
    public init(configuration: DeviceConfiguration = DeviceConfiguration(), clock: some Clock<Duration>) {
        self.configuration = configuration
        self.time = VirtualTime(clock: clock, epoch: configuration.epoch)
        self.random = SplitMix64(seed: configuration.seed)
        self.location = LocationSubsystem(configuration: configuration.location)
        location.device = self
        subsystems.append((ObjectIdentifier(LocationSubsystem.self), location))
    }

    // MARK: Observation

    /// The app's scene phase.
    public var scenePhase: ScenePhase {
        catchUp()
        return phase
    }

    /// The system alert on screen, if any.
    public var systemAlert: SystemAlert? {
        catchUp()
        return presentedAlert?.alert
    }

    /// Everything that happened so far, in order.
    public var log: [DeviceLogEntry] {
        catchUp()
        return entries
    }

    /// Log entries from now on, for an asynchronous reader. Each call makes a new stream.
    public func logEntries() -> AsyncStream<DeviceLogEntry> {
        logSubscribers.subscribe { id in
            Task { @MainActor [weak self] in self?.logSubscribers.unsubscribe(id) }
        }
    }

    /// The app's scene phase changes from now on (what SwiftUI's `scenePhase` would show).
    public func scenePhaseChanges() -> AsyncStream<ScenePhase> {
        phaseSubscribers.subscribe { id in
            Task { @MainActor [weak self] in self?.phaseSubscribers.unsubscribe(id) }
        }
    }

    /// Virtual time since the device started.
    public var elapsed: Duration {
        catchUp()
        return currentElapsed
    }

    /// The virtual date: configuration epoch plus elapsed clock time. Fix timestamps use it.
    public var now: Date {
        time.date(at: elapsed)
    }

    /// Runs the timed work that is due at the clock's current time. Reads and actions do this by
    /// themselves; a driver may call it after advancing the clock to make the log complete.
    public func runDueWork() {
        catchUp()
    }

    /// The app's Info.plist keys.
    public var infoPlistKeys: Set<String> { configuration.infoPlistKeys }

    // MARK: App lifecycle

    /// Launches the app to the foreground (not running → inactive → active) and returns the location
    /// manager the app creates while launching. Its creation-time callback follows asynchronously.
    /// - Throws: ``SimulatedDeviceError/appAlreadyRunning``.
    @discardableResult
    public func launch() throws(SimulatedDeviceError) -> SimulatedLocationManager {
        catchUp()
        guard phase == .notRunning else { throw .appAlreadyRunning }
        record(.appLaunched)
        setPhase(.inactive)
        let manager = location.makeManager()
        setPhase(.active)
        for entry in subsystems { entry.subsystem.appDidLaunch() }
        return manager
    }

    /// The person leaves the app (active → inactive → background). An alert on screen goes away unanswered.
    /// - Throws: ``SimulatedDeviceError/appNotInForeground(_:)``.
    public func background() throws(SimulatedDeviceError) {
        catchUp()
        guard phase.isForeground else { throw .appNotInForeground(phase) }
        enterBackground()
    }

    /// The person returns to the app (background → inactive → active). Changes made meanwhile are
    /// reported on the way (rule 1, rule 10).
    /// - Throws: ``SimulatedDeviceError/appNotInBackground(_:)``.
    public func foreground() throws(SimulatedDeviceError) {
        catchUp()
        guard phase == .background else { throw .appNotInBackground(phase) }
        setPhase(.inactive)
        for entry in subsystems { entry.subsystem.appWillEnterForeground() }
        setPhase(.active)
        for entry in subsystems { entry.subsystem.appDidBecomeActive() }
    }

    /// The app's process ends: the person swipes it away, or it crashes (iOS reclaiming it is
    /// ``reclaimApp()``). Its managers stop.
    /// - Throws: ``SimulatedDeviceError/appNotRunning``.
    public func terminate() throws(SimulatedDeviceError) {
        catchUp()
        guard phase != .notRunning else { throw .appNotRunning }
        dismissAlert()
        for entry in subsystems { entry.subsystem.appWillTerminate() }
        setPhase(.notRunning)
        record(.appTerminated)
    }

    /// iOS ends the app in the background to reclaim its memory (rule 35). Unlike the person
    /// swiping it away, this may relaunch it: see ``SimulatedWalkLocation/startRelaunchMonitoring()``.
    /// - Throws: ``SimulatedDeviceError/appNotInBackground(_:)``: iOS reclaims only a backgrounded app.
    public func reclaimApp() throws(SimulatedDeviceError) {
        catchUp()
        guard phase == .background else { throw .appNotInBackground(phase) }
        for entry in subsystems { entry.subsystem.appWillTerminate() }
        setPhase(.notRunning)
        record(.appReclaimed)
        for entry in subsystems { entry.subsystem.appWasReclaimed() }
    }

    /// Called with the location manager the app creates when iOS launches it into the background by
    /// itself (rule 35), for the driver to start the app's code there.
    public var onBackgroundLaunch: ((SimulatedLocationManager) -> Void)?

    /// iOS launches the app into the background (not running → background) for `reason`.
    func launchInBackground(reason: String) {
        guard phase == .notRunning else { return }
        record(.appLaunchedInBackground(reason: reason))
        setPhase(.background)
        let manager = location.makeManager()
        onBackgroundLaunch?(manager)
    }

    /// The app opens its own page in Settings (rule 28): active → inactive → background.
    /// - Throws: ``SimulatedDeviceError/appNotInForeground(_:)``.
    public func openSettings() throws(SimulatedDeviceError) {
        catchUp()
        guard phase.isForeground else { throw .appNotInForeground(phase) }
        record(.settingsOpened)
        enterBackground()
    }

    // MARK: System alerts

    /// The person taps `button` on the system alert on screen.
    /// - Throws: ``SimulatedDeviceError/noSystemAlertShowing(tried:)`` or
    ///   ``SimulatedDeviceError/buttonNotOnAlert(_:_:)``.
    public func answerSystemAlert(_ button: SystemAlertButton) throws(SimulatedDeviceError) {
        catchUp()
        guard let presented = presentedAlert else { throw .noSystemAlertShowing(tried: button) }
        guard presented.alert.buttons.contains(button) else { throw .buttonNotOnAlert(button, presented.alert) }
        presentedAlert = nil
        record(.systemAlertAnswered(presented.alert, button))
        presented.onAnswer(button)
        if phase == .inactive { setPhase(.active) }
        // A prompt held back by this alert appears now, not only after a trip to the background.
        for entry in subsystems where presentedAlert == nil { entry.subsystem.systemAlertDidClose() }
    }

    // MARK: Extension points for subsystems (same module)

    /// The registered subsystem of type `S`, made and registered by `make` on first use.
    func subsystem<S: DeviceSubsystem>(_ type: S.Type, make: () -> S) -> S {
        let id = ObjectIdentifier(type)
        if let existing = subsystems.first(where: { $0.id == id })?.subsystem as? S { return existing }
        let made = make()
        subsystems.append((id, made))
        return made
    }

    /// Virtual time of the work being done: a job's deadline while it runs, the clock otherwise.
    var currentElapsed: Duration {
        processingDeadline ?? time.elapsed()
    }

    /// Appends to the log at the current virtual time and tells observers.
    func record(_ event: DeviceEvent) {
        let at = currentElapsed
        let entry = DeviceLogEntry(elapsed: at, date: time.date(at: at), event: event)
        entries.append(entry)
        onEvent?(entry)
        logSubscribers.yield(entry)
    }

    /// Runs `work` after `delay` of virtual time (zero: on the next turn, never inside the caller).
    @discardableResult
    func schedule(after delay: Duration, _ work: @escaping @MainActor () -> Void) -> DeviceScheduler.JobID {
        scheduler.schedule(
            at: currentElapsed + delay,
            time: time,
            wake: { [weak self] in self?.catchUp() },
            work
        )
    }

    /// Shows a system alert: the app becomes inactive until it is answered (rule 4, rule 29).
    /// Returns false (and shows nothing) when another alert is up. `onDismiss` runs when the alert goes
    /// away unanswered because the app left the foreground or ended.
    @discardableResult
    func presentSystemAlert(
        _ alert: SystemAlert,
        onAnswer: @escaping @MainActor (SystemAlertButton) -> Void,
        onDismiss: @escaping @MainActor () -> Void = {}
    ) -> Bool {
        guard presentedAlert == nil else { return false }
        presentedAlert = PresentedAlert(alert: alert, onAnswer: onAnswer, onDismiss: onDismiss)
        record(.systemAlertShown(alert))
        if phase == .active { setPhase(.inactive) }
        return true
    }

    var isShowingSystemAlert: Bool { presentedAlert != nil }

    /// Throws unless Settings can be reached: the person must have left the app.
    func ensureSettingsReachable() throws(SimulatedDeviceError) {
        if phase.isForeground { throw .settingsUnreachableWhileAppInForeground }
    }

    /// Runs every job due at the clock's current time, in (deadline, scheduling) order.
    func catchUp() {
        guard !isCatchingUp else { return }
        isCatchingUp = true
        defer {
            processingDeadline = nil
            isCatchingUp = false
        }
        let now = time.elapsed()
        while let job = scheduler.popDue(at: now) {
            processingDeadline = job.deadline
            job.work()
        }
    }

    // MARK: Private

    private func setPhase(_ next: ScenePhase) {
        guard next != phase else { return }
        let previous = phase
        phase = next
        record(.sceneChanged(from: previous, to: next))
        phaseSubscribers.yield(next)
    }

    private func enterBackground() {
        dismissAlert()
        if phase == .active { setPhase(.inactive) }
        setPhase(.background)
        for entry in subsystems { entry.subsystem.appDidEnterBackground() }
    }

    private func dismissAlert() {
        guard let presented = presentedAlert else { return }
        presentedAlert = nil
        record(.systemAlertDismissed(presented.alert))
        presented.onDismiss()
    }
}

/// The alert on screen and what its owner does when it is answered or goes away unanswered.
private struct PresentedAlert {
    var alert: SystemAlert
    var onAnswer: @MainActor (SystemAlertButton) -> Void
    var onDismiss: @MainActor () -> Void
}
