#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// How long a client may hold a connection and how many the server holds at once (docs/api.md,
/// "Connections"). Without these bounds one client could stop the server answering: a socket that
/// sends nothing, or a request head sent a byte at a time, was held for ever, and enough of them used
/// up the process's file descriptors.
public struct ConnectionLimits: Sendable, Equatable {
    /// How long a connection may wait, with no request in progress, for the first byte of its next
    /// request (after it opens, and after each answer) before the server closes it.
    public var idleTimeout: Duration
    /// How long a request's head and body may take to arrive, from its first byte to its last.
    public var requestTimeout: Duration
    /// How many client connections the server holds at once. A connection beyond it closes an idle
    /// (or else a slow) one to make room, or is closed itself when every connection is being answered.
    public var maximumConnections: Int

    public static let defaultIdleTimeout = Duration.seconds(60)
    public static let defaultRequestTimeout = Duration.seconds(20)

    /// The longest request line, and the longest single header field, in bytes: a longer URL is a 414,
    /// a longer header a 431.
    public static let maximumHeaderFieldBytes = 16 * 1024
    /// All of a request's header fields together, in bytes, and how many there may be (431 beyond).
    public static let maximumHeaderBytes = 64 * 1024
    public static let maximumHeaderFields = 100

    public init(
        idleTimeout: Duration = defaultIdleTimeout,
        requestTimeout: Duration = defaultRequestTimeout,
        maximumConnections: Int = defaultMaximumConnections()
    ) {
        self.idleTimeout = idleTimeout
        self.requestTimeout = requestTimeout
        self.maximumConnections = maximumConnections
    }

    /// Descriptors kept for everything but client connections (the database's files and connections,
    /// the event loops, the log): a quarter of the limit, at most 1,024.
    public static func reservedDescriptors(openFileLimit: Int) -> Int {
        min(1024, openFileLimit / 4)
    }

    /// The process's open-file limit less ``reservedDescriptors(openFileLimit:)``, so that accepting a
    /// connection never fails for want of a descriptor: when it did, the accept loop retried at full
    /// speed and `/health` stopped answering.
    public static func defaultMaximumConnections(openFileLimit: Int = openFileLimit()) -> Int {
        max(1, openFileLimit - reservedDescriptors(openFileLimit: openFileLimit))
    }

    /// The soft limit on open files (`RLIMIT_NOFILE`); 1,024 if it cannot be read.
    public static func openFileLimit() -> Int {
        var limit = rlimit()
        guard getrlimit(fileLimitResource, &limit) == 0 else { return 1024 }
        return Int(clamping: limit.rlim_cur)
    }

    /// Raises the soft open-file limit to the hard one (at most 1,048,576), as `petspot serve` does
    /// before it listens; returns the soft limit in force afterwards. A connection costs one
    /// descriptor, and the soft limit is often far below what the system allows the process.
    @discardableResult
    public static func raiseOpenFileLimit() -> Int {
        var limit = rlimit()
        guard getrlimit(fileLimitResource, &limit) == 0 else { return openFileLimit() }
        let wanted = min(limit.rlim_max, rlim_t(1 << 20))
        if limit.rlim_cur < wanted {
            limit.rlim_cur = wanted
            _ = setrlimit(fileLimitResource, &limit)
        }
        return openFileLimit()
    }

    #if canImport(Glibc)
    private static let fileLimitResource = __rlimit_resource_t(RLIMIT_NOFILE.rawValue)
    #else
    private static let fileLimitResource = RLIMIT_NOFILE
    #endif
}
