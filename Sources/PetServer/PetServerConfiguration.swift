import Foundation
import Logging

/// How the server runs: ``buildApplication(configuration:onServerRunning:)``, `petspot serve` and
/// ``startPetServer(configuration:)``.
public struct PetServerConfiguration: Sendable {
    /// The database file used when none is given: `petspot.sqlite` in the current directory.
    public static let defaultDatabasePath = "petspot.sqlite"
    /// Demo animals written into an empty database on first start.
    public static let defaultDemoPetCount = 500

    public var host: String
    /// TCP port; 0 picks a free one (tests, in-process servers).
    public var port: Int
    /// The SQLite file, or a `postgres://` URL (see ``DatabaseAddress``).
    public var database: String
    /// How many demo animals an empty database receives; 0 leaves it empty.
    public var demoPetsWhenEmpty: Int
    public var logLevel: Logger.Level
    /// How many encoded listing pages the server keeps (``ResponseCache``); 0 switches the cache off.
    public var responseCacheEntries: Int
    /// How many bytes of encoded pages the response cache holds at most.
    public var responseCacheBytes: Int
    /// How long the server may answer with the data version it read last (``DataVersionMonitor``):
    /// a change made by another process or replica is seen within this time. Zero reads it every time.
    public var dataVersionInterval: Duration
    /// Where counting stops for a nearby or filtered listing (``AnimalPage/totalCountIsExact``).
    public var countCap: Int
    /// A gazetteer file (``GazetteerFile``) loaded when the database holds no place; nil loads none.
    /// `petspot serve` gives the bundled one (``GazetteerFile/bundled``).
    public var placesWhenEmpty: URL?
    /// Timeouts and the connection limit (``ConnectionLimits``).
    public var connectionLimits: ConnectionLimits

    public static let defaultResponseCacheEntries = 1024
    /// 64 MiB: the default entries at a typical page of 20 pets (about 12 KB) take a fifth of it; pages
    /// of 100 pets fill it at about 500 entries.
    public static let defaultResponseCacheBytes = 64 << 20
    public static let defaultDataVersionInterval = Duration.seconds(1)

    public init(
        host: String = "127.0.0.1",
        port: Int = 8080,
        database: String = defaultDatabasePath,
        demoPetsWhenEmpty: Int = defaultDemoPetCount,
        logLevel: Logger.Level = .info,
        responseCacheEntries: Int = defaultResponseCacheEntries,
        responseCacheBytes: Int = defaultResponseCacheBytes,
        dataVersionInterval: Duration = defaultDataVersionInterval,
        countCap: Int = AnimalPage.defaultCountCap,
        connectionLimits: ConnectionLimits = ConnectionLimits(),
        placesWhenEmpty: URL? = nil
    ) {
        self.host = host
        self.port = port
        self.database = database
        self.demoPetsWhenEmpty = demoPetsWhenEmpty
        self.logLevel = logLevel
        self.responseCacheEntries = responseCacheEntries
        self.responseCacheBytes = responseCacheBytes
        self.dataVersionInterval = dataVersionInterval
        self.countCap = countCap
        self.connectionLimits = connectionLimits
        self.placesWhenEmpty = placesWhenEmpty
    }

    /// The server's logger, at ``logLevel``.
    public func makeLogger() -> Logger {
        Self.logger(level: logLevel)
    }

    /// The server's logger (label `PetServer`), at `level`.
    public static func logger(level: Logger.Level = .info) -> Logger {
        var logger = Logger(label: "PetServer")
        logger.logLevel = level
        return logger
    }
}
