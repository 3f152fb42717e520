import Foundation
import Hummingbird
import NIOCore
import PetAPI
import PetSpotDomain

extension Router where Context == BasicRequestContext {
    /// `GET /api/places` and `GET /api/places/{id}` (docs/api.md, "Places"). Never logged: what a
    /// person types may be their postal code.
    func addPlaceRoutes(places: any PlaceStore) {
        get("/api/places") { request, _ in
            if request.uri.path.hasSuffix("/") {
                return JSONResponse.error(.notFound, code: "not_found", message: "no place with an empty id")
            }
            let parameters = request.uri.queryParameters.map { (name: String($0.key), value: String($0.value)) }
            let query: PlaceQuery
            do {
                query = try PlaceQuery.parse(parameters)
            } catch let error as AnimalQueryError {
                return JSONResponse.error(.badRequest, code: "invalid_parameter", parameter: error.parameter, message: error.message)
            }
            let found = try await places.places(matching: query)
            let body = try PlaceListResponse(places: found.map(PlaceDTO.init)).jsonBytes()
            return JSONResponse.make(body: ByteBuffer(bytes: body), headers: Self.placeHeaders)
        }

        get("/api/places/:id") { _, context in
            let encoded = context.parameters.get("id") ?? ""
            guard let id = encoded.removingPercentEncoding else {
                return JSONResponse.error(
                    .badRequest, code: "invalid_parameter", parameter: "id",
                    message: "the id in the path is not percent-encoded UTF-8 (was \"\(encoded.prefix(128))\")"
                )
            }
            guard !id.isEmpty, !TextRule.hasControl(id), let place = try await places.place(id: id) else {
                return JSONResponse.error(.notFound, code: "not_found", message: "no place with id \"\(id.prefix(128))\"")
            }
            let body = try PlaceResponse(place: PlaceDTO(place)).jsonBytes()
            return JSONResponse.make(body: ByteBuffer(bytes: body), headers: Self.placeHeaders)
        }
    }

    /// The gazetteer changes only with `petspot places import`: an hour in any cache is fine.
    private static var placeHeaders: HTTPFields {
        var headers = HTTPFields()
        headers[.cacheControl] = "public, max-age=3600"
        return headers
    }
}
