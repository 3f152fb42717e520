import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// How far a long command is (`seed`, `import`, `explore`, `bench`), on one line of standard error
/// redrawn in place four times a second. Only when standard error is a terminal: pipes, log files and
/// CI see nothing of it, and standard output is never touched.
final class ProgressLine: Sendable {
    private let label: String
    private let total: Int?
    private let started = ContinuousClock.now
    private let shared = Shared()

    /// `@unchecked Sendable`: every field is read and written only while `lock` is held.
    private final class Shared: @unchecked Sendable {
        let lock = NSLock()
        var count = 0
        var phase: String?
        var finished = false
        var drawn = false
    }

    private init(label: String, total: Int?) {
        self.label = label
        self.total = total
    }

    /// Runs `body` with a progress line labelled `label`; `total` makes it count towards a known end.
    static func show<T>(
        _ label: String, total: Int? = nil, on terminal: Bool = standardErrorIsATerminal,
        _ body: (ProgressLine) async throws -> T
    ) async throws -> T {
        let line = ProgressLine(label: label, total: total)
        guard terminal else { return try await body(line) }
        let ticker = Task {
            while !Task.isCancelled {
                line.draw()
                try? await Task.sleep(for: .milliseconds(250))
            }
        }
        defer {
            ticker.cancel()
            line.finish()
        }
        return try await body(line)
    }

    static var standardErrorIsATerminal: Bool { isatty(STDERR_FILENO) == 1 }

    /// One more item (or `count` more) done.
    func advance(by count: Int = 1) {
        shared.lock.withLock { shared.count += count }
    }

    /// What the command is doing now, shown after the label.
    func phase(_ text: String) {
        shared.lock.withLock { shared.phase = text }
    }

    /// The line's text: `seeding demo pets: 120,000 of 1,000,000 (12%), 4 s`.
    static func render(label: String, phase: String?, count: Int, total: Int?, elapsed: Duration) -> String {
        var text = label
        if let phase { text += ": " + phase }
        if let total, total > 0 {
            let percent = min(100, count * 100 / total)
            text += "\(phase == nil ? ":" : ",") \(count.grouped) of \(total.grouped) (\(percent)%)"
        }
        return text + ", \(elapsed.components.seconds) s"
    }

    private func draw() {
        shared.lock.withLock {
            guard !shared.finished else { return }
            let text = Self.render(
                label: label, phase: shared.phase, count: shared.count, total: total, elapsed: ContinuousClock.now - started
            )
            // Return to the line's start and erase it (ANSI "erase in line"), then draw.
            FileHandle.standardError.write(Data(("\r\u{1B}[2K" + text).utf8))
            shared.drawn = true
        }
    }

    private func finish() {
        shared.lock.withLock {
            shared.finished = true
            if shared.drawn { FileHandle.standardError.write(Data("\r\u{1B}[2K".utf8)) }
        }
    }
}

/// A sequence that advances a progress line as it is read.
struct CountedSequence<Base: Sequence & Sendable>: Sequence, Sendable {
    let base: Base
    let line: ProgressLine

    struct Iterator: IteratorProtocol {
        var base: Base.Iterator
        let line: ProgressLine

        mutating func next() -> Base.Element? {
            guard let element = base.next() else { return nil }
            line.advance()
            return element
        }
    }

    func makeIterator() -> Iterator { Iterator(base: base.makeIterator(), line: line) }
}

extension Int {
    /// The number with English thousands separators (`10,000,000`), as the command line writes counts.
    var grouped: String { formatted(.number.locale(Locale(identifier: "en_US"))) }
}
