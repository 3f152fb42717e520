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
/// `GET /api/pets` must list the same parameters as the glance table.
@Suite struct APIDocumentTests {
    struct Operation: Equatable, CustomStringConvertible {
        var parameters: Set<String> = []
        var statuses: Set<String> = []
        var headers: Set<String> = []

        var description: String {
            "parameters \(parameters.sorted()), statuses \(statuses.sorted()), headers \(headers.sorted())"
        }
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
            String(line.drop { $0 == " " || $0 == "-" }.prefix { $0 != ":" }).trimmingCharacters(in: CharacterSet(charactersIn: "\" "))
        }
        // A referenced response's headers, and the referenced parameter's name and place.
        func block(after start: Int) -> ArraySlice<String> {
            let base = indent(lines[start])
            let end = lines[(start + 1)...].firstIndex { !$0.trimmingCharacters(in: .whitespaces).isEmpty && indent($0) <= base } ?? lines.endIndex
            return lines[(start + 1)..<end]
        }
        func component(_ reference: String) -> ArraySlice<String> {
            let name = reference.split(separator: "/").last.map(String.init) ?? reference
            guard let start = lines.firstIndex(where: { indent($0) == 4 && key($0) == name }) else { return [] }
            return block(after: start)
        }
        func headers(in slice: ArraySlice<String>) -> Set<String> {
            var found: Set<String> = []
            for (offset, line) in zip(slice.indices, slice) where key(line) == "headers" {
                found.formUnion(block(after: offset).filter { indent($0) == indent(line) + 2 }.map(key))
            }
            for line in slice where line.contains("$ref: \"#/components/responses/") {
                let reference = line.split(separator: "\"").dropFirst().first.map(String.init) ?? ""
                found.formUnion(headers(in: component(reference)))
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
                        var items: [ArraySlice<String>] = []
                        for (itemIndex, item) in zip(content.indices, content) where item.trimmingCharacters(in: .whitespaces).hasPrefix("- ") {
                            if item.contains("$ref:") {
                                items.append(component(item.split(separator: "\"").dropFirst().first.map(String.init) ?? ""))
                            } else {
                                items.append(lines[itemIndex..<block(after: itemIndex).endIndex])
                            }
                        }
                        for item in items {
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

    @Test func givenTheServedDocument_whenRead_thenItIsTheResourceFile() throws {
        #expect(OpenAPIDocument.yaml == (try Self.read("Sources/PetServer/Resources/openapi.yaml")))
    }

    @Test func givenThePageAndTheDocument_whenCompared_thenEveryOperationHasTheSameParametersStatusesAndHeaders() throws {
        let documented = Self.documented(try Self.read("docs/api.md"))
        let declared = Self.declared(OpenAPIDocument.yaml)

        #expect(!declared.isEmpty && declared["GET /api/pets"]?.parameters.contains("radiusKm") == true)
        #expect(Set(documented.keys) == Set(declared.keys), "operations: docs/api.md \(documented.keys.sorted()), document \(declared.keys.sorted())")
        for (name, operation) in declared.sorted(by: { $0.key < $1.key }) {
            #expect(documented[name] == operation, "\(name): docs/api.md says \(documented[name].map(String.init(describing:)) ?? "nothing"); the document, \(operation)")
        }
    }

    @Test func givenThePage_whenItsParameterTableIsRead_thenItListsTheGlanceTablesParameters() throws {
        let page = try Self.read("docs/api.md")
        let rows = page.split(separator: "\n").filter { $0.hasPrefix("| `") && page.range(of: "| parameter | rule | default |") != nil }
        let section = page.components(separatedBy: "| parameter | rule | default |").dropFirst().first ?? ""
        let listed = Set(section.split(separator: "\n").dropFirst().prefix { $0.hasPrefix("|") }.compactMap { $0.firstMatch(of: /^\| `([^`]+)`/).map { String($0.1) } })

        #expect(!rows.isEmpty)
        #expect(listed == Self.documented(page)["GET /api/pets"]?.parameters)
    }
}
