/// Writes a read catalogue page as the Swift file that extends the engine's hand-written
/// rules type with `groupTitles`, `rules` and one list per extra section.
///
/// Texts are multi-line literals wrapped at spaces with `\` (so the value has no line break
/// where the source does), one literal line per `Choice:` line; every line fits in 100
/// columns unless a single word is longer.
public enum CatalogueSwiftWriter {
    static let width = 100
    /// The indentation of a literal's lines and closing delimiter.
    static let indent = String(repeating: " ", count: 12)

    public static func source(of reader: CataloguePageReader, spec: CatalogueSpec) -> String {
        var out = """
            // Generated from \(spec.page) by `\(CatalogueSpec.command)`; do not edit.
            import SyncContract

            extension \(spec.typeName) {
                /// The groups of \(spec.page), in page order, with the title of their section.
                static let groupTitles: [(group: String, title: String)] = [

            """
        for (group, title) in reader.groups {
            out += "        (\(quoted(group)), \(quoted(title))),\n"
        }
        out += "    ]\n\n"
        let extra = spec.extraSections.map(\.heading)
        out += "    /// Every rule of \(spec.page)'s groups, in page order.\n"
        out += list("rules", reader.entries.filter { !extra.contains($0.section) })
        for section in spec.extraSections {
            out += "\n    /// The rules of the section `\(section.heading)` of \(spec.page).\n"
            out += list(section.property, reader.entries.filter { $0.section == section.heading })
        }
        return out + "}\n"
    }

    private static func list(_ name: String, _ entries: [CataloguePageReader.Entry]) -> String {
        var out = "    static let \(name): [Rule] = [\n"
        for entry in entries { out += rule(entry) }
        return out + "    ]\n"
    }

    private static func rule(_ entry: CataloguePageReader.Entry) -> String {
        let head = "        Rule(id: \(quoted(entry.id)), group: \(quoted(entry.group)), text: "
        var lines = [head + "\"\"\""]
        literal(entry.text, into: &lines)
        if !entry.choices.isEmpty {
            append("choice: \"\"\"", to: &lines)
            for choice in entry.choices { literal(choice, into: &lines) }
        }
        if !entry.explains.isEmpty { append("explains: \(array(entry.explains))", to: &lines) }
        if !entry.exempts.isEmpty { append("exempts: \(array(entry.exempts))", to: &lines) }
        if let workaround = entry.workaround {
            append("workaround: \"\"\"", to: &lines)
            literal(workaround, into: &lines)
        }
        lines[lines.count - 1] += "),"
        return lines.joined(separator: "\n") + "\n"
    }

    /// Continues the last line with `, piece`, or starts a new line with it when it would
    /// be too wide.
    private static func append(_ piece: String, to lines: inout [String]) {
        let last = lines.count - 1
        if lines[last].count + 2 + piece.count + 2 <= width {
            lines[last] += ", " + piece
        } else {
            lines[last] += ","
            lines.append(indent + piece)
        }
    }

    /// The lines of a multi-line literal holding one line of `text`, ending with the
    /// closing delimiter, so the caller's next literal line or argument follows it.
    private static func literal(_ text: String, into lines: inout [String]) {
        // Another line of the same literal (a second choice): reopen it.
        if lines.last == indent + "\"\"\"" { lines.removeLast() }
        let room = width - indent.count - 1
        var rest = Substring(text)
        while rest.count > room {
            let window = rest.prefix(room)
            let cut = window.lastIndex(of: " ").map { rest.index(after: $0) } ?? window.endIndex
            lines.append(indent + escaped(rest[..<cut]) + "\\")
            rest = rest[cut...]
        }
        lines.append(indent + escaped(rest))
        lines.append(indent + "\"\"\"")
    }

    /// Text safe inside a multi-line literal: no escapes, interpolations or delimiters.
    private static func escaped(_ text: Substring) -> String {
        var out = ""
        var quotes = 0
        for character in text {
            quotes = character == "\"" ? quotes + 1 : 0
            if character == "\\" {
                out += "\\\\"
            } else if quotes == 3 {
                out += "\\\""
                quotes = 0
            } else {
                out.append(character)
            }
        }
        return out
    }

    /// Text as a one-line string literal.
    private static func quoted(_ text: String) -> String {
        var out = "\""
        for character in text {
            if character == "\\" || character == "\"" { out += "\\" }
            out.append(character)
        }
        return out + "\""
    }

    private static func array(_ names: [String]) -> String {
        "[" + names.map(quoted).joined(separator: ", ") + "]"
    }
}
