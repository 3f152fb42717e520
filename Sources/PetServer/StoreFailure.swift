import Foundation
import GRDB

/// A failure of the SQLite file itself — it may not be written, the disk is full, it is not a database
/// — in words a person can act on, naming the file. Commands that write (`import`, `seed`) print it;
/// the raw engine message is kept at the end.
public enum StoreFailure {
    /// A sentence for `error` when it is such a failure of the database at `database`, else nil.
    public static func describe(_ error: any Error, database: String) -> String? {
        if let error = error as? SQLiteOpenLockError { return error.description }
        guard let error = error as? DatabaseError else { return nil }
        let cause: String
        switch error.resultCode {
        case .SQLITE_FULL:
            cause = "it could not be written: the disk is full"
        case .SQLITE_IOERR:
            cause = "it could not be written: the disk is full, the file may not grow, or the disk failed"
        case .SQLITE_READONLY, .SQLITE_PERM, .SQLITE_AUTH:
            cause = "it may not be written (the file and its folder must be writable by this user)"
        case .SQLITE_CANTOPEN:
            cause = "it cannot be opened (its folder must exist and be writable by this user)"
        case .SQLITE_CORRUPT, .SQLITE_NOTADB:
            cause = "it is damaged or not a PetSpot database"
        case .SQLITE_BUSY, .SQLITE_LOCKED:
            cause = "another process held it locked for longer than the 10 s busy timeout"
        default:
            return nil
        }
        return "the database \(database): \(cause) (SQLite: \(error.message ?? "\(error.resultCode)"))"
    }
}

/// The lock file beside an SQLite database (`<path>.lock`, ``SQLiteAnimalStore``) could not be created
/// or locked.
struct SQLiteOpenLockError: Error, CustomStringConvertible {
    var lockPath: String
    var reason: String

    var description: String {
        "cannot create or lock \(lockPath): \(reason) (the database's folder must be writable by this user)"
    }
}
