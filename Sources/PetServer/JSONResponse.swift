import Foundation
import Hummingbird
import NIOCore
import PetAPI

/// Responses with a JSON body in the wire conventions of ``PetAPICoding``.
enum JSONResponse {
    static func make(_ value: some Encodable, status: HTTPResponse.Status = .ok, headers: HTTPFields = HTTPFields()) throws -> Response {
        make(body: ByteBuffer(bytes: try PetAPICoding.makeEncoder().encode(value)), status: status, headers: headers)
    }

    /// A response whose body is already JSON (``AnimalListResponse/jsonBytes()``, a cached page).
    static func make(body: ByteBuffer, status: HTTPResponse.Status = .ok, headers: HTTPFields = HTTPFields()) -> Response {
        var headers = headers
        headers[.contentType] = "application/json; charset=utf-8"
        return Response(status: status, headers: headers, body: ResponseBody(byteBuffer: body))
    }

    static func error(_ status: HTTPResponse.Status, code: String, parameter: String? = nil, message: String) -> Response {
        make(body: errorBytes(code: code, parameter: parameter, message: message), status: status)
    }

    /// The body of ``error(_:code:parameter:message:)``, also for answers written below the router.
    static func errorBytes(code: String, parameter: String? = nil, message: String) -> ByteBuffer {
        let body = APIErrorBody(code: code, parameter: parameter, message: message)
        // Encoding a struct of three strings cannot fail; an empty body if it somehow does.
        return ByteBuffer(bytes: (try? PetAPICoding.makeEncoder().encode(body)) ?? Data())
    }
}
