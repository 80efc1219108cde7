/// Arrows and notes of the SVG diagram.
extension SVGSequenceWriter {
    func draw(_ message: SequenceMessage, on canvas: inout SVGCanvas) {
        let from = x(message.from)
        let to = x(message.to)
        let marker: String
        switch message.style {
        case .request, .response: marker = markerPrefix + "sd-arrow"
        case .push: marker = markerPrefix + "sd-open"
        case .lost: marker = markerPrefix + "sd-cross"
        }
        let selfMessage = from == to
        let available = Self.cells(fitting: selfMessage ? gap - 24 : abs(to - from) - 16)
        let wrapped = Self.wrap(message.label, first: available, rest: available,
                                rows: Self.maximumLabelRows)
        let extra = (wrapped.rows.count - 1) * Self.lineHeight
        let labelY = canvas.y + 14
        let lineY = canvas.y + 22 + extra
        var group = "<g>"
        if wrapped.cut { group += "<title>\(XMLText.escape(message.label))</title>" }
        for (index, row) in wrapped.rows.enumerated() {
            let y = labelY + index * Self.lineHeight
            group += selfMessage
                ? "<text x=\"\(from + 8)\" y=\"\(y)\">"
                : "<text x=\"\((from + to) / 2)\" y=\"\(y)\" text-anchor=\"middle\">"
            group += XMLText.escape(row) + "</text>"
        }
        if selfMessage {
            group += "<path class=\"msg \(message.style.rawValue)\""
                + " d=\"M\(from),\(lineY) h30 v8 h-30\" marker-end=\"url(#\(marker))\"/>"
            canvas.y += 8
        } else {
            group += "<line class=\"msg \(message.style.rawValue)\" x1=\"\(from)\" y1=\"\(lineY)\""
                + " x2=\"\(to)\" y2=\"\(lineY)\" marker-end=\"url(#\(marker))\"/>"
        }
        canvas.elements.append(group + "</g>")
        canvas.y += Self.messageHeight + extra
    }

    func draw(_ note: SequenceNote, on canvas: inout SVGCanvas) {
        let positions = note.over.map(x)
        let low = positions.min() ?? x("cloud")
        let high = positions.max() ?? low
        let left: Int
        let noteWidth: Int
        if low == high {
            let widest = note.plainLines.map(TextWidth.cells).max() ?? 0
            noteWidth = min(Self.pixels(widest) + 14, gap - 10)
            left = low - noteWidth / 2
        } else {
            left = low - gap / 2 + 6
            noteWidth = high - low + gap - 12
        }
        let budget = Self.cells(fitting: noteWidth - 12)
        var texts: [String] = []
        var cut = false
        var row = 0
        for part in note.parts {
            let line = fitted(part, toCells: budget)
            cut = cut || line.cut
            for (index, markup) in line.rows.enumerated() {
                let indent = index == 0 ? 6 : 6 + Self.pixels(Self.continuationIndent)
                texts.append("<text x=\"\(left + indent)\""
                    + " y=\"\(canvas.y + 17 + row * Self.lineHeight)\">" + markup + "</text>")
                row += 1
            }
        }
        let height = row * Self.lineHeight + 10
        var group = "<g>"
        if cut {
            group += "<title>\(XMLText.escape(note.plainLines.joined(separator: "\n")))</title>"
        }
        group += "<rect class=\"note \(note.kind.rawValue)\" x=\"\(left)\" y=\"\(canvas.y)\""
            + " width=\"\(noteWidth)\" height=\"\(height)\" rx=\"3\"/>"
        canvas.elements.append(group + texts.joined() + "</g>")
        canvas.y += height + 8
    }

    func drawGap(_ gapNote: SequenceGap, on canvas: inout SVGCanvas) {
        let left = Self.margin + 6
        let noteWidth = width - 2 * Self.margin - 12
        let text = TextWidth.truncated(gapNote.text, toCells: Self.cells(fitting: noteWidth - 12))
        let height = Self.lineHeight + 10
        canvas.elements.append("<g><rect class=\"note gap\" x=\"\(left)\" y=\"\(canvas.y)\""
            + " width=\"\(noteWidth)\" height=\"\(height)\" rx=\"3\"/>"
            + "<text class=\"gap-text\" x=\"\(width / 2)\" y=\"\(canvas.y + 17)\""
            + " text-anchor=\"middle\">\(XMLText.escape(text))</text></g>")
        canvas.y += height + 8
    }

    /// Cells a note line's continuation rows are indented by.
    static let continuationIndent = 2
    /// Rows one note line may wrap onto; past them it is cut (the tooltip has it all).
    static let maximumRowsPerLine = 3
    /// Rows an arrow's label may wrap onto.
    static let maximumLabelRows = 2

    /// One note line as rows of SVG text content: the prefix, each rule as a link to its
    /// text on the page, then the text, wrapped at spaces onto up to `maximumRowsPerLine`
    /// rows of `budget` cells and cut after them.
    private func fitted(
        _ part: (prefix: String, rules: [String], text: String), toCells budget: Int
    ) -> (rows: [String], cut: Bool) {
        let head = ([part.prefix] + part.rules).filter { !$0.isEmpty }.joined(separator: " ")
        let headCells = TextWidth.cells(head) + (head.isEmpty ? 0 : 1)
        let wrapped = Self.wrap(part.text, first: max(1, budget - headCells),
                                rest: max(1, budget - Self.continuationIndent),
                                rows: Self.maximumRowsPerLine)
        var markup = ""
        if !part.prefix.isEmpty { markup += XMLText.escape(part.prefix) + " " }
        for rule in part.rules {
            let target = ruleLinks.map { $0.link(rule) } ?? "#" + RuleID.anchor(rule)
            let span = "<tspan class=\"rule\">\(XMLText.escape(rule))</tspan>"
            guard let target else {
                markup += span + " "
                continue
            }
            let anchor = XMLText.escape(target, attribute: true)
            markup += "<a href=\"\(anchor)\" xlink:href=\"\(anchor)\">" + span + "</a> "
        }
        let rows = wrapped.rows.map { XMLText.escape($0) }
        return ([markup + (rows.first ?? "")] + rows.dropFirst(), wrapped.cut)
    }

    /// `text` in rows of at most `first` cells, then `rest` cells, broken at spaces (a word
    /// longer than a row is broken inside), at most `rows` of them; the last row ends with
    /// `…` when text was left out.
    static func wrap(_ text: String, first: Int, rest: Int, rows limit: Int)
        -> (rows: [String], cut: Bool) {
        var rows: [String] = []
        var remaining = Substring(text)
        while !remaining.isEmpty {
            let width = rows.isEmpty ? first : rest
            if rows.count == limit - 1 || TextWidth.cells(String(remaining)) <= width {
                let last = TextWidth.truncated(String(remaining), toCells: width)
                rows.append(last)
                return (rows, last != String(remaining))
            }
            var used = 0
            var end = remaining.startIndex
            var lastSpace: Substring.Index?
            for index in remaining.indices {
                let cells = TextWidth.cells(String(remaining[index]))
                if used + cells > width { break }
                if remaining[index] == " " { lastSpace = index }
                used += cells
                end = remaining.index(after: index)
            }
            if end == remaining.startIndex { end = remaining.index(after: end) }
            if let lastSpace, lastSpace > remaining.startIndex, end != remaining.endIndex,
               remaining[end] != " " {
                end = lastSpace
            }
            rows.append(String(remaining[..<end]))
            remaining = remaining[end...].drop { $0 == " " }
        }
        return (rows.isEmpty ? [""] : rows, false)
    }
}
