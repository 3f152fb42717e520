import Foundation
import Logging
@testable import PetServer
import PostgresNIO
import Testing

/// The PostgreSQL server the tests use: `PETSPOT_POSTGRES_URL` (scripts/with-postgres.sh starts a
/// throwaway one and sets it). Without it the PostgreSQL tests are skipped with a message, except on CI
/// (`CI=true`), where they run and fail, so that CI can never skip them silently.
enum PostgresTestDatabase {
    static let variable = "PETSPOT_POSTGRES_URL"

    static var url: String? {
        guard let value = ProcessInfo.processInfo.environment[variable], !value.isEmpty else { return nil }
        return value
    }

    static var isCI: Bool {
        ["true", "1", "yes"].contains(ProcessInfo.processInfo.environment["CI"]?.lowercased() ?? "")
    }

    /// Run when there is a server, and on CI always (where a missing server is a failure).
    static var shouldRun: Bool { url != nil || isCI }

    static let skipMessage: Comment =
        "PostgreSQL tests skipped: PETSPOT_POSTGRES_URL is not set (run `scripts/with-postgres.sh swift test`)"

    struct NotConfigured: Error, CustomStringConvertible {
        var description: String {
            "CI=true but PETSPOT_POSTGRES_URL is not set: on CI the PostgreSQL tests must run; wrap the test "
                + "command as `scripts/with-postgres.sh swift test`"
        }
    }

    /// The server's configuration, for the schema `public`.
    static func configuration() throws -> PostgresAnimalStore.Configuration {
        guard let url else { throw NotConfigured() }
        return try PostgresAnimalStore.Configuration(url: url)
    }

    /// A store in a new, empty schema of its own, dropped after `body`.
    static func withFreshStore<Result: Sendable>(_ body: (PostgresAnimalStore) async throws -> Result) async throws -> Result {
        var configuration = try configuration()
        configuration.schema = uniqueName("petspot_test")
        do {
            let result = try await PostgresAnimalStore.withStore(configuration) { try await body($0) }
            try await execute(#"DROP SCHEMA "\#(configuration.schema)" CASCADE"#)
            return result
        } catch {
            try? await execute(#"DROP SCHEMA "\#(configuration.schema)" CASCADE"#)
            throw error
        }
    }

    /// A lower-case identifier that no other test uses.
    static func uniqueName(_ prefix: String) -> String {
        prefix + "_" + UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "")
    }

    /// Runs SQL statements one by one as the configured (administrator) user, in `database` or the
    /// configured one.
    static func execute(_ statements: String..., database: String? = nil) async throws {
        try await execute(statements, database: database)
    }

    /// Runs `statements` one by one on one connection, as the configured (administrator) user.
    static func execute(_ statements: [String], database: String? = nil) async throws {
        let base = try configuration()
        let connection = try await PostgresConnection.connect(
            configuration: PostgresConnection.Configuration(
                host: base.host, port: base.port, username: base.username, password: base.password,
                database: database ?? base.database, tls: .disable
            ),
            id: 1,
            logger: Logger(label: "PetServerTests.Postgres")
        )
        do {
            for statement in statements {
                try await connection.query(PostgresQuery(unsafeSQL: statement), logger: Logger(label: "PetServerTests.Postgres"))
            }
        } catch {
            try? await connection.close()
            throw error
        }
        try await connection.close()
    }
}
