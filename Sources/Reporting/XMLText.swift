/// Escaping for every XML-shaped output: HTML pages, inline SVG and JUnit XML.
///
/// One function serves all three so that a value a scenario author typed (a string with
/// quotes, `<`, `&`, a control character) can never break the document it lands in.
public enum XMLText {
    /// Text content or an attribute value (quoted with `"`): `& < > " '` become entities,
    /// characters XML 1.0 forbids become U+FFFD, and in attributes line breaks and tabs
    /// become character references so a parser keeps them.
    public static func escape(_ text: String, attribute: Bool = false) -> String {
        var result = ""
        result.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": result += "&amp;"
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            case "\"": result += "&quot;"
            case "'": result += "&#39;"
            case "\n": result += attribute ? "&#10;" : "\n"
            case "\r": result += attribute ? "&#13;" : "&#13;"
            case "\t": result += attribute ? "&#9;" : "\t"
            default:
                if isAllowed(scalar) {
                    result.unicodeScalars.append(scalar)
                } else {
                    result += "\u{FFFD}"
                }
            }
        }
        return result
    }

    /// XML 1.0's `Char` production, without the three white-space controls handled above.
    static func isAllowed(_ scalar: Unicode.Scalar) -> Bool {
        let value = scalar.value
        if value < 0x20 { return false }
        if value == 0xFFFE || value == 0xFFFF { return false }
        return true
    }
}
