/// Writes a sequence diagram as Mermaid `sequenceDiagram` source.
///
/// GitHub and most Markdown viewers draw Mermaid blocks, so a Markdown report shows the run
/// as a picture while staying plain text that diffs well.
struct MermaidWriter {
    let diagram: SequenceDiagram
    let limits: DiagramLimits
    /// Participant name → the identifier the source uses for it.
    private let identifiers: [String: String]

    /// Tints of highlighted blocks; a marker in each note says the same without colour.
    static let triggerTint = "rgb(255, 243, 205)"
    static let faultTint = "rgb(253, 226, 226)"

    init(diagram: SequenceDiagram, limits: DiagramLimits) {
        self.diagram = diagram
        self.limits = limits
        var identifiers: [String: String] = [:]
        let names = Set(diagram.participants)
        for (index, name) in diagram.participants.enumerated() {
            if MermaidText.isPlainIdentifier(name) {
                identifiers[name] = name
            } else {
                var alias = "participant\(index + 1)"
                while names.contains(alias) { alias += "_" }
                identifiers[name] = alias
            }
        }
        self.identifiers = identifiers
    }

    /// The diagram's lines, without the Markdown fence.
    func lines() -> [String] {
        var lines = ["sequenceDiagram"]
        for name in diagram.participants {
            let identifier = id(name)
            lines.append(identifier == name
                ? "    participant \(name)"
                : "    participant \(identifier) as \(MermaidText.escape(name))")
        }
        write(diagram.steps, into: &lines)
        return lines
    }

    private func id(_ name: String) -> String {
        identifiers[name] ?? "cloud"
    }

    private func write(_ steps: [SequenceStep], into lines: inout [String]) {
        for step in steps {
            switch step {
            case .message(let message):
                let arrow: String
                switch message.style {
                case .request: arrow = "->>"
                case .response: arrow = "-->>"
                case .push: arrow = "-)"
                case .lost: arrow = "--x"
                }
                lines.append("    \(id(message.from))\(arrow)\(id(message.to)): "
                    + escaped(message.label))
            case .note(let note):
                let over = note.over.map(id).joined(separator: ",")
                let text = note.plainLines.map(escaped).joined(separator: "<br/>")
                lines.append("    Note over \(over): \(text)")
            case .highlight(let block):
                let tint = block.kind == .trigger ? Self.triggerTint : Self.faultTint
                lines.append("    rect \(tint)")
                write(block.steps, into: &lines)
                lines.append("    end")
            case .gap(let gap):
                let first = id(diagram.participants.first ?? "cloud")
                let last = id(diagram.participants.last ?? "cloud")
                let over = first == last ? first : "\(first),\(last)"
                lines.append("    Note over \(over): \(escaped(gap.text))")
            }
        }
    }

    private func escaped(_ text: String) -> String {
        MermaidText.escape(TextWidth.truncated(text, toCells: limits.maxLabelCells))
    }
}
