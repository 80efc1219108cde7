/// Greedy word wrap for listings that must fit `Terminal.width`.
enum WordWrap {
    /// The first line starts with `first`, the others with `indent` spaces. A word longer
    /// than a whole line is broken after its last '/' or '-' that fits (a path, a file name),
    /// else at the width, so that no line is ever wider than `width`.
    static func lines(_ text: String, first: String, indent: Int, width: Int) -> [String] {
        precondition(indent >= 0 && indent < width / 2, "an indent leaves no room")
        let room = width - indent
        var lines: [String] = []
        var line = first
        var lineHasWord = false
        for word in text.split(separator: " ") {
            // Each piece fits a line, and the pieces of one word join without a space.
            for (index, piece) in pieces(of: String(word), room: room).enumerated() {
                let separator = lineHasWord && index == 0 ? " " : ""
                if line.count + separator.count + piece.count > width
                    && (lineHasWord || line.count > indent)
                {
                    lines.append(line)
                    line = String(repeating: " ", count: indent) + piece
                } else {
                    line += separator + piece
                }
                lineHasWord = true
            }
        }
        lines.append(line)
        return lines
    }

    /// The word as parts of at most `room` characters, broken after '/' or '-' where it can.
    static func pieces(of word: String, room: Int) -> [String] {
        precondition(room > 0, "no room for a word")
        var rest = Substring(word)
        var parts: [String] = []
        while rest.count > room {
            let window = rest.prefix(room)
            let cut = window.lastIndex { $0 == "/" || $0 == "-" }.map { rest.index(after: $0) }
                ?? window.endIndex
            parts.append(String(rest[..<cut]))
            rest = rest[cut...]
        }
        parts.append(String(rest))
        return parts
    }
}
