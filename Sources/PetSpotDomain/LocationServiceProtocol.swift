/// Location permission and position, in domain types only.
public protocol LocationServiceProtocol: Sendable {
    /// The current authorization status, answered without blocking.
    var authorizationStatus: LocationPermissionStatus { get async }

    /// Whether Location Services are on for the whole device; when they are off, the status reads
    /// `.denied` whatever the person chose for this app.
    var locationServicesEnabled: Bool { get async }

    /// Asks for "When In Use" permission if it was never asked, and returns the resulting status.
    /// Returns at once when nothing will be asked.
    func requestWhenInUseAuthorization() async -> LocationPermissionStatus

    /// One current location, or nil when it cannot be had (not authorized, no fix in time, error,
    /// cancellation).
    func requestLocation() async -> UserLocation?

    /// A stream of authorization status changes from now on (FR-010). Each call makes a new stream.
    func authorizationStatusUpdates() async -> AsyncStream<LocationPermissionStatus>
}
