import Logging

/// How `petspot serve` (and ``startPetServer(configuration:)``) runs the server.
public struct PetServerConfiguration: Sendable {
    /// The database file used when none is given: `petspot.sqlite` in the current directory.
    public static let defaultDatabasePath = "petspot.sqlite"
    /// Demo animals written into an empty database on first start.
    public static let defaultDemoPetCount = 500

    public var host: String
    /// TCP port; 0 picks a free one (tests, in-process servers).
    public var port: Int
    public var databasePath: String
    /// How many demo animals an empty database receives; 0 leaves it empty.
    public var demoPetsWhenEmpty: Int
    public var logLevel: Logger.Level

    public init(
        host: String = "127.0.0.1",
        port: Int = 8080,
        databasePath: String = defaultDatabasePath,
        demoPetsWhenEmpty: Int = defaultDemoPetCount,
        logLevel: Logger.Level = .info
    ) {
        self.host = host
        self.port = port
        self.databasePath = databasePath
        self.demoPetsWhenEmpty = demoPetsWhenEmpty
        self.logLevel = logLevel
    }
}
