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
        /// Whether this replica keeps every pet's position in memory (``PostgresPositionIndex``, about
        /// 64 bytes a pet) and answers nearby queries with it, or asks PostGIS each time (the
        /// `position_index` query item, `on` or `off`).
        public var positionIndex: Bool
        /// How long this replica may answer from its copy of every listed pet in memory (the position
        /// index with the rows, ``ReplicaCopy``) without asking the database whether anything changed:
        /// a change is seen within this interval of its commit, and at once by the replica that wrote
        /// it. Zero: every read asks the database. Nil (no `replica_lag_ms` query item): the server's
        /// `--data-version-interval-ms`, zero for a store used as a library. Needs the position index.
        public var replicaLag: Duration?
        /// The longest `replica_lag_ms` taken: clients accept a minute of staleness already
        /// (`Cache-Control: max-age=60`).
        public static let maximumReplicaLag = Duration.seconds(60)
        /// How many entries of the position log a write keeps (tests make it small).
        var keptLogEntries = 100_000
        /// How long work whose caller gave up may keep its connection before the connection is closed;
        /// nil: one more ``operationTimeout`` (tests make it zero).
        var abandonedWorkGrace: Duration?

        public init(
            host: String, port: Int = defaultPort, username: String, password: String? = nil, database: String,
            tls: TLSMode = .prefer, schema: String = "public", poolSize: Int = defaultPoolSize,
            operationTimeout: Duration = .seconds(30), positionIndex: Bool = true
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
            self.positionIndex = positionIndex
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
                case "position_index":
                    guard let on = ["on": true, "off": false][value] else { throw invalid("position_index must be on or off") }
                    positionIndex = on
                case "replica_lag_ms":
                    let most = Int(Self.maximumReplicaLag.wholeMilliseconds)
                    guard let milliseconds = Int(value), (0...most).contains(milliseconds) else {
                        throw invalid("replica_lag_ms must be a whole number of milliseconds between 0 and \(most)")
                    }
                    replicaLag = .milliseconds(milliseconds)
                default:
                    throw invalid("unknown parameter \"\(item.name)\" (known: sslmode, schema, pool_size, position_index, replica_lag_ms)")
                }
            }
            if let replicaLag, replicaLag > .zero, !positionIndex {
                throw invalid("replica_lag_ms needs position_index=on: the copy in memory is the position index with the rows")
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

        /// Server-side limits every session of the store gets: no statement outlives the operation timeout.
        var startupParameters: [(String, String)] {
            let milliseconds = operationTimeout.wholeMilliseconds
            return [("statement_timeout", "\(milliseconds)"), ("application_name", "petspot")]
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
