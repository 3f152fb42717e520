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

    /// Runs `petspot` with `arguments` and returns what it printed once it has exited.
    ///
    /// Nothing here blocks a thread of the cooperative pool (a run of the demo takes seconds, and the
    /// pool has one thread per core): the pipes are read on threads of their own, and the exit is
    /// awaited through the process's termination handler. Cancelling the waiting task ends the child.
    static func run(_ arguments: [String]) async throws -> PetspotProcess {
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
        let exited = AsyncStream<Int32>.makeStream(bufferingPolicy: .bufferingNewest(1))
        process.terminationHandler = { finished in
            exited.continuation.yield(finished.terminationStatus)
            exited.continuation.finish()
        }
        try process.run()
        // Both pipes are read to the end while the child runs, so a full pipe cannot stall it.
        async let outputData = PipeReader.readToEnd(output)
        async let errorData = PipeReader.readToEnd(error)
        let status: Int32 = await withTaskCancellationHandler {
            var statuses = exited.stream.makeAsyncIterator()
            return await statuses.next() ?? -1
        } onCancel: {
            process.terminate()
        }
        return PetspotProcess(
            status: status,
            standardOutput: String(decoding: await outputData, as: UTF8.self),
            standardError: String(decoding: await errorData, as: UTF8.self)
        )
    }
}

/// Reads a pipe to its end on a thread of its own, and hands the bytes back once.
private enum PipeReader {
    static func readToEnd(_ pipe: Pipe) async -> Data {
        let handle = pipe.fileHandleForReading
        let read = AsyncStream<Data>.makeStream(bufferingPolicy: .bufferingNewest(1))
        Thread {
            read.continuation.yield(handle.readDataToEndOfFile())
            read.continuation.finish()
        }.start()
        var iterator = read.stream.makeAsyncIterator()
        return await iterator.next() ?? Data()
    }
}

struct PetspotNotBuilt: Error, CustomStringConvertible {
    var description: String { "the petspot executable was not found next to the tests: run `swift build` first" }
}
