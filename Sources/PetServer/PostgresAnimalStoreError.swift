import PostgresNIO

/// Why ``PostgresAnimalStore`` could not start or answer, in words an operator can act on. Never includes
/// the password.
public enum PostgresAnimalStoreError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The `--database` URL is malformed.
    case invalidURL(String, reason: String)
    /// Nothing answered at the address (refused, unresolvable host, timeout).
    case unreachable(url: String, reason: String)
    /// The server answered but refused the session (password, unknown database or user, TLS).
    case connectionRefused(url: String, reason: String)
    /// The database has no PostGIS and it could not be enabled.
    case postGISMissing(url: String, reason: String)
    /// Creating or upgrading the `pet` table failed.
    case migrationFailed(url: String, reason: String)
    /// An operation did not finish within the configured timeout.
    case timedOut(url: String, after: Duration)
    /// A command that writes (`import`, `seed`) was pointed at a read-only database, a standby.
    case readOnly(url: String)

    public var description: String {
        switch self {
        case .invalidURL(let url, let reason):
            "invalid PostgreSQL URL \(url): \(reason)"
        case .unreachable(let url, let reason):
            "cannot reach PostgreSQL at \(url): \(reason). Is the server running and listening on that host and port?"
        case .connectionRefused(let url, let reason):
            "PostgreSQL at \(url) refused the connection: \(reason)"
        case .postGISMissing(let url, let reason):
            "the database \(url) lacks PostGIS and it could not be enabled (\(reason)). Install PostGIS on the "
                + "database server (Debian: postgresql-15-postgis-3) and run CREATE EXTENSION postgis; as a superuser"
        case .migrationFailed(let url, let reason):
            "cannot create the pets table in \(url): \(reason)"
        case .timedOut(let url, let after):
            "PostgreSQL at \(url) did not answer within \(after)"
        case .readOnly(let url):
            "the database \(url) is read-only (a standby?): it cannot take writes; import and seed into the primary"
        }
    }

    /// The server's own words for `error` (its message, SQLSTATE and hint), or the network failure.
    static func reason(_ error: any Error) -> String {
        guard let error = error as? PSQLError else { return "\(error)" }
        if let info = error.serverInfo, let message = info[.message] {
            var text = message
            if let state = info[.sqlState] { text += " (SQLSTATE \(state))" }
            if let hint = info[.hint] { text += "; hint: \(hint)" }
            return text
        }
        if let underlying = error.underlying { return "\(underlying)" }
        return "\(error.code)"
    }

    /// The SQLSTATE of a server error, if `error` is one.
    static func sqlState(_ error: any Error) -> String? {
        (error as? PSQLError)?.serverInfo?[.sqlState]
    }

    /// Sorts a failure to open a session into "nothing there" and "refused".
    static func connecting(_ error: any Error, url: String) -> PostgresAnimalStoreError {
        if let error = error as? PSQLError, error.serverInfo != nil {
            return .connectionRefused(url: url, reason: reason(error))
        }
        return .unreachable(url: url, reason: reason(error))
    }
}
