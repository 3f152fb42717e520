import Foundation
import Localization
import PetSpotDomain
import ScenarioRunner

/// The simulated iPhone behind the subset of the W3C WebDriver protocol and of the Appium XCUITest
/// driver's commands that the E2E suite uses (docs/e2e.md lists them).
///
/// One session at a time, as one phone runs one XCUITest session. The phone's time follows `clock`
/// (the wall clock under `petspot appium`, because an Appium client waits in real time): a pump moves
/// it on every few milliseconds, and every command first brings it up to now. Commands and the pump
/// take turns — the run underneath is driven by one caller at a time.
@MainActor
public final class AppiumDriver {
    private let serverURL: URL
    private let time: SessionTime
    private var session: Session?
    /// The end of the queue of commands: each waits for the one before it.
    private var queueTail: Task<Void, Never>?

    /// - Parameters:
    ///   - serverURL: the listing server the app asks.
    ///   - clock: the time the phone follows.
    public init<C: Clock<Duration>>(serverURL: URL, clock: C) {
        self.serverURL = serverURL
        self.time = SessionTime(clock)
    }

    /// A driver whose phone follows the wall clock.
    public convenience init(serverURL: URL) {
        self.init(serverURL: serverURL, clock: ContinuousClock())
    }

    /// Answers one WebDriver request: the HTTP status and the JSON body.
    public func handle(method: String, path: String, body: Data) async -> (status: Int, body: JSONValue) {
        do {
            let value = try await route(method: method.uppercased(), path: Self.segments(path), body: body)
            return (200, .object(["value": value]))
        } catch {
            return (error.status, error.body)
        }
    }

    /// Ends the session, if any (the server is stopping).
    public func shutdown() async {
        if let session { await end(session) }
    }

    // MARK: Routing

    private static func segments(_ path: String) -> [String] {
        var parts = path.split(separator: "?", maxSplits: 1).first.map { $0.split(separator: "/").map(String.init) } ?? []
        // Appium 1's base path, still what many clients are configured with.
        if parts.starts(with: ["wd", "hub"]) { parts.removeFirst(2) }
        return parts
    }

    private func route(method: String, path: [String], body: Data) async throws(WebDriverError) -> JSONValue {
        let request = try Self.json(body, method: method)
        switch (method, path) {
        case ("GET", ["status"]):
            return .object([
                "ready": .bool(session == nil),
                "message": .string(session == nil ? "The simulated iPhone is ready for a session." : "A session is running."),
                "build": .object(["version": .string("petspot"), "automationName": .string("XCUITest")]),
            ])
        case ("POST", ["session"]):
            return try await newSession(request)
        case (_, ["status"]), (_, ["session"]):
            throw WebDriverError("unknown method", "\(method) is not supported on /\(path.joined(separator: "/"))")
        case (_, let path) where path.first == "session" && path.count >= 2:
            let session = try self.session(path[1])
            return try await serialized { [self] () throws(WebDriverError) -> JSONValue in
                // A command queued behind the session's DELETE finds it gone.
                guard self.session === session else { throw WebDriverError("invalid session id", "the session '\(session.id)' has ended") }
                return try await sessionCommand(session, method: method, path: Array(path.dropFirst(2)), request: request)
            }
        default:
            throw .unknownCommand(method, "/" + path.joined(separator: "/"))
        }
    }

    private static func json(_ body: Data, method: String) throws(WebDriverError) -> JSONValue {
        guard method == "POST" else { return .object([:]) }
        if body.isEmpty || body.allSatisfy({ $0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09 }) { return .object([:]) }
        do {
            let value = try JSONDecoder().decode(JSONValue.self, from: body)
            guard value.object != nil else { throw WebDriverError.invalidArgument("the body must be a JSON object") }
            return value
        } catch let error as WebDriverError {
            throw error
        } catch {
            throw .invalidArgument("the body is not valid JSON")
        }
    }

    private func session(_ id: String) throws(WebDriverError) -> Session {
        guard let session, session.id == id else {
            throw WebDriverError("invalid session id", "A session is either terminated or not started (no session '\(id)')")
        }
        return session
    }

    /// Runs `body` after every command before it has finished.
    private func serialized<T: Sendable>(
        _ body: @escaping @MainActor () async throws(WebDriverError) -> T
    ) async throws(WebDriverError) -> T {
        let previous = queueTail
        let task = Task { @MainActor () -> Result<T, WebDriverError> in
            await previous?.value
            do throws(WebDriverError) {
                return .success(try await body())
            } catch {
                return .failure(error)
            }
        }
        queueTail = Task { _ = await task.value }
        return try await task.value.get()
    }

    // MARK: Sessions

