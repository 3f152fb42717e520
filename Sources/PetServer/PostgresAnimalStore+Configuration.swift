import Foundation
import PetSpotDomain
import PostgresNIO

extension PostgresAnimalStore {
    /// Where and how ``PostgresAnimalStore`` connects, read from a
    /// `postgres://USER[:PASSWORD]@HOST[:PORT]/DATABASE[?sslmode=…&schema=…&pool_size=…]` URL.
    public struct Configuration: Sendable, Equatable {
        /// How the connection is encrypted (the `sslmode` query item, as libpq names it).
        public enum TLSMode: String, Sendable, Equatable, CaseIterable {
            /// Plain TCP.
            case disable
            /// TLS when the server offers it, without verifying its certificate (libpq's default).
            case prefer
            /// TLS or no connection, without verifying the certificate.
            case require
            /// TLS with the certificate verified against the system's trust roots and the host name.
            case verifyFull = "verify-full"
        }

        public static let defaultPort = 5432
        /// Connections one store (one API replica) keeps at most.
        public static let defaultPoolSize = 10

        public var host: String
        public var port: Int
        public var username: String
        public var password: String?
        public var database: String
        public var tls: TLSMode
        /// The schema holding the `pet` table (created when missing).
        public var schema: String
        /// Maximum connections in the pool of this store.
        public var poolSize: Int
        /// How long one store operation (leasing a connection included) may take before it fails.
        public var operationTimeout: Duration
        /// Counts of a nearby or filtered listing stop here (``AnimalPage/totalCountIsExact``); the
        /// server sets it from `--count-cap`.
        public var countCap = AnimalPage.defaultCountCap
        /// Whether the store is opened to write (`import`, `seed`): a read-only database is then refused
        /// at once, not waited for as a server waits on a standby.
        public var forWriting = false
        /// How long a statement may run past its caller's deadline before its connection is closed;
        /// nil: one more ``operationTimeout`` (tests make it short).
        var abandonedStatementGrace: Duration?

        public init(
            host: String, port: Int = defaultPort, username: String, password: String? = nil, database: String,
            tls: TLSMode = .prefer, schema: String = "public", poolSize: Int = defaultPoolSize,
            operationTimeout: Duration = .seconds(30)
        ) {
            self.host = host
            self.port = port
            self.username = username
            self.password = password
            self.database = database
            self.tls = tls
            self.schema = schema
            self.poolSize = poolSize
            self.operationTimeout = operationTimeout
        }

        /// Reads a `postgres://` (or `postgresql://`) URL.
        /// - Throws: ``PostgresAnimalStoreError/invalidURL(_:reason:)`` naming what is wrong (the password is
        ///   never repeated).
        public init(url: String) throws(PostgresAnimalStoreError) {
            let shown = Self.redacting(url)
            func invalid(_ reason: String) -> PostgresAnimalStoreError { .invalidURL(shown, reason: reason) }
            guard let components = URLComponents(string: url), let scheme = components.scheme?.lowercased(),
                  ["postgres", "postgresql"].contains(scheme) else {
                throw invalid("expected postgres://USER@HOST:PORT/DATABASE")
            }
            guard let host = components.host, !host.isEmpty else { throw invalid("the host is missing") }
            guard let user = components.user, !user.isEmpty else { throw invalid("the user name is missing") }
            let path = components.path.hasPrefix("/") ? String(components.path.dropFirst()) : components.path
            guard !path.isEmpty, !path.contains("/") else { throw invalid("the database name is missing") }
            self.init(host: host, port: components.port ?? Self.defaultPort, username: user,
                      password: components.password, database: path)
            guard (1...65_535).contains(port) else { throw invalid("the port must be between 1 and 65535") }
            for item in components.queryItems ?? [] {
                let value = item.value ?? ""
                switch item.name {
                case "sslmode":
                    guard let mode = TLSMode(rawValue: value) else {
                        throw invalid("sslmode must be one of \(TLSMode.allCases.map(\.rawValue).joined(separator: ", "))")
                    }
                    tls = mode
                case "schema":
                    guard Self.isPlainIdentifier(value) else {
                        throw invalid("schema must be a lower-case SQL identifier (letters, digits, _)")
                    }
                    schema = value
                case "pool_size":
                    guard let size = Int(value), (1...1_000).contains(size) else {
                        throw invalid("pool_size must be a whole number between 1 and 1000")
                    }
                    poolSize = size
                default:
                    throw invalid("unknown parameter \"\(item.name)\" (known: sslmode, schema, pool_size)")
                }
            }
        }

