import LocalStore

/// How a value reads in checkers' messages and expectations (`ValueConversion.describe`).
package enum ValueDescription {
    /// How a value reads in messages: strings quoted, large values summarised.
    package static func describe(_ value: LocalStore.AttributeValue?) -> String {
        guard let value else { return "nil" }
        switch value {
        case .string(let text):
            if text.utf8.count > 64 { return "text(\(text.utf8.count) bytes)" }
            return "\"\(escaped(text))\""
        case .int(let number): return String(number)
        case .double(let number): return number.description
        case .bool(let flag): return flag ? "true" : "false"
        case .date(let milliseconds):
            return "\"\(ISODate.text(millisecondsSince1970: milliseconds))\""
        case .uuid(let text), .url(let text): return "\"\(text)\""
        case .data(let bytes):
            if bytes.count > 32 { return "bytes(\(bytes.count) bytes)" }
            return "hex\"" + bytes.map { byte in
                let digits = String(byte, radix: 16)
                return digits.count == 1 ? "0" + digits : digits
            }.joined() + "\""
        }
    }

    /// A text as a scenario writes it between quotes.
    package static func escaped(_ text: String) -> String {
        var result = ""
        for character in text {
            switch character {
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            case "\n": result += "\\n"
            case "\t": result += "\\t"
            default: result.append(character)
            }
        }
        return result
    }
}
