/// Where the listing comes from.
public protocol AnimalRepositoryProtocol: Sendable {
    /// Animals near `location`, nearest first; all animals, newest first, when `location` is nil.
    func fetchAnimals(near location: UserLocation?) async throws -> [Animal]
}
