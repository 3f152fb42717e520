/// What one target of an XcodeGen `project.yml` links: the SDK frameworks it names and the products of
/// Swift packages it depends on.
///
/// It reads the small part of YAML a `project.yml` uses for this — block mappings and lists by
/// indentation, `key: value` scalars, `#` comments — and nothing more (no flow collections, anchors or
/// multi-line scalars in a target's `dependencies`); what it cannot read it refuses, naming the line.
public struct XcodeGenTarget: Sendable, Equatable {
    /// One entry of the target's `dependencies`.
    public enum Dependency: Sendable, Hashable {
        /// `- sdk: HealthKit.framework`
        case sdk(String)
        /// `- package: PetSpot` with `product: AppUI`
        case product(package: String, name: String)
        /// Anything else (`target:`, `framework:`, `carthage:`…), by its kind and value.
        case other(kind: String, value: String)
    }

    public var name: String
    public var dependencies: [Dependency]

    /// The SDK frameworks it names, without `.framework` (`HealthKit`).
    public var sdkFrameworks: [String] {
        dependencies.compactMap {
            guard case .sdk(let file) = $0 else { return nil }
            return file.hasSuffix(".framework") ? String(file.dropLast(".framework".count)) : file
        }
    }

    /// The package products it links, by name.
    public var products: [String] {
        dependencies.compactMap {
            guard case .product(_, let name) = $0 else { return nil }
            return name
        }
    }

    public init(name: String, dependencies: [Dependency]) {
        self.name = name
        self.dependencies = dependencies
    }

    /// Reads target `name` from the text of a `project.yml`.
    /// - Throws: ``XcodeGenError`` when there is no such target or its dependencies cannot be read.
    public init(named name: String, in text: String) throws(XcodeGenError) {
        let lines = Self.meaningfulLines(of: text)
        guard let targets = lines.firstIndex(where: { $0.indent == 0 && $0.text == "targets:" }) else {
            throw .noTargets
        }
        let body = Self.block(after: targets, in: lines)
        guard let childIndent = body.first?.indent,
            let header = lines.indices.first(where: {
                $0 > targets && $0 <= targets + body.count && lines[$0].indent == childIndent && lines[$0].text == "\(name):"
            })
        else {
            throw .noSuchTarget(name, known: Self.keys(in: body))
        }
        let target = Self.block(after: header, in: lines)
        self.name = name
        guard let entriesIndent = target.first?.indent,
            let list = target.firstIndex(where: { $0.indent == entriesIndent && $0.text == "dependencies:" })
        else {
            dependencies = []
            return
        }
        dependencies = try Self.dependencies(in: Self.block(after: list, in: target))
    }

    /// A non-blank, non-comment line: its number (1-based), indentation and text without the comment.
    struct Line {
        var number: Int
        var indent: Int
        var text: String
    }

    static func meaningfulLines(of text: String) -> [Line] {
        text.split(separator: "\n", omittingEmptySubsequences: false).enumerated().compactMap { index, raw in
            var content = Substring(raw)
            // A comment starts at a `#` at the line's start or after a space (YAML's rule).
            if let hash = content.indices.first(where: {
                content[$0] == "#" && ($0 == content.startIndex || content[content.index(before: $0)] == " ")
            }) {
                content = content[..<hash]
            }
            let indent = content.prefix(while: { $0 == " " }).count
            let trimmed = content.trimmingTrailingSpaces().dropFirst(indent)
            return trimmed.isEmpty ? nil : Line(number: index + 1, indent: indent, text: String(trimmed))
        }
    }

    /// The lines indented deeper than `lines[index]`, up to the next line that is not.
    static func block(after index: Int, in lines: [Line]) -> [Line] {
        let indent = lines[index].indent
        return Array(lines[(index + 1)...].prefix(while: { $0.indent > indent }))
    }

    static func keys(in block: [Line]) -> [String] {
        guard let indent = block.first?.indent else { return [] }
        return block.filter { $0.indent == indent && $0.text.hasSuffix(":") }.map { String($0.text.dropLast()) }
    }

    static func dependencies(in block: [Line]) throws(XcodeGenError) -> [Dependency] {
        guard let itemIndent = block.first?.indent else { return [] }
        var entries: [[String: String]] = []
        for line in block {
            let isItem = line.indent == itemIndent && line.text.hasPrefix("- ")
            let pair = isItem ? String(line.text.dropFirst(2)) : line.text
            guard let (key, value) = keyValue(pair) else { throw .unreadable(line: line.number, line.text) }
            if isItem {
                entries.append([key: value])
            } else if line.indent > itemIndent, !entries.isEmpty {
                entries[entries.count - 1][key] = value
            } else {
                throw .unreadable(line: line.number, line.text)
            }
        }
        return entries.map { entry in
            if let sdk = entry["sdk"] { return .sdk(sdk) }
            if let package = entry["package"] { return .product(package: package, name: entry["product"] ?? package) }
            let kind = entry.keys.sorted().first ?? ""
            return .other(kind: kind, value: entry[kind] ?? "")
        }
    }

    /// `key: value`, with the value unquoted.
    static func keyValue(_ text: String) -> (String, String)? {
        guard let colon = text.firstIndex(of: ":") else { return nil }
        let key = text[..<colon].trimmingTrailingSpaces()
        var value = Substring(text[text.index(after: colon)...]).drop(while: { $0 == " " }).trimmingTrailingSpaces()
        if value.count >= 2, let first = value.first, first == "\"" || first == "'", value.last == first {
            value = value.dropFirst().dropLast()
        }
        // A flow collection (`[A, B]`, `{…}`) is more than this reader understands: refused, never
        // half-read.
        guard !key.isEmpty, !value.isEmpty, value.first != "[", value.first != "{" else { return nil }
        return (String(key), String(value))
    }
}

/// Why a target of a `project.yml` could not be read.
public enum XcodeGenError: Error, Sendable, Equatable, CustomStringConvertible {
    case noTargets
    case noSuchTarget(String, known: [String])
    case unreadable(line: Int, String)

    public var description: String {
        switch self {
        case .noTargets:
            "no top-level `targets:`"
        case .noSuchTarget(let name, let known):
            "no target \(name) under `targets:` (targets: \(known.isEmpty ? "none" : known.joined(separator: ", ")))"
        case .unreadable(let line, let text):
            "line \(line): cannot read dependency entry `\(text)` (expected `- kind: value` and `key: value` lines)"
        }
    }
}

extension Substring {
    fileprivate func trimmingTrailingSpaces() -> Substring {
        var end = endIndex
        while end > startIndex, self[index(before: end)] == " " || self[index(before: end)] == "\t" || self[index(before: end)] == "\r" {
            end = index(before: end)
        }
        return self[startIndex..<end]
    }
}
