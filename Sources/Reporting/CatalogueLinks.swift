/// Where each rule of one engine's catalogue is explained: a link to the heading of the
/// section that lists it in the engine's catalogue page (`EngineProfile.cataloguePage`,
/// docs/RULES.md for sds, docs/NAIVE.md for naive), with the anchor GitHub gives that heading.
///
/// Built from the page's own text, so the anchors are the ones its headings really have
/// (a rule listed as `- **SYNC-4** …` under `## SYNC — how a synchronization runs` links to
/// `docs/RULES.md#sync--how-a-synchronization-runs`), whatever the engine names its groups.
public struct CatalogueLinks: Sendable, Hashable {
    /// The page as a link from the report (`../../docs/RULES.md`).
    public var page: String
    /// Rule ID to the anchor of the heading it is listed under.
    public var anchors: [String: String]

    public init(page: String, anchors: [String: String]) {
        self.page = page
        self.anchors = anchors
    }

    /// Reads a catalogue page: every rule listed as `- **ID** …` gets the anchor of the
    /// nearest heading above it; a rule listed before any heading gets none.
    public init(page: String, markdown: String) {
        self.page = page
        var anchors: [String: String] = [:]
        var current: String?
        for heading in Self.headings(in: markdown) {
            switch heading {
            case .heading(_, let anchor): current = anchor
            case .rule(let id):
                if anchors[id] == nil, let current { anchors[id] = current }
            }
        }
        self.anchors = anchors
    }

    /// The link of a rule (`../../docs/RULES.md#sync--how-a-synchronization-runs`), or nil
    /// for a rule the page does not list.
    public func link(_ rule: String) -> String? {
        anchors[rule].map { page + "#" + $0 }
    }

    /// Every heading's anchor in a page, in page order, as GitHub assigns them (a repeated
    /// slug gets `-1`, `-2`, …).
    public static func headingAnchors(in markdown: String) -> [String] {
        headings(in: markdown).compactMap { line in
            if case .heading(_, let anchor) = line { return anchor }
            return nil
        }
    }

    private enum Line {
        case heading(text: String, anchor: String)
        case rule(String)
    }

    /// Headings (ATX, outside fenced code) and rule entries, in page order.
    private static func headings(in markdown: String) -> [Line] {
        var lines: [Line] = []
        var seen: [String: Int] = [:]
        var fence: String?
        for raw in markdown.split(separator: "\n", omittingEmptySubsequences: false) {
            let line = raw.hasSuffix("\r") ? raw.dropLast() : raw
            let trimmed = line.drop { $0 == " " }
            if trimmed.hasPrefix("```") || trimmed.hasPrefix("~~~") {
                let marker = String(trimmed.prefix(3))
                if fence == nil { fence = marker } else if fence == marker { fence = nil }
                continue
            }
            guard fence == nil else { continue }
            if let text = headingText(line) {
                var anchor = slug(text)
                if let count = seen[anchor] {
                    seen[anchor] = count + 1
                    anchor += "-\(count + 1)"
                } else {
                    seen[anchor] = 0
                }
                lines.append(.heading(text: text, anchor: anchor))
            } else if line.hasPrefix("- **"), let end = line.dropFirst(4).firstRange(of: "**") {
                lines.append(.rule(String(line.dropFirst(4)[..<end.lowerBound])))
            }
        }
        return lines
    }

    /// The text of an ATX heading line (`## SYNC — how …`), or nil.
    static func headingText(_ line: Substring) -> String? {
        let hashes = line.prefix { $0 == "#" }.count
        guard (1...6).contains(hashes) else { return nil }
        let rest = line.dropFirst(hashes)
        guard rest.isEmpty || rest.first == " " || rest.first == "\t" else { return nil }
        var text = rest.trimmingSpaces
        // A closing sequence of #s preceded by a space is not part of the heading.
        let closing = text.reversed().prefix { $0 == "#" }.count
        if closing > 0, closing == text.count || text.dropLast(closing).last == " " {
            text = text.dropLast(closing).trimmingSpaces
        }
        return String(text)
    }

    /// GitHub's anchor of a heading's text: lower case; letters, digits, marks, `-` and `_`
    /// kept; each space becomes `-`; everything else (punctuation, symbols such as `—`,
    /// backticks) is dropped. Link syntax is reduced to its text first.
    public static func slug(_ heading: String) -> String {
        var out = ""
        for scalar in linkText(heading).lowercased().unicodeScalars {
            if scalar == " " {
                out.append("-")
            } else if scalar == "-" || scalar == "_" {
                out.unicodeScalars.append(scalar)
            } else {
                switch scalar.properties.generalCategory {
                case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter,
                     .otherLetter, .decimalNumber, .letterNumber, .otherNumber,
                     .nonspacingMark, .spacingMark, .enclosingMark:
                    out.unicodeScalars.append(scalar)
                default:
                    continue
                }
            }
        }
        return out
    }

    /// `[text](target)` reduced to `text`, as GitHub's anchors use the rendered text.
    private static func linkText(_ text: String) -> String {
        var out = ""
        var rest = Substring(text)
        while let open = rest.firstIndex(of: "[") {
            out += rest[..<open]
            let after = rest[rest.index(after: open)...]
            if let close = after.firstRange(of: "]("),
               let end = after[close.upperBound...].firstIndex(of: ")") {
                out += after[..<close.lowerBound]
                rest = after[after.index(after: end)...]
            } else {
                out += "["
                rest = after
            }
        }
        return out + rest
    }
}

private extension Substring {
    var trimmingSpaces: Substring {
        var text = self
        while let first = text.first, first == " " || first == "\t" { text = text.dropFirst() }
        while let last = text.last, last == " " || last == "\t" { text = text.dropLast() }
        return text
    }
}
