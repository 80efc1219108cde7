import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif

/// Strict XML well-formedness, from Foundation's SAX parser.
///
/// On Linux, `XMLDocument` recovers from errors silently; `XMLParser` reports them through
/// `parserError` even when `parse()` says it succeeded, so both are checked.
enum XMLCheck {
    /// nil when `text` is well-formed XML, else the parser's complaint.
    static func problem(_ text: String) -> String? {
        let parser = XMLParser(data: Data(text.utf8))
        let parsed = parser.parse()
        if parsed, parser.parserError == nil { return nil }
        return "line \(parser.lineNumber), column \(parser.columnNumber): "
            + (parser.parserError.map { "\($0)" } ?? "not well-formed")
    }

    /// The values of every `name="…"` attribute, as written (entities not resolved).
    static func attributeValues(_ name: String, in text: String) -> [String] {
        var values: [String] = []
        var rest = text[...]
        let opening = " \(name)=\""
        while let start = rest.firstRange(of: opening) {
            rest = rest[start.upperBound...]
            guard let end = rest.firstIndex(of: "\"") else { break }
            values.append(String(rest[..<end]))
            rest = rest[end...]
        }
        return values
    }
}
