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
    /// Held queries and tasks waiting for one to be held, by ticket; a cancelled task's entry is
    /// resumed and removed, so neither kind of wait outlives its task.
    private var held: [Int: CheckedContinuation<Void, Never>] = [:]
    private var holdWaiters: [Int: CheckedContinuation<Void, Never>] = [:]
    private var tickets = 0
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
        let waiting = held.sorted { $0.key < $1.key }
        held.removeAll()
        for query in waiting { query.value.resume() }
    }

    /// Returns once a query is being held (or the waiting task is cancelled).
    public func waitForHeldFetch() async {
        if !held.isEmpty { return }
        await suspend(in: .holdWaiters)
    }

    public func fetchAnimals(near location: UserLocation?) async throws -> [Animal] {
        queriedLocations.append(location)
        running += 1
        maximumConcurrentQueries = max(maximumConcurrentQueries, running)
        defer { running -= 1 }
        if holding {
            await suspend(in: .held) {
                // Taken only once this fetch is registered as held, so no waiter is ever dropped.
                let waiters = self.holdWaiters
                self.holdWaiters.removeAll()
                for waiter in waiters.values { waiter.resume() }
            }
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

    private enum Table: Sendable {
        case held
        case holdWaiters
    }

    /// Parks the calling task in `table` until it is resumed from there or cancelled; `registered`
    /// runs once it is parked (not when the task was already cancelled).
    private func suspend(in table: Table, registered: () -> Void = {}) async {
        tickets += 1
        let ticket = tickets
        await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                if Task.isCancelled {
                    continuation.resume()
                } else {
                    switch table {
                    case .held: held[ticket] = continuation
                    case .holdWaiters: holdWaiters[ticket] = continuation
                    }
                    registered()
                }
            }
        } onCancel: {
            Task { await self.resume(ticket, in: table) }
        }
    }

    private func resume(_ ticket: Int, in table: Table) {
        switch table {
        case .held: held.removeValue(forKey: ticket)?.resume()
        case .holdWaiters: holdWaiters.removeValue(forKey: ticket)?.resume()
        }
    }
}
