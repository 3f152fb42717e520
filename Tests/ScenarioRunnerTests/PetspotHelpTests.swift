import Foundation
import Testing

/// What `--help` says: each option's default once (ArgumentParser prints it; the help text must not
/// say it again).
@Suite(.timeLimit(.minutes(1))) struct PetspotHelpTests {
    @Test(arguments: ["serve", "seed", "import", "appium", "bench scenario"])
    func givenACommandsHelp_whenPrinted_thenNoOptionSaysItsDefaultTwice(command: String) async throws {
        let run = try await PetspotProcess.run(command.split(separator: " ").map(String.init) + ["--help"])
        #expect(run.status == 0)
        // One block per option: from a line starting with "--" (after the indent) to the next.
        var blocks: [String] = []
        for line in run.standardOutput.split(separator: "\n", omittingEmptySubsequences: false) {
            let trimmed = line.drop { $0 == " " }
            if trimmed.hasPrefix("--") || trimmed.hasPrefix("-h") {
                blocks.append(String(trimmed))
            } else if !blocks.isEmpty {
                blocks[blocks.count - 1] += " " + trimmed
            }
        }
        #expect(blocks.contains { $0.hasPrefix("--") })
        for block in blocks {
            let defaults = block.components(separatedBy: "default").count - 1
            #expect(defaults <= 1, "\(command): \(block)")
        }
    }
}
