/// Escaping for GitHub-flavoured Markdown: prose, table cells and code spans.
///
/// Scenario titles, `about` texts and values are written by people; a `|` must not split a
/// table cell, a `*` must not start emphasis and a `<` must not open an HTML tag.
public enum MarkdownText {
    /// ASCII punctuation that can change how a line renders; each gets a backslash.
    static let special: Set<Character> = [
        "\\", "`", "*", "_", "[", "]", "<", ">", "|", "&", "~", "#",
    ]

    /// Text that reads literally inside a paragraph, a heading or a table cell.
    public static func inline(_ text: String) -> String {
        var result = inlineRest(text)
        if let first = result.first, first == "-" || first == "+" || first == "=" {
            result = "\\" + result
        }
        return escapingOrderedListMarker(result)
    }

    /// A code span that shows `text` exactly, also inside a table (its `|` escaped, as GFM
    /// tables require even in code) and when it contains backticks; empty text gives "".
    public static func code(_ text: String) -> String {
        let flat = flattened(text)
        guard !flat.isEmpty else { return "" }
        var longestRun = 0
        var run = 0
        for character in flat {
            run = character == "`" ? run + 1 : 0
            longestRun = max(longestRun, run)
        }
        let fence = String(repeating: "`", count: longestRun + 1)
        let body = flat.replacingAll("|", with: "\\|")
        let padded = body.hasPrefix("`") || body.hasSuffix("`") ? " \(body) " : body
        return fence + padded + fence
    }

    /// Prose that may quote code between backticks, as the rule catalogue and `about`
    /// texts do: each quoted span becomes a code span, everything else reads literally.
    public static func prose(_ text: String) -> String {
        CodeSpans.split(text).enumerated().map { index, piece in
            if piece.isCode { return code(piece.text) }
            return index == 0 ? inline(piece.text) : inlineRest(piece.text)
        }.joined()
    }

    /// Like `inline`, for text that continues a line (no line-start escapes).
    static func inlineRest(_ text: String) -> String {
        var result = ""
        for character in flattened(text) {
            if special.contains(character) { result.append("\\") }
            result.append(character)
        }
        return result
    }

    /// One line: line breaks and tabs become spaces, since a table row or a heading is one
    /// line in Markdown.
    static func flattened(_ text: String) -> String {
        var result = ""
        for character in text {
            result.append(character.isNewline || character == "\t" ? " " : character)
        }
        return result
    }

    /// `1. ` at the start of a paragraph would start a list; `1\. ` does not.
    private static func escapingOrderedListMarker(_ text: String) -> String {
        let digits = text.prefix { $0.isASCII && $0.isNumber }
        guard !digits.isEmpty, digits.count < text.count else { return text }
        let next = text[digits.endIndex]
        guard next == "." || next == ")" else { return text }
        return String(digits) + "\\" + text[digits.endIndex...]
    }
}

extension String {
    /// Every occurrence of `target` replaced, without Foundation.
    func replacingAll(_ target: String, with replacement: String) -> String {
        guard !target.isEmpty else { return self }
        var result = ""
        var rest = self[...]
        while let range = rest.firstRange(of: target) {
            result += rest[rest.startIndex..<range.lowerBound]
            result += replacement
            rest = rest[range.upperBound...]
        }
        return result + rest
    }
}
