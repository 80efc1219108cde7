/// The page that links every report of a folder of scenarios, grouped by sub-folder, each
/// with a pass or fail badge.
public struct ReportIndex: Sendable {
    /// One report as the index lists it.
    public struct Entry: Hashable, Sendable {
        /// Where the report is, relative to the index (`tour/01-first-sync.md`).
        public var reportPath: String
        /// The scenario as given on the command line.
        public var scenarioPath: String
        public var title: String
        public var passed: Bool
        public var held: Int
        public var expectations: Int
        public var runtimeFailure: Bool

        public init(
            reportPath: String, scenarioPath: String, title: String, passed: Bool,
            held: Int, expectations: Int, runtimeFailure: Bool
        ) {
            self.reportPath = reportPath
            self.scenarioPath = scenarioPath
            self.title = title
            self.passed = passed
            self.held = held
            self.expectations = expectations
            self.runtimeFailure = runtimeFailure
        }

        /// The folder the index groups it under: the report's folder, "" at the top.
        public var folder: String {
            guard let slash = reportPath.lastIndex(of: "/") else { return "" }
            return String(reportPath[..<slash])
        }

        /// `8 of 8`, with a runtime failure noted.
        var outcomeText: String {
            "\(held) of \(expectations)" + (runtimeFailure ? ", runtime failure" : "")
        }
    }

    public var entries: [Entry]
    public var title: String

    public init(entries: [Entry], title: String = "SyncLab scenario reports") {
        self.entries = entries
        self.title = title
    }

    /// Folders in order (the top level first), each with its entries sorted by path.
    public var groups: [(folder: String, entries: [Entry])] {
        let folders = Set(entries.map(\.folder)).sorted()
        return folders.map { folder in // tidy: ordered (sorted above)
            let members = entries.filter { $0.folder == folder }
            return (folder, members.sorted { $0.reportPath < $1.reportPath })
        }
    }

    public var passedCount: Int { entries.filter(\.passed).count }

    /// `14 scenarios: 12 passed, 2 failed`.
    var totalsText: String {
        let noun = entries.count == 1 ? "scenario" : "scenarios"
        return "\(entries.count) \(noun): \(passedCount) passed, "
            + "\(entries.count - passedCount) failed"
    }

    static func folderTitle(_ folder: String) -> String {
        folder.isEmpty ? "Top level" : folder
    }

    public func markdown() -> String {
        var out = ["# \(MarkdownText.inline(title))", "", totalsText + "."]
        for group in groups {
            out += ["", "## \(MarkdownText.inline(Self.folderTitle(group.folder)))", ""]
            out += ["| result | scenario | expectations held | file |", "| --- | --- | --- | --- |"]
            for entry in group.entries {
                let badge = entry.passed ? "✅ pass" : "❌ fail"
                let target = Self.linkTarget(entry.reportPath)
                let link = "[\(MarkdownText.inline(entry.title))](\(target))"
                out.append("| \(badge) | \(link) | \(entry.outcomeText) | "
                    + "\(MarkdownText.code(entry.scenarioPath)) |")
            }
        }
        return out.joined(separator: "\n") + "\n"
    }

    public func html() -> String {
        var body = ["<h1>\(XMLText.escape(title))</h1>", "<p>\(XMLText.escape(totalsText)).</p>"]
        for group in groups {
            body.append("<h2>\(XMLText.escape(Self.folderTitle(group.folder)))</h2>")
            body.append("<table><thead><tr><th>result</th><th>scenario</th>"
                + "<th>expectations held</th><th>file</th></tr></thead><tbody>")
            for entry in group.entries {
                let badge = HTMLPage.badge(passed: entry.passed)
                let href = XMLText.escape(Self.linkTarget(entry.reportPath), attribute: true)
                body.append("<tr><td>\(badge)</td><td><a href=\"\(href)\">"
                    + "\(XMLText.escape(entry.title))</a></td>"
                    + "<td>\(XMLText.escape(entry.outcomeText))</td>"
                    + "<td><code>\(XMLText.escape(entry.scenarioPath))</code></td></tr>")
            }
            body.append("</tbody></table>")
        }
        return HTMLPage.document(title: title, body: body)
    }

    /// A relative path as a link target: every byte outside letters, digits and `/._-~`
    /// percent-encoded, so spaces and parentheses cannot end a Markdown link early.
    public static func linkTarget(_ path: String) -> String {
        var result = ""
        for byte in path.utf8 {
            let scalar = Unicode.Scalar(byte)
            if byte < 0x80 && (scalar.isASCIILetter || scalar.isASCIIDigit
                || "/._-~".unicodeScalars.contains(scalar)) {
                result.unicodeScalars.append(scalar)
            } else {
                let digits = String(byte, radix: 16, uppercase: true)
                result += "%" + (digits.count == 1 ? "0" + digits : digits)
            }
        }
        return result
    }
}
