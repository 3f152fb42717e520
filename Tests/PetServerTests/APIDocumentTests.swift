import Foundation
@testable import PetServer
import Testing

/// `docs/api.md` and the OpenAPI document (`Sources/PetServer/Resources/openapi.yaml`, the one the
/// server serves) describe the same operations: the same parameters, statuses and headers.
///
/// From the page, the table under "Operations at a glance": one row per operation, its parameters,
/// statuses and headers. From the document, per operation: its query and path parameters (the object
/// parameter `near` stands for its properties), the keys under `responses:`, and its header parameters
/// and response headers (those of a referenced response too). The parameter table of
/// `GET /api/pets` must list the same parameters as the glance table. A failure lists, per operation,
/// what one side names and the other lacks.
@Suite struct APIDocumentTests {
    struct Operation: Equatable {
        var parameters: Set<String> = []
        var statuses: Set<String> = []
        var headers: Set<String> = []
    }

    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    static func read(_ path: String) throws -> String {
        try String(contentsOf: root.appendingPathComponent(path), encoding: .utf8)
    }

    /// The operations the page's glance table lists, by "GET /path".
    static func documented(_ page: String) -> [String: Operation] {
        var operations: [String: Operation] = [:]
        guard let table = page.components(separatedBy: "## Operations at a glance").dropFirst().first else { return [:] }
        for row in table.split(separator: "\n").prefix(while: { !$0.hasPrefix("#") }) where row.hasPrefix("| `") {
            let cells = row.split(separator: "|", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
            guard cells.count >= 5 else { continue }
            let names = { (cell: String) in Set(cell.matches(of: /`([^`]+)`/).map { String($0.1) }) }
            let statuses = Set(cells[3].split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty })
            operations[names(cells[1]).first ?? cells[1]] = Operation(
                parameters: names(cells[2]), statuses: statuses, headers: names(cells[4])
            )
        }
        return operations
    }

    /// The operations the OpenAPI document declares, by "GET /path", read by indentation (the
    /// document's own layout: paths at 2 spaces, methods at 4, their keys at 6).
    static func declared(_ yaml: String) -> [String: Operation] {
        let lines = yaml.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        func indent(_ line: String) -> Int { line.prefix { $0 == " " }.count }
        func key(_ line: String) -> String {
            // A status may be written `"200":`, `'200':` or `200:`.
            String(line.drop { $0 == " " || $0 == "-" }.prefix { $0 != ":" }).trimmingCharacters(in: CharacterSet(charactersIn: "\"' "))
        }
        // The lines nested under line `start`.
        func block(after start: Int) -> ArraySlice<String> {
            let base = indent(lines[start])
            let end = lines[(start + 1)...].firstIndex { !$0.trimmingCharacters(in: .whitespaces).isEmpty && indent($0) <= base } ?? lines.endIndex
            return lines[(start + 1)..<end]
        }
        // What a `$ref: "#/components/<kind>/<Name>"` on this line points to: the lines under
        // `components:` → `<kind>:` → `<Name>:`; nothing when the line has no such reference or the
        // document lacks its target.
        func referenced(_ line: String) -> ArraySlice<String> {
            guard let start = line.range(of: "\"#/components/") else { return [] }
            let path = line[start.upperBound...].prefix { $0 != "\"" }.split(separator: "/").map(String.init)
            guard path.count == 2,
                let components = lines.firstIndex(where: { indent($0) == 0 && key($0) == "components" }),
                let kind = block(after: components).firstIndex(where: { indent($0) == 2 && key($0) == path[0] }),
                let name = block(after: kind).firstIndex(where: { indent($0) == 4 && key($0) == path[1] })
            else { return [] }
            return block(after: name)
        }
        // An operation's response headers: the keys under each `headers:`, and those of each
        // referenced response. A reference that leads nowhere is named, so that the comparison fails.
        func headers(in slice: ArraySlice<String>) -> Set<String> {
            var found: Set<String> = []
            for (offset, line) in zip(slice.indices, slice) where key(line) == "headers" {
                found.formUnion(block(after: offset).filter { indent($0) == indent(line) + 2 }.map(key))
            }
            for line in slice where line.contains("\"#/components/responses/") {
                let response = referenced(line)
                if response.isEmpty { found.insert("unresolved \(line.trimmingCharacters(in: .whitespaces))") }
                found.formUnion(headers(in: response))
            }
            return found
        }
        var operations: [String: Operation] = [:]
        for (index, line) in lines.enumerated() where indent(line) == 2 && line.trimmingCharacters(in: .whitespaces).hasPrefix("/") {
            for (methodIndex, method) in zip(block(after: index).indices, block(after: index)) where indent(method) == 4 {
                var operation = Operation()
                let body = block(after: methodIndex)
                for (offset, entry) in zip(body.indices, body) where indent(entry) == 6 {
                    let content = block(after: offset)
                    if key(entry) == "parameters" {
                        // Each `- ` entry, inline or referenced; a reference that leads nowhere is named.
                        var items: [ArraySlice<String>] = []
                        for (itemIndex, item) in zip(content.indices, content) where item.trimmingCharacters(in: .whitespaces).hasPrefix("- ") {
                            if item.contains("$ref:") {
                                let parameter = referenced(item)
                                if parameter.isEmpty { operation.parameters.insert("unresolved \(item.trimmingCharacters(in: .whitespaces))") }
                                items.append(parameter)
                            } else {
                                items.append(lines[itemIndex..<block(after: itemIndex).endIndex])
                            }
                        }
                        for item in items where !item.isEmpty {
                            // The entry's own keys (`name`, `in`, ...), not those nested deeper.
                            let fields = Dictionary(item.filter { indent($0) <= indent(item[item.startIndex]) + 2 }.map { (key($0), $0.split(separator: ":", maxSplits: 1).last.map { $0.trimmingCharacters(in: .whitespaces) } ?? "") }, uniquingKeysWith: { first, _ in first })
                            let name = fields["name"] ?? ""
                            if fields["in"] == "header" {
                                operation.headers.insert(name)
                            } else if let start = item.firstIndex(where: { key($0) == "properties" }) {
                                operation.parameters.formUnion(block(after: start).filter { indent($0) == indent(lines[start]) + 2 }.map(key))
                            } else {
                                operation.parameters.insert(name)
                            }
                        }
                    } else if key(entry) == "responses" {
                        operation.statuses.formUnion(content.filter { indent($0) == 8 }.map(key))
                        operation.headers.formUnion(headers(in: content))
                    }
                }
                operations["\(key(method).uppercased()) \(key(line))"] = operation
            }
        }
        return operations
    }

    /// Lines naming what one side lists for an operation and the other lacks; empty when they agree.
    static func differences(_ name: String, page: Operation?, document: Operation?) -> [String] {
        guard let page else { return ["\(name) is in openapi.yaml but not in docs/api.md"] }
        guard let document else { return ["\(name) is in docs/api.md but not in openapi.yaml"] }
        var lines: [String] = []
        for (kind, inPage, inDocument) in [
            ("parameters", page.parameters, document.parameters),
            ("statuses", page.statuses, document.statuses),
            ("headers", page.headers, document.headers),
        ] {
            let notInDocument = inPage.subtracting(inDocument), notInPage = inDocument.subtracting(inPage)
            if !notInDocument.isEmpty { lines.append("\(name): \(kind) \(notInDocument.sorted()) are in docs/api.md but not in openapi.yaml") }
            if !notInPage.isEmpty { lines.append("\(name): \(kind) \(notInPage.sorted()) are in openapi.yaml but not in docs/api.md") }
        }
        return lines
    }

    @Test func givenTheServedDocument_whenRead_thenItIsTheResourceFile() throws {
        #expect(OpenAPIDocument.yaml == (try Self.read("Sources/PetServer/Resources/openapi.yaml")))
    }

    @Test func givenThePageAndTheDocument_whenCompared_thenEveryOperationHasTheSameParametersStatusesAndHeaders() throws {
        let documented = Self.documented(try Self.read("docs/api.md"))
        let declared = Self.declared(OpenAPIDocument.yaml)

        // The scanners found something at all (an empty pair would agree vacuously).
        #expect(!documented.isEmpty && declared["GET /api/pets"]?.parameters.contains("radiusKm") == true)
        let differences = Set(documented.keys).union(declared.keys).sorted().flatMap {
            Self.differences($0, page: documented[$0], document: declared[$0])
        }
        #expect(differences.isEmpty, "docs/api.md and openapi.yaml differ:\n\(differences.joined(separator: "\n"))")
    }

    @Test func givenThePage_whenItsParameterTableIsRead_thenItListsTheGlanceTablesParameters() throws {
        let page = try Self.read("docs/api.md")
        let section = page.components(separatedBy: "| parameter | rule | default |").dropFirst().first ?? ""
        let listed = Set(section.split(separator: "\n").dropFirst().prefix { $0.hasPrefix("|") }.compactMap { $0.firstMatch(of: /^\| `([^`]+)`/).map { String($0.1) } })

        #expect(!listed.isEmpty, "docs/api.md has no parameter table")
        #expect(listed == Self.documented(page)["GET /api/pets"]?.parameters)
    }
}
