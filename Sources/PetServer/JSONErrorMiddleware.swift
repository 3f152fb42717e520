import Hummingbird
import Logging
import PetAPI

/// Turns every error into a JSON error body: unknown paths become `404 not_found`, a method a path does
/// not answer `405 method_not_allowed` with `Allow`, a database that cannot answer just now
/// `503 unavailable` with `Retry-After` (``StoreUnavailability``), anything unexpected
/// `500 internal_error` (logged without the request's query, which may hold coordinates).
struct JSONErrorMiddleware<Context: RequestContext>: RouterMiddleware {
    /// Every path of the API answers GET, and HEAD, which the router derives from every GET route
    /// (docs/api.md).
    static func allowedMethods(forPath path: String) -> [HTTPRequest.Method]? {
        let parts = path.split(separator: "/", omittingEmptySubsequences: true)
        switch parts.count {
        case 1 where parts[0] == "health" || parts[0] == "openapi.yaml": return [.get, .head]
        case 2 where parts[0] == "api" && (parts[1] == "pets" || parts[1] == "places"): return [.get, .head]
        case 3 where parts[0] == "api" && (parts[1] == "pets" || parts[1] == "places"): return [.get, .head]
        default: return nil
        }
    }

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        do {
            return try await next(request, context)
        } catch let error as HTTPError {
            if error.status == .notFound, let allowed = Self.allowedMethods(forPath: request.uri.path), !allowed.contains(request.method) {
                return Self.methodNotAllowed(request, allowed: allowed)
            }
            let code = error.status == .notFound ? "not_found" : "http_\(error.status.code)"
            let message = error.status == .notFound
                ? "no such resource: \(request.method) \(request.uri.path)"
                : (error.body ?? error.status.reasonPhrase)
            return JSONResponse.error(error.status, code: code, message: message)
        } catch where StoreUnavailability.isTemporary(error) {
            context.logger.warning("database unavailable", metadata: [
                "path": "\(request.uri.path)", "error": "\(String(reflecting: type(of: error)))",
            ])
            var response = JSONResponse.error(
                .serviceUnavailable, code: "unavailable", message: "the database cannot answer just now; try again shortly"
            )
            response.headers[.retryAfter] = "1"
            return response
        } catch {
            context.logger.error("request failed", metadata: [
                "path": "\(request.uri.path)", "error": "\(String(reflecting: type(of: error)))",
            ])
            return JSONResponse.error(.internalServerError, code: "internal_error", message: "the server could not answer this request")
        }
    }

    private static func methodNotAllowed(_ request: Request, allowed: [HTTPRequest.Method]) -> Response {
        let names = allowed.map(\.rawValue).joined(separator: ", ")
        var response = JSONResponse.error(
            .methodNotAllowed, code: "method_not_allowed",
            message: "\(request.uri.path) answers \(names) only, not \(request.method)"
        )
        response.headers[.allow] = names
        return response
    }
}
