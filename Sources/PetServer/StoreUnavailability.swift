import GRDB
import PostgresNIO

/// Which store failures mean "the database cannot answer just now" — it is restarting, unreachable, or
/// another writer holds SQLite's lock past the busy timeout — rather than a fault of the request or the
/// server. The API answers those 503 with `Retry-After` (docs/api.md), never 500: the client may simply
/// try again, and an operator sees the database, not the server, named.
enum StoreUnavailability {
    static func isTemporary(_ error: any Error) -> Bool {
        switch error {
        case let error as PostgresAnimalStoreError:
            switch error {
            case .timedOut, .unreachable: return true
            case .invalidURL, .connectionRefused, .postGISMissing, .migrationFailed, .readOnly: return false
            }
        case let error as PSQLError:
            if error.code == .connectionError || error.code == .serverClosedConnection || error.code == .uncleanShutdown
                || error.code == .clientClosedConnection || error.code == .poolClosed
            {
                return true
            }
            // Class 08: connection exception; 57P01–57P03: the server shuts down or cannot connect now;
            // 40001 and 40P01 on a standby: a query cancelled by a conflict with recovery (the replay
            // needed what it read or held), which the next try passes. (57P04, the database was
            // dropped, will not pass by waiting.)
            guard let state = error.serverInfo?[.sqlState] else { return false }
            return state.hasPrefix("08") || ["57P01", "57P02", "57P03", "40001", "40P01"].contains(state)
        case let error as DatabaseError:
            return error.resultCode == .SQLITE_BUSY || error.resultCode == .SQLITE_LOCKED
        default:
            return false
        }
    }
}
