import Foundation
import Hummingbird
import Logging
import NIOCore
import PetAPI
import PetSpotDomain

/// The routes of the pets API. Every handler answers JSON; see `docs/api.md`. `versions` gives the data
/// version the `ETag`s are made of; `cache` keeps encoded listing pages per data version.
func buildRouter(
    store: any AnimalStore, versions: DataVersionMonitor<some Clock<Duration>>, cache: ResponseCache
) -> Router<BasicRequestContext> {
    // HEAD of every GET route: the GET's status and headers, no body.
    let router = Router(context: BasicRequestContext.self, options: .autoGenerateHeadEndpoints)
    router.middlewares.add(JSONErrorMiddleware())

    router.get("/health") { _, _ in
        try JSONResponse.make(["status": "ok"])
    }

    router.get("/openapi.yaml") { _, _ in
        var headers = HTTPFields()
        headers[.contentType] = "application/yaml; charset=utf-8"
        return Response(status: .ok, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(string: OpenAPIDocument.yaml)))
    }

    router.get("/api/pets") { request, context in
        // `/api/pets/` is the pet with an empty id, which no pet has — not the listing.
        if request.uri.path.hasSuffix("/") {
            return JSONResponse.error(.notFound, code: "not_found", message: "no pet with an empty id")
        }
        let parameters = request.uri.queryParameters.map { (name: String($0.key), value: String($0.value)) }
        let query: AnimalQuery
        do {
            query = try AnimalQuery.parse(parameters)
        } catch let error as AnimalQueryError {
            return JSONResponse.error(.badRequest, code: "invalid_parameter", parameter: error.parameter, message: error.message)
        }
        let key = "/api/pets?" + query.queryItems.map { "\($0.name)=\($0.value)" }.joined(separator: "&")
        let version = try await versions.current()
        let entityTag = HTTPCaching.entityTag(version: version, key: key)
        if HTTPCaching.match(ifNoneMatch: request.headers[.ifNoneMatch], entityTag: entityTag) != .none {
            return HTTPCaching.notModified(entityTag: entityTag)  // a listing always exists
        }
        if let body = cache.body(version: version, path: key) {
            return JSONResponse.make(body: body, headers: HTTPCaching.headers(entityTag: entityTag))
        }
        // The 200's tag and the cache entry name the version read with the page, not the (possibly
        // older) one the 304 check above used: one strong tag never names two bodies.
        let snapshot = try await store.snapshot(matching: query)
        let page = snapshot.page
        let pageTag = HTTPCaching.entityTag(version: snapshot.dataVersion, key: key)
        // At debug level: a line per request at info cost an uncached listing about a tenth of the
        // server's CPU (formatted and written on the request's thread). Never log the coordinates.
        if query.center != nil {
            context.logger.debug("nearby query", metadata: [
                "radiusKm": "\(query.radiusKm)", "count": "\(page.animals.count)", "totalCount": "\(page.totalCount)",
            ])
        } else {
            context.logger.debug("listing query", metadata: ["count": "\(page.animals.count)", "totalCount": "\(page.totalCount)"])
        }
        let response = AnimalListResponse(
            animals: page.animals.map(AnimalDTO.init),
            pagination: .init(
                page: query.page, limit: query.limit, totalCount: page.totalCount, totalCountIsExact: page.totalCountIsExact,
                nextCursor: page.nextCursor?.encoded
            )
        )
        let body = ByteBuffer(bytes: try response.jsonBytes())
        cache.store(body, version: snapshot.dataVersion, path: key)
        return JSONResponse.make(body: body, headers: HTTPCaching.headers(entityTag: pageTag))
    }

    router.get("/api/pets/:id") { request, context in
        // The path segment as sent, decoded once (RFC 3986): an id may hold any character, `/` too.
        let encoded = context.parameters.get("id") ?? ""
        guard let id = encoded.removingPercentEncoding else {
            return JSONResponse.error(
                .badRequest, code: "invalid_parameter", parameter: "id",
                message: "the id in the path is not percent-encoded UTF-8 (was \"\(encoded.prefix(128))\")"
            )
        }
        guard !id.isEmpty else { return JSONResponse.error(.notFound, code: "not_found", message: "no pet with an empty id") }
        // No stored id holds a control character (the import refuses them): such a path names no pet,
        // and must never reach a store that could read the id only up to a NUL.
        guard !TextRule.hasControl(id) else {
            return JSONResponse.error(.notFound, code: "not_found", message: "no pet has an id with a control character")
        }
        let entityTag = HTTPCaching.entityTag(version: try await versions.current(), key: "/api/pets/" + id)
        let match = HTTPCaching.match(ifNoneMatch: request.headers[.ifNoneMatch], entityTag: entityTag)
        if match == .tag { return HTTPCaching.notModified(entityTag: entityTag) }  // no lookup needed
        // The pet, or why it left, and the version, from one snapshot: the 200's tag names the version
        // its body was read at (one strong tag, one body), not the older one the check above may use.
        let lookup = try await store.lookup(id: id)
        if match == .any, lookup.animal != nil { return HTTPCaching.notModified(entityTag: entityTag) }
        guard let animal = lookup.animal else {
            if let why = lookup.withdrawal {
                return JSONResponse.error(.gone, code: "gone", message: "pet \"\(id.prefix(128))\" was \(why.rawValue)")
            }
            return JSONResponse.error(.notFound, code: "not_found", message: "no pet with id \"\(id.prefix(128))\"")
        }
        let bodyTag = HTTPCaching.entityTag(version: lookup.dataVersion, key: "/api/pets/" + id)
        return JSONResponse.make(
            body: ByteBuffer(bytes: try AnimalDTO(animal).jsonBytes()), headers: HTTPCaching.headers(entityTag: bodyTag)
        )
    }
    if let places = store as? any PlaceStore { router.addPlaceRoutes(places: places) }
    return router
}
