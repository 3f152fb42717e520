import ScenarioRunner

/// The screen as XCUITest's page source: XML of XCUIElementType elements with their name, label,
/// value and state.
enum PageSource {
    static func xml(_ root: AccessibilityElement) -> String {
        var out = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<AppiumAUT>\n"
        write(root, index: 0, depth: 1, into: &out)
        out += "</AppiumAUT>\n"
        return out
    }

    private static func write(_ element: AccessibilityElement, index: Int, depth: Int, into out: inout String) {
        let indent = String(repeating: "  ", count: depth)
        let tag = element.kind.rawValue
        var attributes = [("type", tag), ("name", element.name), ("label", element.label)]
        if let value = element.value { attributes.append(("value", value)) }
        attributes += [
            ("enabled", element.isEnabled ? "true" : "false"), ("visible", "true"),
            ("accessible", element.tap != nil || element.kind == .staticText || element.kind == .cell ? "true" : "false"),
            ("index", String(index)),
        ]
        let text = attributes.map { "\($0.0)=\"\(escape($0.1))\"" }.joined(separator: " ")
        if element.children.isEmpty {
            out += "\(indent)<\(tag) \(text)/>\n"
            return
        }
        out += "\(indent)<\(tag) \(text)>\n"
        for (childIndex, child) in element.children.enumerated() {
            write(child, index: childIndex, depth: depth + 1, into: &out)
        }
        out += "\(indent)</\(tag)>\n"
    }

    private static func escape(_ text: String) -> String {
        var escaped = ""
        for character in text {
            switch character {
            case "&": escaped += "&amp;"
            case "<": escaped += "&lt;"
            case ">": escaped += "&gt;"
            case "\"": escaped += "&quot;"
            case "\n": escaped += "&#10;"
            default: escaped.append(character)
            }
        }
        return escaped
    }
}
