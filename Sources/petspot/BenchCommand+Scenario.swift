import ArgumentParser
import Foundation
import ScenarioRunner

extension BenchCommand {
    /// `petspot bench scenario`: how long checking a large scenario file takes, valid and with an error
    /// in its last step (an error is found only once everything before it has been read).
    struct ScenarioCheck: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "scenario",
            abstract: "Median time to check a large scenario file: valid, and with an error in its last step.",
            discussion: """
                Builds a file of --steps steps in memory (a launch, then refreshes 10 ms apart, on one line as \
                generated files are), and checks it --runs times as `petspot run` does before playing it: \
                once as it is, once with its last action misspelt. Fails if the valid file is refused or the \
                broken one is refused anywhere but its last step. Build with -c release for meaningful numbers.
                """
        )

        @Option(help: "Steps in the file (2 to 1,000,000).")
        var steps = 100_000

        @Option(help: "Times each file is checked (at least 1).")
        var runs = 5

        func validate() throws {
            // Steps are 10 ms apart and a file may last at most 24 virtual hours: a million fits.
            guard (2...1_000_000).contains(steps) else { throw ValidationError("--steps must be from 2 to 1,000,000, got \(steps)") }
            guard runs >= 1 else { throw ValidationError("--runs must be at least 1, got \(runs)") }
        }

        func run() throws {
            let valid = Self.file(steps: steps, lastAction: "refresh")
            let broken = Self.file(steps: steps, lastAction: "refreshh")
            let lastStep = "$.steps[\(steps - 1)].action"
            print("scenario file of \(steps) steps, \(valid.count) bytes, checked \(runs) times")
            for (name, data, expectsError) in [("valid", valid, false), ("error in the last step", broken, true)] {
                var times: [Duration] = []
                for _ in 0..<runs {
                    let start = ContinuousClock.now
                    let outcome = Result { () throws(ScenarioFileError) in try Scenario.parse(data) }
                    times.append(ContinuousClock.now - start)
                    switch (outcome, expectsError) {
                    case (.success, false): break
                    case (.failure(let error), true) where error.path == lastStep: break
                    case (.failure(let error), _): throw CommandError("\(name): refused at \(error)", exitCode: 1)
                    case (.success, true): throw CommandError("\(name): accepted a misspelt action", exitCode: 1)
                    }
                }
                let sorted = times.sorted()
                let median = sorted[sorted.count / 2]
                print("  \(name): median \(median.formatted(.units(allowed: [.milliseconds], fractionalPart: .show(length: 1))))")
            }
        }

        /// The file as one line of JSON, as a generator writes it.
        static func file(steps: Int, lastAction: String) -> Data {
            var text = #"{"name": "bench", "steps": [{"atMs": 0, "action": "launch"}"#
            for index in 1..<steps {
                let action = index == steps - 1 ? lastAction : "refresh"
                text += #", {"atMs": \#(index * 10), "action": "\#(action)"}"#
            }
            text += "]}"
            return Data(text.utf8)
        }
    }
}
