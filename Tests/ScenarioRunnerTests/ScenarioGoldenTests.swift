import Foundation
import ScenarioRunner
import Testing

/// Every scenario file in `Scenarios/` is played by the real command and must print exactly its
/// expected event log (`NAME.expected.jsonl`, rewritten by `scripts/update-golden.sh`).
@Suite(.timeLimit(.minutes(1))) struct ScenarioGoldenTests {
    static let scenarioFiles = BundledScenarios.files

    @Test func givenTheBundledScenarios_whenListed_thenEveryAcceptanceScenarioAndEdgeCaseHasAFile() {
        let names = Set(Self.scenarioFiles.map { $0.deletingPathExtension().lastPathComponent.prefix(5) })
        for story in ["us1-1", "us1-2", "us1-3", "us1-4", "us2-1", "us2-2", "us2-3", "us2-4", "us3-1", "us3-2",
            "us3-3", "us3-4", "us3-5", "us4-1", "us4-2", "us4-3", "us4-4"]
        {
            #expect(names.contains(Substring(story)), "no scenario file for \(story)")
        }
        #expect(Self.scenarioFiles.count(where: { $0.lastPathComponent.hasPrefix("edge-") }) >= 5)
    }

    @Test(arguments: scenarioFiles)
    func givenAScenarioFile_whenPlayedByPetspotRun_thenItPrintsItsExpectedLog(file: URL) async throws {
        let expectedFile = file.deletingPathExtension().appendingPathExtension("expected.jsonl")
        let expected = try String(contentsOf: expectedFile, encoding: .utf8)

        let run = try await PetspotProcess.run(["run", "--scenario", file.path, "--json"])

        #expect(run.status == 0, "\(run.standardError)")
        let actualLines = run.standardOutput.split(separator: "\n", omittingEmptySubsequences: false)
        let expectedLines = expected.split(separator: "\n", omittingEmptySubsequences: false)
        for (index, pair) in zip(actualLines, expectedLines).enumerated() where pair.0 != pair.1 {
            Issue.record("line \(index + 1) differs:\n  expected \(pair.1)\n  actual   \(pair.0)")
            break
        }
        #expect(actualLines.count == expectedLines.count)
        checkStory(file.deletingPathExtension().lastPathComponent, run.standardOutput)
    }

    /// The golden logs are made on the newest iOS. A scenario that does not pin `device.iosVersion` must
    /// tell the same story on iOS 17 (the classic location manager) and iOS 18 (service sessions and
    /// live updates); the one difference allowed is the name of a request iOS ignored, which on
    /// iOS 17 is the manager's call and from iOS 18 the service session that asked (docs/scenarios.md).
    @Test(arguments: [17, 18])
    func givenEveryUnpinnedScenario_whenPlayedOnAnotherIOSVersion_thenItPrintsTheSameLog(version: Int) async throws {
        var played = 0
        for file in Self.scenarioFiles {
            let object = try JSONSerialization.jsonObject(with: Data(contentsOf: file)) as? [String: Any]
            if let device = object?["device"] as? [String: Any], device["iosVersion"] != nil { continue }
            var expected = try String(contentsOf: file.deletingPathExtension().appendingPathExtension("expected.jsonl"), encoding: .utf8)
            if version < 18 {
                expected = expected
                    .replacingOccurrences(of: #""request":"CLServiceSession(whenInUse)""#, with: #""request":"requestWhenInUseAuthorization""#)
                    .replacingOccurrences(of: #""request":"CLServiceSession(always)""#, with: #""request":"requestAlwaysAuthorization""#)
            }

            let run = try await PetspotProcess.run(["run", "--scenario", file.path, "--json", "--ios-version", String(version)])

            #expect(run.status == 0, "\(file.lastPathComponent): \(run.standardError)")
            #expect(run.standardOutput == expected, "\(file.lastPathComponent) differs on iOS \(version)")
            played += 1
        }
        #expect(played >= 38)
    }

    @Test func givenTheScenarioPinnedToIOS18_whenPlayedOnIOS17_thenTheFixStillComesInTheBackgroundAndNothingEndsTheWaitEarly() async throws {
        let file = try #require(Self.scenarioFiles.first { $0.lastPathComponent == "ios18-background-ends-fix-wait.json" })

        let run = try await PetspotProcess.run(["run", "--scenario", file.path, "--json", "--ios-version", "17"])

        #expect(run.status == 0, "\(run.standardError)")
        #expect(!run.standardOutput.contains("locationUnavailable"))
        #expect(run.standardOutput.contains(#"{"atMs":4000,"source":"app","event":"locationObtained""#))
        #expect(run.standardOutput.split(separator: "\n").last?.contains(#""withLocation":true"#) == true)
    }

    @Test func givenTheSameScenario_whenRunTwice_thenBothOutputsAreByteIdentical() async throws {
        let file = try #require(Self.scenarioFiles.first { $0.lastPathComponent.hasPrefix("edge-change-during-query") })

        let first = try await PetspotProcess.run(["run", "--scenario", file.path])
        let second = try await PetspotProcess.run(["run", "--scenario", file.path])

        #expect(first.status == 0)
        #expect(!first.standardOutput.isEmpty)
        #expect(first.standardOutput == second.standardOutput)
    }
}