    private func newSession(_ request: JSONValue) async throws(WebDriverError) -> JSONValue {
        guard session == nil else {
            throw WebDriverError(
                "session not created",
                "the simulated iPhone runs one session at a time, and one is running; end it with DELETE /session/{id}"
            )
        }
        let capabilities = try SessionCapabilities.parse(request)
        let run = ScenarioRun.interactive(
            app: capabilities.app,
            device: capabilities.device,
            network: capabilities.network,
            serverURL: serverURL,
            localizer: capabilities.localizer
        )
        let session = Session(
            id: UUID().uuidString.lowercased(), bundleID: capabilities.app.bundleIdentifier, run: run, time: time.starting())
        // Held before the first await, so that a second `POST /session` meanwhile is refused.
        self.session = session
        if capabilities.autoLaunch {
            do {
                _ = try await serialized { () throws(WebDriverError) -> Bool in
                    try await session.launch()
                    return true
                }
            } catch {
                // The client never learns this session's id: it must not hold the phone.
                await end(session)
                throw WebDriverError("session not created", "the app could not be launched: \(error.message)")
            }
        }
        session.pump = Task { [weak self] in
            while !Task.isCancelled {
                do {
                    try await session.time.sleep(.milliseconds(20))
                } catch {
                    return
                }
                guard let self else { return }
                _ = try? await serialized { () throws(WebDriverError) -> Bool in
                    await session.syncTime()
                    return true
                }
            }
        }
        var echoed = capabilities.echoed
        echoed["platformName"] = .string("iOS")
        return .object(["sessionId": .string(session.id), "capabilities": .object(echoed)])
    }

    private func end(_ session: Session) async {
        session.pump?.cancel()
        session.pump = nil
        if self.session === session { self.session = nil }
    }

    private func sessionCommand(
        _ session: Session,
        method: String,
        path: [String],
        request: JSONValue
    ) async throws(WebDriverError) -> JSONValue {
        await session.syncTime()
        // Element commands name the element in the path: `element/{id}/…`, `element/{id}/attribute/{name}`.
        var pattern = path
        let id = path.count >= 2 && path[0] == "element" ? path[1] : ""
        if !id.isEmpty { pattern[1] = "{id}" }
        let attribute = pattern.count == 4 && pattern[2] == "attribute" ? path[3] : ""
        if !attribute.isEmpty { pattern[3] = "{name}" }
        switch (method, pattern.joined(separator: "/")) {
        case ("DELETE", ""):
            await end(session)
            return .null
        case ("GET", ""):
            return .object(["platformName": .string("iOS"), "automationName": .string("XCUITest")])
        case ("POST", "timeouts"):
            return try session.setTimeouts(request)
        case ("GET", "timeouts"):
            return .object(["implicit": .int(Int(session.implicitWait.wholeMilliseconds)), "pageLoad": .int(300_000), "script": .int(30_000)])
        case ("POST", "element"):
            return try await session.find(request, under: nil, many: false)
        case ("POST", "elements"):
            return try await session.find(request, under: nil, many: true)
        case ("POST", "element/{id}/element"):
            return try await session.find(request, under: id, many: false)
        case ("POST", "element/{id}/elements"):
            return try await session.find(request, under: id, many: true)
        case ("POST", "element/{id}/click"):
            try await session.click(id)
            return .null
        case ("POST", "element/{id}/value"):
            try await session.sendKeys(id, request)
            return .null
        case ("POST", "element/{id}/clear"):
            try await session.clear(id)
            return .null
        case ("GET", "element/{id}/text"):
            let element = try session.element(id)
            return .string(element.value ?? element.label)
        case ("GET", "element/{id}/displayed"):
            _ = try session.element(id)
            return .bool(true)
        case ("GET", "element/{id}/enabled"):
            return .bool(try session.element(id).isEnabled)
        case ("GET", "element/{id}/name"):
            return .string(try session.element(id).kind.rawValue)
        case ("GET", "element/{id}/attribute/{name}"):
            return try session.attribute(attribute, of: session.element(id))
        case ("GET", "source"):
            return .string(PageSource.xml(session.run.screen))
        case ("GET", "alert/text"):
            guard let alert = session.run.screen.children.first(where: { $0.kind == .alert }) else { throw .noSuchAlert }
            return .string(alert.children.filter { $0.kind == .staticText }.map(\.label).joined(separator: "\n"))
        case ("POST", "alert/accept"):
            try await session.answerAlert(accept: true, label: nil)
            return .null
        case ("POST", "alert/dismiss"):
            try await session.answerAlert(accept: false, label: nil)
            return .null
        case ("POST", "execute/sync"):
            return try await session.execute(request)
        default:
            let route = pattern.joined(separator: "/")
            if let methods = Self.sessionRoutes[route] {
                throw WebDriverError("unknown method", "\(method) is not supported on /session/{id}/\(route); it takes \(methods)")
            }
            throw .unknownCommand(method, "/session/\(session.id)/" + path.joined(separator: "/"))
        }
    }

    /// The session's routes and the methods each takes (for `unknown method`).
    private static let sessionRoutes: [String: String] = [
        "": "GET, DELETE", "timeouts": "GET, POST", "element": "POST", "elements": "POST",
        "element/{id}/element": "POST", "element/{id}/elements": "POST", "element/{id}/click": "POST",
        "element/{id}/value": "POST", "element/{id}/clear": "POST", "element/{id}/text": "GET", "element/{id}/displayed": "GET", "element/{id}/enabled": "GET",
        "element/{id}/name": "GET", "element/{id}/attribute/{name}": "GET", "source": "GET", "alert/text": "GET",
        "alert/accept": "POST", "alert/dismiss": "POST", "execute/sync": "POST",
    ]
}
