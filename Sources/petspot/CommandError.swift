import ArgumentParser
import Foundation

/// Why a command could not do what it was asked. Every command reports failure by throwing: this
/// error, ArgumentParser's `ValidationError` for bad arguments, or `ExitCode` after it has printed a
/// report of its own. ``PetSpotCommand/main()`` prints `Error: …` to standard error and exits with
/// ``exitCode``; nothing else in the tool calls `exit()`.
struct CommandError: Error, CustomStringConvertible {
    var description: String
    /// 1 for a failure; 2 when the input (a scenario file, a plist) is invalid or a scenario step could
    /// not happen.
    var exitCode: Int32

    init(_ description: String, exitCode: Int32 = 1) {
        self.description = description
        self.exitCode = exitCode
    }
}

extension CommandError {
    /// The bytes of the file at `path`, or the error `petspot` prints when it cannot be read.
    static func read(_ path: String) throws(CommandError) -> Data {
        do {
            return try Data(contentsOf: URL(fileURLWithPath: path))
        } catch {
            throw CommandError("cannot read \(path): \(error.localizedDescription)")
        }
    }
}
