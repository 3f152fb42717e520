import AsyncSupport
import Foundation
import PetSpotDomain

/// An `AnimalRepositoryProtocol` over a list in memory. It records every query, can fail on demand,
/// and can hold queries until released, so tests decide exactly when a query completes.
public actor InMemoryAnimalRepository: AnimalRepositoryProtocol {
    /// Thrown when a failure was asked for with ``failNextFetches(_:)``.
    public struct StubbedFailure: Error, Equatable, CustomStringConvertible {
        public var description: String { "the listing server answered 503 Service Unavailable" }
        public init() {}
    }

    private var animals: [Animal]
    private var failuresToServe = 0
    private var holding = false
    /// Held queries, and tasks waiting for one to be held; a cancelled task leaves either at once.
    private let held = Waiters<Void>()
    private let holdWaiters = Waiters<Void>()
    private var running = 0

    /// The location of every query, in the order they started.
    public private(set) var queriedLocations: [UserLocation?] = []
    /// The most queries that ran at the same time.
    public private(set) var maximumConcurrentQueries = 0

    public init(animals: [Animal] = Fixtures.animals) {
        self.animals = animals
    }

    public var queryCount: Int { queriedLocations.count }

    public func setAnimals(_ animals: [Animal]) { self.animals = animals }

    /// The next `count` queries throw ``StubbedFailure``.
    public func failNextFetches(_ count: Int = 1) { failuresToServe = count }

    /// From now on, queries wait until ``releaseHeldFetches()``.
    public func holdFetches() { holding = true }

    /// Lets every waiting query finish, and stops holding new ones.
    public func releaseHeldFetches() {
        holding = false
        held.resumeAll(returning: ())
    }

    /// Returns once a query is being held (or the waiting task is cancelled).
    public func waitForHeldFetch() async {
        if !held.isEmpty { return }
        await holdWaiters.wait(cancelled: ())
    }

    public func fetchAnimals(near location: UserLocation?) async throws -> [Animal] {
        queriedLocations.append(location)
        running += 1
        maximumConcurrentQueries = max(maximumConcurrentQueries, running)
        defer { running -= 1 }
        if holding {
            let ticket = held.join()
            // Told only once this fetch counts as held, so no waiter is ever dropped.
            holdWaiters.resumeAll(returning: ())
            await held.wait(ticket, cancelled: ())
            try Task.checkCancellation()
        }
        if failuresToServe > 0 {
            failuresToServe -= 1
            throw StubbedFailure()
        }
        guard let location else {
            return animals.sorted { $0.publishedAt > $1.publishedAt }
        }
        return animals
            .map { animal in
                var near = animal
                near.distanceKm = Fixtures.distanceKm(from: location.coordinate, to: animal.location)
                return near
            }
            .sorted { ($0.distanceKm ?? 0) < ($1.distanceKm ?? 0) }
    }
}
