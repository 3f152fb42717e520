/// The OpenAPI 3.1 description of the pets API, served at `GET /openapi.yaml`. Keep it in step with
/// `PetQuery`, `PetRoutes` and `docs/api.md`.
enum OpenAPIDocument {
    static let yaml = """
        openapi: 3.1.0
        info:
          title: PetSpot pets API
          version: 1.0.0
          description: |
            Animals offered for adoption, optionally near a point. Distances are great-circle (haversine,
            mean Earth radius 6371.0088 km), correct across the antimeridian and near the poles.
            Unknown query parameters are ignored; when a parameter repeats, its first value counts.
        servers:
          - url: http://127.0.0.1:8080
        paths:
          /api/pets:
            get:
              operationId: listPets
              summary: List animals, nearest first when coordinates are given, newest first otherwise.
              description: |
                With lat and lon: only animals within radiusKm, ordered by distance, ties broken by id, each
                with distanceKm. Without: every animal, newest publishedAt first, ties broken by id,
                distanceKm null. A page past the end returns an empty animals array.
              parameters:
                - name: near
                  in: query
                  style: form
                  explode: true
                  description: |
                    The point to search around and the radius, sent as the plain query items lat, lon and
                    radiusKm (`?lat=52.23&lon=21.01&radiusKm=25`): lat and lon come together, radiusKm only
                    with them. Latitude and longitude in decimal degrees, finite; radius in kilometres.
                  schema:
                    type: object
                    required: [lat, lon]
                    properties:
                      lat: {type: number, minimum: -90, maximum: 90}
                      lon: {type: number, minimum: -180, maximum: 180}
                      radiusKm: {type: number, minimum: 1, maximum: 500, default: 50}
                - name: limit
                  in: query
                  description: Animals per page.
                  schema: {type: integer, minimum: 1, maximum: 100, default: 20}
                - name: page
                  in: query
                  description: 1-based page number.
                  schema: {type: integer, minimum: 1, maximum: 9223372036854775807, default: 1}
                - name: cursor
                  in: query
                  description: |
                    The listing without coordinates: continue after the page that returned this
                    pagination.nextCursor (keyset paging, as cheap on the thousandth page as on the first).
                    It is a position: the publication time in seconds since 1970 as a decimal number, ~,
                    and an id. It takes the place of page; a nearby listing (lat and lon) ignores it.
                  schema: {type: string, pattern: "^-?[0-9]+([.][0-9]+)?([eE][-+]?[0-9]+)?~[^\\\\u0000-\\\\u001F\\\\u007F]{1,128}$"}
                - $ref: "#/components/parameters/IfNoneMatch"
              responses:
                "200":
                  description: One page of animals.
                  headers:
                    ETag: {$ref: "#/components/headers/ETag"}
                    Cache-Control: {$ref: "#/components/headers/CacheControl"}
                  content:
                    application/json:
                      schema: {$ref: "#/components/schemas/PetList"}
                "304": {$ref: "#/components/responses/NotModified"}
                "400":
                  description: A parameter is malformed, out of range, or missing its partner.
                  content:
                    application/json:
                      schema: {$ref: "#/components/schemas/Error"}
          /api/pets/{id}:
            get:
              operationId: getPet
              summary: One animal by id.
              parameters:
                - name: id
                  in: path
                  required: true
                  schema: {type: string}
                - $ref: "#/components/parameters/IfNoneMatch"
              responses:
                "200":
                  description: The animal (distanceKm is null).
                  headers:
                    ETag: {$ref: "#/components/headers/ETag"}
                    Cache-Control: {$ref: "#/components/headers/CacheControl"}
                  content:
                    application/json:
                      schema: {$ref: "#/components/schemas/Animal"}
                "304": {$ref: "#/components/responses/NotModified"}
                "404":
                  description: No animal has this id.
                  content:
                    application/json:
                      schema: {$ref: "#/components/schemas/Error"}
          /health:
            get:
              operationId: health
              summary: Liveness check.
              responses:
                "200":
                  description: The server is up.
                  content:
                    application/json:
                      schema:
                        type: object
                        required: [status]
                        properties:
                          status: {type: string, const: ok}
          /openapi.yaml:
            get:
              operationId: openAPI
              summary: This document.
              responses:
                "200":
                  description: OpenAPI 3.1 document.
                  content:
                    application/yaml: {}
        components:
          parameters:
            IfNoneMatch:
              name: If-None-Match
              in: header
              description: ETag of a copy the client holds; when it is still current the answer is 304.
              schema: {type: string}
          headers:
            ETag:
              description: Strong tag of the data version and the request; changes whenever pets are added.
              schema: {type: string}
            CacheControl:
              description: "public, max-age=60, stale-while-revalidate=60"
              schema: {type: string}
          responses:
            NotModified:
              description: The copy named by If-None-Match is current; no body.
              headers:
                ETag: {$ref: "#/components/headers/ETag"}
                Cache-Control: {$ref: "#/components/headers/CacheControl"}
          schemas:
            PetList:
              type: object
              required: [animals, pagination]
              properties:
                animals:
                  type: array
                  items: {$ref: "#/components/schemas/Animal"}
                pagination: {$ref: "#/components/schemas/Pagination"}
            Pagination:
              type: object
              required: [page, limit, totalCount, totalPages]
              properties:
                page: {type: integer, minimum: 1}
                limit: {type: integer, minimum: 1, maximum: 100}
                totalCount: {type: integer, minimum: 0, description: Matches over all pages.}
                totalPages: {type: integer, minimum: 0, description: "ceil(totalCount / limit)"}
                nextCursor:
                  type: string
                  description: Listing without coordinates only; the cursor of the next page, absent on the last page.
            Animal:
              type: object
              required: [id, name, species, breed, sex, ageMonths, description, photoURL, shelter, location, publishedAt, distanceKm]
              properties:
                id: {type: string}
                name: {type: string}
                species: {type: string, enum: [dog, cat, rabbit, bird, other]}
                breed: {type: string}
                sex: {type: string, enum: [female, male, unknown]}
                ageMonths: {type: integer, minimum: 0}
                description: {type: string}
                photoURL: {type: [string, "null"], format: uri}
                shelter:
                  type: object
                  required: [name, city]
                  properties:
                    name: {type: string}
                    city: {type: string}
                location:
                  type: object
                  required: [lat, lon]
                  properties:
                    lat: {type: number, minimum: -90, maximum: 90}
                    lon: {type: number, minimum: -180, maximum: 180}
                publishedAt: {type: string, format: date-time}
                distanceKm:
                  type: [number, "null"]
                  minimum: 0
                  description: Kilometres from lat/lon when they were given; null otherwise.
            Error:
              type: object
              required: [error]
              properties:
                error:
                  type: object
                  required: [code, message]
                  properties:
                    code: {type: string, enum: [invalid_parameter, not_found, method_not_allowed, internal_error]}
                    parameter: {type: string, description: The offending query parameter (invalid_parameter only).}
                    message: {type: string, description: What was wrong and the allowed range.}
        """
}
