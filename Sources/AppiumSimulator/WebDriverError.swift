/// An error as the W3C WebDriver protocol (and Appium) answers it: an error code, the HTTP status
/// the protocol gives that code, and a message for the person reading the test's output.
public struct WebDriverError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The protocol's error code (`no such element`, `invalid argument`, …).
    public var code: String
    public var message: String

    public init(_ code: String, _ message: String) {
        self.code = code
        self.message = message
    }

    /// The HTTP status of `code` (W3C WebDriver, "Errors").
    public var status: Int {
        switch code {
        case "element click intercepted", "element not interactable", "invalid argument", "invalid element state",
            "invalid selector":
            400
        case "invalid session id", "no such alert", "no such element", "stale element reference", "unknown command":
            404
        case "unknown method": 405
        default: 500
        }
    }

    /// The response body: `{"value": {"error", "message", "stacktrace"}}`.
    public var body: JSONValue {
        .object(["value": .object(["error": .string(code), "message": .string(message), "stacktrace": .string("")])])
    }

    public var description: String { "\(code): \(message)" }

    static func invalidArgument(_ message: String) -> Self { Self("invalid argument", message) }
    static func unknownCommand(_ method: String, _ path: String) -> Self {
        Self("unknown command", "The requested resource could not be found, or a request was received using an HTTP method that is not supported by the mapped resource: \(method) \(path)")
    }
    static func noSuchElement(_ using: String, _ value: String) -> Self {
        Self("no such element", "An element could not be located on the page using the given search parameters (\(using) '\(value)').")
    }
    static func staleElement(_ id: String) -> Self {
        Self("stale element reference", "The element '\(id)' is no longer on the screen.")
    }
    static let noSuchAlert = Self("no such alert", "An attempt was made to operate on a modal dialog when one was not open.")
}
