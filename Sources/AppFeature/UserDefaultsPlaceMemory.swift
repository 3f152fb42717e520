import Foundation
import PetSpotDomain

/// The chosen place in `UserDefaults`, as JSON: it outlives the app's process and goes with the app
/// (iOS clears an app's defaults on uninstall). A stored value that no longer reads as a place (a
/// release that changed its shape) is forgotten, never a crash.
@MainActor
public final class UserDefaultsPlaceMemory: PlaceMemory {
    private let defaults: UserDefaults
    private let key: String

    /// - Parameters:
    ///   - defaults: where the place is kept; the app's standard defaults by default.
    ///   - key: the defaults key.
    public init(defaults: UserDefaults = .standard, key: String = "petspot.chosenPlace") {
        self.defaults = defaults
        self.key = key
    }

    public var place: Place? {
        get {
            guard let data = defaults.data(forKey: key) else { return nil }
            return try? JSONDecoder().decode(Place.self, from: data)
        }
        set {
            guard let newValue, let data = try? JSONEncoder().encode(newValue) else {
                defaults.removeObject(forKey: key)
                return
            }
            defaults.set(data, forKey: key)
        }
    }
}
