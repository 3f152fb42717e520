/// One permission area of the simulated device (Location here; Motion and HealthKit can follow in
/// their own files). The device tells every registered subsystem about the app's lifecycle, in
/// registration order; everything else a subsystem needs is on ``SimulatedDevice``:
/// `record(_:)`, `schedule(after:_:)`, `presentSystemAlert(_:onAnswer:)`, `phase`,
/// `infoPlistKeys`, `ensureSettingsReachable()`, `currentElapsed`, `random`.
@MainActor
protocol DeviceSubsystem: AnyObject {
    /// The app has launched and is active.
    func appDidLaunch()
    /// The app has reached the background.
    func appDidEnterBackground()
    /// The app is coming back: the scene is inactive, `active` follows.
    func appWillEnterForeground()
    /// The app is active again after ``appWillEnterForeground()``.
    func appDidBecomeActive()
    /// The app's process is about to end.
    func appWillTerminate()
    /// iOS ended the app's process to reclaim memory (after ``appWillTerminate()``).
    func appWasReclaimed()
    /// The system alert on screen was answered and no other is up: a prompt held back can show.
    func systemAlertDidClose()
}

extension DeviceSubsystem {
    func appDidLaunch() {}
    func appDidEnterBackground() {}
    func appWillEnterForeground() {}
    func appDidBecomeActive() {}
    func appWillTerminate() {}
    func appWasReclaimed() {}
    func systemAlertDidClose() {}
}
