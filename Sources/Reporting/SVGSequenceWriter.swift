/// Draws a sequence diagram as inline SVG: lifelines, arrows with their labels and times,
/// notes whose rule IDs link to the rules' texts on the page.
///
/// SyncLab draws it itself so an HTML report needs no script; every coordinate is an
/// integer computed from character counts of a monospaced font, so the drawing is the same
/// bytes on every machine.
///
/// The diagram is drawn as two SVGs: `header()`, the participants' names, which the page
/// keeps stuck to the top of the diagram's scroll box, and `render()`, the lifelines and
/// everything on them. Lifelines are spaced to fit `fitWidth` (the page's column) whenever
/// `minimumGap` allows it, so the cloud and every device are in view; wider diagrams (more
/// participants than fit) scroll sideways under the names.
struct SVGSequenceWriter {
    let diagram: SequenceDiagram
    /// Distance between two lifelines.
    let gap: Int
    private let columns: [String: Int]
    /// Where a rule ID links: nil for its row on the same page (`#rule-SYNC-4`, the report's
    /// rules table), else the heading of the engine's catalogue page that lists it (a page
    /// with diagrams of several engines, `synclab compare`); a rule the page lacks is not
    /// linked.
    var ruleLinks: CatalogueLinks?
    /// Starts the arrowheads' IDs, so several diagrams of one page each use their own (a
    /// marker inside a folded `<details>` does not draw for the others).
    var markerPrefix = ""

    static let margin = 16
    static let boxHeight = 28
    static let lineHeight = 16
    static let messageHeight = 34
    static let minimumGap = 200
    static let maximumGap = 480
    /// The widest diagram that fits the page's column: 1200 px, less the page's padding,
    /// the diagram's border and room for the scroll box's vertical scroll bar.
    static let fitWidth = 1120
    /// Height of the header of names (`header()`).
    static let headerHeight = margin + boxHeight + 8

    init(diagram: SequenceDiagram) {
        self.diagram = diagram
        var columns: [String: Int] = [:]
        for (index, name) in diagram.participants.enumerated() where columns[name] == nil {
            columns[name] = index
        }
        self.columns = columns
        var need = Self.minimumGap
        for name in diagram.participants {
            need = max(need, Self.pixels(TextWidth.cells(name)) + 36)
        }
        Self.widest(diagram.steps, columns: columns, need: &need)
        gap = min(need, Self.maximumGap, Self.fittingGap(participants: diagram.participants.count))
    }

    /// The widest lifeline distance whose diagram still fits `fitWidth`, but never less than
    /// `minimumGap`: past that the diagram scrolls instead of squeezing its labels further.
    static func fittingGap(participants: Int) -> Int {
        max(minimumGap, (fitWidth - 2 * margin) / max(1, participants))
    }

    /// Pixels of character cells in the 12 px monospaced font (7.2 px a cell, rounded up).
    static func pixels(_ cells: Int) -> Int { (cells * 72 + 9) / 10 }

    /// Character cells that fit in pixels.
    static func cells(fitting pixels: Int) -> Int { max(0, pixels * 10 / 72) }

    /// Raises `need` to the lifeline distance that shows every label and one-lifeline note
    /// in full.
    private static func widest(_ steps: [SequenceStep], columns: [String: Int], need: inout Int) {
        for step in steps {
            switch step {
            case .message(let message):
                let span = max(1, abs((columns[message.to] ?? 0) - (columns[message.from] ?? 0)))
                let width = pixels(TextWidth.cells(message.label)) + 24
                need = max(need, (width + span - 1) / span)
            case .note(let note) where Set(note.over).count == 1:
                let widest = note.plainLines.map(TextWidth.cells).max() ?? 0
                need = max(need, pixels(widest) + 28)
            case .highlight(let block):
                widest(block.steps, columns: columns, need: &need)
            case .note, .gap:
                break
            }
        }
    }

    func x(_ name: String) -> Int {
        Self.margin + gap / 2 + (columns[name] ?? 0) * gap
    }

    var width: Int { 2 * Self.margin + max(1, diagram.participants.count) * gap }

    /// The participants' names over the top of their lifelines, as its own SVG so the page
    /// can keep it in view while the diagram scrolls (`position: sticky`).
    func header() -> String {
        let height = Self.headerHeight
        var out = ["<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"sd sd-names\""
            + " width=\"\(width)\" height=\"\(height)\" viewBox=\"0 0 \(width) \(height)\""
            + " aria-hidden=\"true\">"]
        for name in diagram.participants {
            out.append("<line class=\"lifeline\" x1=\"\(x(name))\" y1=\"\(Self.margin)\""
                + " x2=\"\(x(name))\" y2=\"\(height)\"/>")
        }
        for name in diagram.participants {
            out.append(box(name, top: Self.margin))
        }
        out.append("</svg>")
        return out.joined(separator: "\n")
    }

