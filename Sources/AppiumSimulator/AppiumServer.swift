import Foundation
import Hummingbird
import Logging
import NIOCore

/// The HTTP side of ``AppiumDriver``: every request goes to the driver as it comes (WebDriver routes
/// its commands by method and path, so one responder serves them all, and an unknown path gets
/// WebDriver's `unknown command`, not the router's 404).
struct AppiumResponder: HTTPResponder {
    typealias Context = BasicRequestContext

    let driver: AppiumDriver
    /// Larger bodies are refused: no WebDriver command of the suite sends more than a few kilobytes.
    static let maximumBodySize = 1 << 20

    func respond(to request: Request, context: Context) async throws -> Response {
        let answer: (status: Int, body: JSONValue)
        do {
            let body = try await request.body.collect(upTo: Self.maximumBodySize)
            answer = await driver.handle(method: request.method.rawValue, path: request.uri.path, body: Data(body.readableBytesView))
        } catch {
            let refused = WebDriverError.invalidArgument("the request body is larger than \(Self.maximumBodySize) bytes")
            answer = (refused.status, refused.body)
        }
        var headers = HTTPFields()
        headers[.contentType] = "application/json; charset=utf-8"
        headers[.cacheControl] = "no-cache"
        return Response(
            status: HTTPResponse.Status(code: answer.status),
            headers: headers,
            body: ResponseBody(byteBuffer: ByteBuffer(bytes: answer.body.encoded()))
        )
    }
}

/// The Appium-compatible server of the simulated iPhone, for `petspot appium` and tests.
public func buildAppiumApplication(
    driver: AppiumDriver,
    host: String,
    port: Int,
    logger: Logger,
    onServerRunning: @escaping @Sendable (Int) async -> Void = { _ in }
) -> some ApplicationProtocol {
    Application(
        responder: AppiumResponder(driver: driver),
        configuration: ApplicationConfiguration(address: .hostname(host, port: port), serverName: "PetSpot Appium"),
        onServerRunning: { channel in await onServerRunning(channel.localAddress?.port ?? port) },
        logger: logger
    )
}
