import Foundation
import Hummingbird
import NIOCore
import PetAPI

/// Responses with a JSON body in the wire conventions of ``PetAPICoding``.
enum JSONResponse {
    static func make(_ value: some Encodable, status: HTTPResponse.Status = .ok, headers: HTTPFields = HTTPFields()) throws -> Response {
        let data = try PetAPICoding.makeEncoder().encode(value)
        var headers = headers
        headers[.contentType] = "application/json; charset=utf-8"
        return Response(status: status, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(bytes: data)))
    }

    static func error(_ status: HTTPResponse.Status, code: String, parameter: String? = nil, message: String) -> Response {
        let body = APIErrorBody(code: code, parameter: parameter, message: message)
        if let response = try? make(body, status: status) { return response }
        // Encoding a struct of three strings cannot fail; answer with the status alone if it somehow does.
        return Response(status: status)
    }
}
