/// Where in a JSON document a problem is, for error messages: `$.steps[1].choice` from the root, or
/// `location.lat` within one record. The one way the project names a place in JSON.
public struct JSONPath: Hashable, Sendable, CustomStringConvertible {
    public enum Component: Hashable, Sendable {
        case key(String)
        case index(Int)
    }

    public private(set) var components: [Component]

    /// The document itself (`$`).
    public static let root = JSONPath(components: [])

    public init(components: [Component]) {
        self.components = components
    }

    /// The path a `Decodable` error reports: keys with an integer value are array positions.
    public init(codingPath: [any CodingKey]) {
        components = codingPath.map { key in key.intValue.map(Component.index) ?? .key(key.stringValue) }
    }

    public func appending(_ key: String) -> JSONPath {
        JSONPath(components: components + [.key(key)])
    }

    public func appending(index: Int) -> JSONPath {
        JSONPath(components: components + [.index(index)])
    }

    /// From the root: `$`, `$.steps[1].choice`.
    public var description: String { "$" + relative(leadingDot: true) }

    /// Within the value the path starts from, without `$`: `location.lat`, `[2].name`; empty for the root.
    public var relativeDescription: String { relative(leadingDot: false) }

    private func relative(leadingDot: Bool) -> String {
        var text = ""
        for component in components {
            switch component {
            case .key(let key): text += (text.isEmpty && !leadingDot ? "" : ".") + key
            case .index(let index): text += "[\(index)]"
            }
        }
        return text
    }
}
