import Foundation
import Testing

/// Runs the built `petspot` command, as a person would, and collects what it printed.
struct PetspotProcess {
    var status: Int32
    var standardOutput: String
    var standardError: String

    /// The `petspot` executable next to the test bundle (both are products of the same build).
    static var executable: URL? {
        let directory = Bundle.main.executableURL?.deletingLastPathComponent()
            ?? URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        let candidates = [directory, directory.deletingLastPathComponent()].map { $0.appendingPathComponent("petspot") }
        return candidates.first { FileManager.default.isExecutableFile(atPath: $0.path) }
    }

    static func run(_ arguments: [String]) throws -> PetspotProcess {
        guard let executable else {
            throw PetspotNotBuilt()
        }
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        let output = Pipe()
        let error = Pipe()
        process.standardOutput = output
        process.standardError = error
        try process.run()
        // Read both pipes to the end before waiting, so a full pipe cannot stall the child.
        let errorData = LockedData()
        let errorRead = DispatchSemaphore(value: 0)
        Thread {
            errorData.value = error.fileHandleForReading.readDataToEndOfFile()
            errorRead.signal()
        }.start()
        let outputData = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        errorRead.wait()
        return PetspotProcess(
            status: process.terminationStatus,
            standardOutput: String(decoding: outputData, as: UTF8.self),
            standardError: String(decoding: errorData.value, as: UTF8.self)
        )
    }
}

struct PetspotNotBuilt: Error, CustomStringConvertible {
    var description: String { "the petspot executable was not found next to the tests: run `swift build` first" }
}

/// Data handed from the reader thread to the test once.
final class LockedData: @unchecked Sendable {
    // Safe: every access goes through `lock`.
    private let lock = NSLock()
    private var data: Data?

    var value: Data {
        get { lock.withLock { data ?? Data() } }
        set { lock.withLock { data = newValue } }
    }
}
