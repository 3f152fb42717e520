import Hummingbird
import Logging
import PetAPI

/// Turns every error into a JSON error body: unknown paths become `404 not_found`, anything unexpected
/// `500 internal_error` (logged without the request's query, which may hold coordinates).
struct JSONErrorMiddleware<Context: RequestContext>: RouterMiddleware {
    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        do {
            return try await next(request, context)
        } catch let error as HTTPError {
            let code = error.status == .notFound ? "not_found" : "http_\(error.status.code)"
            let message = error.status == .notFound
                ? "no such resource: \(request.method) \(request.uri.path)"
                : (error.body ?? error.status.reasonPhrase)
            return JSONResponse.error(error.status, code: code, message: message)
        } catch {
            context.logger.error("request failed", metadata: [
                "path": "\(request.uri.path)", "error": "\(String(reflecting: type(of: error)))",
            ])
            return JSONResponse.error(.internalServerError, code: "internal_error", message: "the server could not answer this request")
        }
    }
}