    /// The lifelines, from just under `header()`, with every row and the names again at the
    /// bottom.
    func render() -> String {
        var canvas = SVGCanvas()
        canvas.y = 8
        draw(diagram.steps, on: &canvas)
        let bottom = canvas.y + 4
        let height = bottom + Self.boxHeight + Self.margin
        var out = [
            "<svg xmlns=\"http://www.w3.org/2000/svg\" xmlns:xlink=\"http://www.w3.org/1999/xlink\""
                + " class=\"sd\" width=\"\(width)\" height=\"\(height)\""
                + " viewBox=\"0 0 \(width) \(height)\" role=\"img\""
                + " aria-label=\"Sequence diagram of the run\">",
            "<title>Sequence diagram of the run</title>",
        ]
        out += Self.definitions(prefix: markerPrefix)
        for name in diagram.participants {
            out.append("<line class=\"lifeline\" x1=\"\(x(name))\" y1=\"0\" x2=\"\(x(name))\""
                + " y2=\"\(bottom)\"/>")
        }
        out += canvas.elements
        for name in diagram.participants {
            out.append(box(name, top: bottom))
        }
        out.append("</svg>")
        return out.joined(separator: "\n")
    }

    /// Arrowheads: filled (requests, answers), open (pushes), a cross (lost).
    static func definitions(prefix: String) -> [String] { [
        "<defs>",
        "<marker id=\"\(prefix)sd-arrow\""
            + " viewBox=\"0 0 10 10\" refX=\"10\" refY=\"5\" markerWidth=\"8\""
            + " markerHeight=\"8\" orient=\"auto\">"
            + "<path d=\"M0,0 L10,5 L0,10 z\" fill=\"#1f2328\"/></marker>",
        "<marker id=\"\(prefix)sd-open\""
            + " viewBox=\"0 0 10 10\" refX=\"10\" refY=\"5\" markerWidth=\"8\""
            + " markerHeight=\"8\" orient=\"auto\"><path d=\"M0,0 L10,5 L0,10\" fill=\"none\""
            + " stroke=\"#0969da\" stroke-width=\"1.5\"/></marker>",
        "<marker id=\"\(prefix)sd-cross\""
            + " viewBox=\"0 0 10 10\" refX=\"5\" refY=\"5\" markerWidth=\"8\""
            + " markerHeight=\"8\" orient=\"auto\"><path d=\"M0,0 L10,10 M0,10 L10,0\""
            + " stroke=\"#cf222e\" stroke-width=\"2\"/></marker>",
        "</defs>",
    ] }

    private func box(_ name: String, top: Int) -> String {
        let available = gap - 12
        let shown = TextWidth.truncated(name, toCells: Self.cells(fitting: available - 16))
        let boxWidth = min(available, Self.pixels(TextWidth.cells(shown)) + 24)
        return "<g><rect class=\"box\" x=\"\(x(name) - boxWidth / 2)\" y=\"\(top)\""
            + " width=\"\(boxWidth)\" height=\"\(Self.boxHeight)\" rx=\"4\"/>"
            + "<text class=\"name\" x=\"\(x(name))\" y=\"\(top + 18)\" text-anchor=\"middle\">"
            + "\(XMLText.escape(shown))</text></g>"
    }

    private func draw(_ steps: [SequenceStep], on canvas: inout SVGCanvas) {
        for step in steps {
            switch step {
            case .message(let message): draw(message, on: &canvas)
            case .note(let note): draw(note, on: &canvas)
            case .gap(let gap): drawGap(gap, on: &canvas)
            case .highlight(let block):
                let index = canvas.elements.count
                let top = canvas.y
                canvas.y += 4
                draw(block.steps, on: &canvas)
                let band = "<rect class=\"band \(block.kind.rawValue)\" x=\"\(Self.margin + 2)\""
                    + " y=\"\(top)\" width=\"\(width - 2 * Self.margin - 4)\""
                    + " height=\"\(canvas.y - top)\" rx=\"4\"/>"
                canvas.elements.insert(band, at: index)
                canvas.y += 6
            }
        }
    }
}

/// The drawing so far and where the next row goes.
struct SVGCanvas {
    var elements: [String] = []
    var y = 0
}