        /// The URL without its password, for messages and logs.
        public var displayURL: String {
            "postgres://\(username)@\(host.contains(":") ? "[\(host)]" : host):\(port)/\(database)"
        }

        static func isPlainIdentifier(_ name: String) -> Bool {
            guard let first = name.unicodeScalars.first, name.unicodeScalars.count <= 63,
                  CharacterSet.lowercaseLetters.contains(first) || first == "_" else { return false }
            return name.unicodeScalars.allSatisfy { ("a"..."z").contains($0) || ("0"..."9").contains($0) || $0 == "_" }
        }

        /// `url` with any password replaced by `***`.
        static func redacting(_ url: String) -> String {
            guard var components = URLComponents(string: url), components.password != nil else { return url }
            components.password = "***"
            return components.string ?? "the given URL"
        }

        func connectionTLS() throws -> PostgresConnection.Configuration.TLS {
            var unverified = TLSConfiguration.makeClientConfiguration()
            unverified.certificateVerification = .none
            return switch tls {
            case .disable: .disable
            case .prefer: .prefer(try NIOSSLContext(configuration: unverified))
            case .require: .require(try NIOSSLContext(configuration: unverified))
            case .verifyFull: .require(try NIOSSLContext(configuration: .makeClientConfiguration()))
            }
        }

        var clientTLS: PostgresClient.Configuration.TLS {
            var unverified = TLSConfiguration.makeClientConfiguration()
            unverified.certificateVerification = .none
            return switch tls {
            case .disable: .disable
            case .prefer: .prefer(unverified)
            case .require: .require(unverified)
            case .verifyFull: .require(.makeClientConfiguration())
            }
        }

        /// Settings every session of the store gets. No statement outlives the operation timeout: the
        /// server ends it, which is what bounds a query postgres-nio cannot cancel. No JIT: PostGIS
        /// costs `ST_DWithin` so high that every nearby query passed the JIT threshold and spent
        /// about 200 ms compiling a plan that runs in one.
        var startupParameters: [(String, String)] {
            let milliseconds = operationTimeout.wholeMilliseconds
            return [("statement_timeout", "\(milliseconds)"), ("jit", "off"), ("application_name", "petspot")]
        }

        func connectionConfiguration() throws -> PostgresConnection.Configuration {
            var configuration = PostgresConnection.Configuration(
                host: host, port: port, username: username, password: password, database: database, tls: try connectionTLS()
            )
            configuration.options.connectTimeout = .seconds(10)
            configuration.options.additionalStartupParameters = startupParameters
            return configuration
        }

        var clientConfiguration: PostgresClient.Configuration {
            var configuration = PostgresClient.Configuration(
                host: host, port: port, username: username, password: password, database: database, tls: clientTLS
            )
            configuration.options.maximumConnections = poolSize
            // The trap: with a minimum of 1, a kept idle connection whose keep-alive fails can trip a
            // precondition of postgres-nio's pool. At 0, requests queued when a connection closes wait
            // for the next lease or release instead (vapor/postgres-nio#657): at once under load.
            configuration.options.minimumConnections = 0
            configuration.options.connectTimeout = .seconds(10)
            configuration.options.additionalStartupParameters = startupParameters
            return configuration
        }
    }
}
