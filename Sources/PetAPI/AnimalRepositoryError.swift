import Foundation

/// Why ``AnimalRepository`` could not deliver animals.
public enum AnimalRepositoryError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The request never got an HTTP answer (no route, refused, timed out, cancelled by the system).
    case transport(message: String)
    /// The server answered with a non-2xx status; `error` is its error body when it sent one.
    case httpStatus(code: Int, error: APIErrorBody.Detail?)
    /// The answer was not the expected JSON, or an animal in it was invalid.
    case decoding(message: String)

    public var description: String {
        switch self {
        case .transport(let message):
            "could not reach the pets server: \(message)"
        case .httpStatus(let code, let error?):
            "the pets server answered \(code) \(error.code): \(error.message)"
        case .httpStatus(let code, nil):
            "the pets server answered \(code)"
        case .decoding(let message):
            "the pets server's answer could not be read: \(message)"
        }
    }
}
