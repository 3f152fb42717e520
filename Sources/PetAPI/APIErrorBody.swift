/// The body of every error response: `{"error":{"code":…,"parameter":…,"message":…}}`.
public struct APIErrorBody: Codable, Sendable, Equatable {
    public struct Detail: Codable, Sendable, Equatable {
        /// Machine-readable: `invalid_parameter`, `not_found`, `gone`, `method_not_allowed`, `unavailable`, `internal_error`.
        public var code: String
        /// The query parameter at fault, for `invalid_parameter` only.
        public var parameter: String?
        /// A sentence for a person, naming what was wrong and what is allowed.
        public var message: String

        public init(code: String, parameter: String? = nil, message: String) {
            self.code = code
            self.parameter = parameter
            self.message = message
        }
    }

    public var error: Detail

    public init(code: String, parameter: String? = nil, message: String) {
        self.error = Detail(code: code, parameter: parameter, message: message)
    }
}
