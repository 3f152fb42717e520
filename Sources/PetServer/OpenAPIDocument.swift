import Foundation

/// The OpenAPI 3.1 description of the pets API (`Resources/openapi.yaml`), served at `GET /openapi.yaml`
/// and read by the tests, which check it against `docs/api.md`. Keep it in step with `AnimalQuery` and
/// `AnimalRoutes`.
enum OpenAPIDocument {
    /// The document's text.
    ///
    /// The file ships inside this target's resource bundle, so a missing one means a broken build or
    /// install, not a request the server could answer: stopping with its name is the honest outcome.
    static let yaml: String = {
        guard let url = Bundle.module.url(forResource: "openapi", withExtension: "yaml"),
            let text = try? String(contentsOf: url, encoding: .utf8)
        else {
            preconditionFailure("PetServer's resource openapi.yaml is missing from its bundle")
        }
        return text
    }()
}
