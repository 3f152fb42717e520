import PetSpotDomain

extension LocationPermissionStatus {
    /// Whether the custom popup pointing to Settings applies to this status (a presentation rule, so
    /// it lives with the screen, not in the domain).
    public var shouldShowCustomPopup: Bool {
        self == .denied || self == .restricted
    }
}
