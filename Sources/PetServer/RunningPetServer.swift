import AsyncSupport
import Foundation
import Hummingbird
import Logging
import ServiceLifecycle
import PetSpotDomain

/// A pets server running in this process (for `petspot run`, tests and benchmarks).
public struct RunningPetServer: Sendable {
    /// `http://host:port` of the running server.
    public let baseURL: URL
    public let port: Int
    private let group: ServiceGroup
    private let task: Task<Void, any Error>

    init(baseURL: URL, port: Int, group: ServiceGroup, task: Task<Void, any Error>) {
        self.baseURL = baseURL
        self.port = port
        self.group = group
        self.task = task
    }

    /// Shuts the server down gracefully (open requests finish) and waits until it has stopped. When
    /// the calling task is cancelled, the server is cancelled too (open requests are cut short), so
    /// that the wait ends: a task's result does not end on its waiter's cancellation by itself.
    public func stop() async {
        await group.triggerGracefulShutdown()
        await withTaskCancellationHandler {
            _ = await task.result
        } onCancel: {
            task.cancel()
        }
    }
}

/// Starts the server of ``buildApplication(configuration:onServerRunning:)`` in the background and
/// returns once it accepts connections. With `port: 0` a free port is chosen; read it from
/// ``RunningPetServer/baseURL``.
public func startPetServer(configuration: PetServerConfiguration) async throws -> RunningPetServer {
    let bound = PortSignal()
    let app = try await buildApplication(configuration: configuration) { port in
        await bound.resolve(.success(port))
    }
    let logger = configuration.makeLogger()
    let group = ServiceGroup(configuration: .init(services: [app], gracefulShutdownSignals: [], logger: logger))
    let task = Task {
        do {
            try await group.run()
            await bound.resolve(.failure(PetServerStartError.stoppedBeforeListening))
        } catch {
            await bound.resolve(.failure(error))
            throw error
        }
    }
    let port: Int
    do {
        port = try await bound.value()
    } catch {
        task.cancel()
        _ = await task.result
        throw error
    }
    let host = configuration.host.contains(":") ? "[\(configuration.host)]" : configuration.host
    guard let url = URL(string: "http://\(host):\(port)") else {
        task.cancel()
        _ = await task.result
        throw PetServerStartError.invalidHost(configuration.host)
    }
    return RunningPetServer(baseURL: url, port: port, group: group, task: task)
}

/// Why ``startPetServer(configuration:)`` failed.
public enum PetServerStartError: Error, Equatable, Sendable {
    case stoppedBeforeListening
    case invalidHost(String)
}

/// Delivers the bound port (or the start failure) exactly once to whoever waits for it.
private actor PortSignal {
    private var result: Result<Int, any Error>?
    private let waiters = Waiters<Result<Int, any Error>>()

    func resolve(_ outcome: Result<Int, any Error>) {
        guard result == nil else { return }
        result = outcome
        waiters.resumeAll(returning: outcome)
    }

    /// The port, or the start failure; `CancellationError` when the waiting task is cancelled.
    func value() async throws -> Int {
        if let result { return try result.get() }
        return try await waiters.wait(cancelled: .failure(CancellationError())).get()
    }
}
