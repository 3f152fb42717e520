import Foundation
import Testing

/// `petspot seed`: a count out of range is refused by name, before any database is opened.
@Suite(.timeLimit(.minutes(1))) struct PetspotSeedCommandTests {
    @Test(arguments: [
        ("-5", "--demo must be at least 1, got -5"),
        ("0", "--demo must be at least 1, got 0"),
        ("99999999999", "--demo must be at most 10,000,000, got 99999999999; nothing was written"),
    ])
    func givenADemoCountOutOfRange_whenSeeding_thenExit64NamingItAndNoDatabaseIsMade(count: String, message: String) async throws {
        let database = FileManager.default.temporaryDirectory.appendingPathComponent("seed-\(UUID().uuidString).sqlite")
        defer { try? FileManager.default.removeItem(at: database) }

        let run = try await PetspotProcess.run(["seed", "--demo", count, "--database", database.path])

        #expect(run.status == 64)
        #expect(run.standardError.contains(message), "\(run.standardError)")
        #expect(!FileManager.default.fileExists(atPath: database.path))
    }

    @Test func givenStandardErrorIsAPipe_whenSeedingAndImporting_thenNoProgressLineIsDrawn() async throws {
        let database = FileManager.default.temporaryDirectory.appendingPathComponent("seed-\(UUID().uuidString).sqlite")
        defer { try? FileManager.default.removeItem(at: database) }
        let sample = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("docs/sample-pets.json")

        let seed = try await PetspotProcess.run(["seed", "--demo", "2000", "--database", database.path])
        let imported = try await PetspotProcess.run(["import", sample.path, "--database", database.path])

        #expect(seed.status == 0 && imported.status == 0, "\(seed.standardError)\(imported.standardError)")
        #expect(seed.standardOutput.contains("added 2000 of 2000 demo pets"))
        #expect(imported.standardOutput.contains("imported 4 records"))
        // The line is drawn only on a terminal: nothing of it reaches a pipe.
        #expect(seed.standardError.isEmpty, "\(seed.standardError)")
        #expect(imported.standardError.isEmpty, "\(imported.standardError)")
    }
}
