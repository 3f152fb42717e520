import Foundation
import PetSpotDomain

/// One line of a scenario's event log.
public struct LogLine: Sendable, Equatable {
    public enum Source: String, Sendable, Equatable {
        case device
        case app
    }

    /// A field value as it prints.
    public enum Value: Sendable, Equatable {
        case string(String)
        case int(Int)
        case double(Double)
        case bool(Bool)

        var json: String {
            switch self {
            case .string(let string): LogLine.jsonString(string)
            case .int(let int): String(int)
            case .double(let double): String(double)
            case .bool(let bool): bool ? "true" : "false"
            }
        }

        var text: String {
            switch self {
            case .string(let string): string.contains(" ") ? "\"\(string)\"" : string
            case .int(let int): String(int)
            case .double(let double): String(double)
            case .bool(let bool): bool ? "true" : "false"
            }
        }
    }

    /// A pet as the storyboard shows it; not part of the printed log.
    public struct AnimalPreview: Sendable, Equatable {
        public var name: String
        public var species: String
        public var breed: String
        public var city: String
        public var distanceKm: Double?
    }

    public var atMs: Int
    public var source: Source
    public var event: String
    /// Extra fields, in the order they print.
    public var fields: [(String, Value)]
    /// The first pets of a shown listing, for the storyboard.
    public var preview: [AnimalPreview] = []

    public init(atMs: Int, source: Source, event: String, fields: [(String, Value)] = []) {
        self.atMs = atMs
        self.source = source
        self.event = event
        self.fields = fields
    }

    public static func == (lhs: LogLine, rhs: LogLine) -> Bool {
        lhs.jsonLine == rhs.jsonLine && lhs.preview == rhs.preview
    }

    /// The value of field `name`, if present.
    public subscript(field name: String) -> Value? {
        fields.first { $0.0 == name }?.1
    }

    /// `{"atMs": N, "source": "...", "event": "...", ...}` with keys in a fixed order.
    public var jsonLine: String {
        var parts = [
            "\"atMs\":\(atMs)", "\"source\":\(Self.jsonString(source.rawValue))",
            "\"event\":\(Self.jsonString(event))",
        ]
        parts += fields.map { "\(Self.jsonString($0.0)):\($0.1.json)" }
        return "{" + parts.joined(separator: ",") + "}"
    }

    /// `   1.200s  device  systemAlertAnswered  choice=allowWhileUsing`.
    public var textLine: String {
        let seconds = Duration.milliseconds(atMs).secondsText
        let time = String(repeating: " ", count: max(0, 8 - seconds.count)) + seconds
        let source = self.source.rawValue.padding(toLength: 6, withPad: " ", startingAt: 0)
        let fields = self.fields.map { "\($0.0)=\($0.1.text)" }.joined(separator: " ")
        return "\(time)  \(source)  \(event)" + (fields.isEmpty ? "" : "  \(fields)")
    }

    static func jsonString(_ string: String) -> String {
        var out = "\""
        for scalar in string.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case _ where scalar.value < 0x20: out += String(format: "\\u%04x", scalar.value)
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }
}
