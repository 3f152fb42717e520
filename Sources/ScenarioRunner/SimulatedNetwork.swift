import AsyncSupport
import DeviceSimulator
import Foundation
import PetAPI
import PetSpotDomain

/// The phone's network between the app and the real server: it adds virtual latency, can be
/// unreachable, and hands real responses back only when the scenario driver releases them, so
/// that real I/O never decides the order of what the log shows.
@MainActor
final class SimulatedNetwork {
    var latency: Duration
    var reachable: Bool
    /// Real requests still on the wire.
    private(set) var requestsOnTheWire = 0
    /// Answered requests waiting to be handed back, oldest first.
    private let held = Waiters<Void>()
    /// Grows with every change, so the driver can tell activity from quiet.
    private(set) var changes = 0

    init(latency: Duration, reachable: Bool) {
        self.latency = latency
        self.reachable = reachable
    }

    var hasHeldResponses: Bool { !held.isEmpty }

    func requestLeft() {
        requestsOnTheWire += 1
        changes += 1
    }

    /// Called when the real answer arrived; returns when the driver releases it.
    func answerArrived() async {
        requestsOnTheWire -= 1
        changes += 1
        await held.wait(cancelled: ())
    }

    /// Hands the oldest held answer back to the app.
    func releaseOldest() {
        guard let oldest = held.pending.first else { return }
        changes += 1
        held.resume(oldest, returning: ())
    }
}

/// Why the simulated network failed a request.
struct NetworkUnreachable: Error, CustomStringConvertible {
    var description: String { "the network is unreachable" }
}

/// The app's repository as the scenario runs it: the real HTTP client behind the simulated network.
struct SimulatedNetworkRepository: AnimalRepositoryProtocol {
    let client: AnimalRepository
    let network: SimulatedNetwork
    let clock: VirtualClock

    func fetchAnimals(near location: UserLocation?) async throws -> [Animal] {
        try await clock.sleep(for: await network.latency)
        guard await network.reachable else { throw NetworkUnreachable() }
        await network.requestLeft()
        let result: Result<[Animal], any Error>
        do {
            result = .success(try await client.fetchAnimals(near: location))
        } catch {
            result = .failure(error)
        }
        await network.answerArrived()
        return try result.get()
    }
}

extension SimulatedNetworkRepository: PlaceSearching {
    /// Suggestions over the same network: its latency, and unreachable when it is.
    func searchPlaces(_ text: String, limit: Int) async throws -> [Place] {
        try await clock.sleep(for: await network.latency)
        guard await network.reachable else { throw NetworkUnreachable() }
        await network.requestLeft()
        let result: Result<[Place], any Error>
        do {
            result = .success(try await client.searchPlaces(text, limit: limit))
        } catch {
            result = .failure(error)
        }
        await network.answerArrived()
        return try result.get()
    }
}
