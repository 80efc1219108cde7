/// The frame every HTML page of SyncLab shares: one self-contained file, inline CSS and script.
///
/// Reports are opened from disk, attached to CI runs and mailed around, so a page loads
/// nothing from the network: no script, no font, no stylesheet. The markup is also
/// well-formed XML (void elements closed, only XML's entities), so a test can parse it.
enum HTMLPage {
    /// `script` is inline JavaScript run at the end of the body, in a CDATA section so the
    /// page stays well-formed XML; it must not contain `]]>`.
    static func document(
        title: String, body: [String], extraStyle: [String] = [], script: [String] = []
    ) -> String {
        var lines = [
            "<!DOCTYPE html>",
            "<html lang=\"en\">",
            "<head>",
            "<meta charset=\"utf-8\"/>",
            "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\"/>",
            "<title>\(XMLText.escape(title))</title>",
            "<style>",
        ]
        lines += style
        lines += extraStyle
        lines += ["</style>", "</head>", "<body>", "<main>"]
        lines += body
        lines.append("</main>")
        if !script.isEmpty {
            lines += ["<script>", "//<![CDATA["] + script + ["//]]>", "</script>"]
        }
        lines += ["</body>", "</html>"]
        return lines.joined(separator: "\n") + "\n"
    }

    /// A table whose cells are already HTML.
    static func table(_ headers: [String], _ rows: [[String]], rowIDs: [String?] = []) -> String {
        var html = "<table><thead><tr>"
            + headers.map { "<th>\($0)</th>" }.joined() + "</tr></thead><tbody>"
        for (index, row) in rows.enumerated() {
            let id = index < rowIDs.count ? rowIDs[index] : nil
            html += id.map { "<tr id=\"\(XMLText.escape($0, attribute: true))\">" } ?? "<tr>"
            html += row.map { "<td>\($0)</td>" }.joined() + "</tr>"
        }
        return html + "</tbody></table>"
    }

    /// `PASS` or `FAIL` as a coloured badge: the word carries the meaning (no emoji, which
    /// shows as an empty box on a machine without an emoji font), the colour repeats it.
    static func badge(passed: Bool) -> String {
        passed
            ? "<span class=\"badge pass\">PASS</span>"
            : "<span class=\"badge fail\">FAIL</span>"
    }

    static func code(_ text: String) -> String {
        text.isEmpty ? "" : "<code>\(XMLText.escape(text))</code>"
    }

    /// Prose whose backtick-quoted spans become `<code>`, the rest escaped.
    static func prose(_ text: String) -> String {
        CodeSpans.split(text).map { $0.isCode ? code($0.text) : XMLText.escape($0.text) }.joined()
    }

    static let style = [
        "body { margin: 0; background: #fff; color: #1f2328;",
        "  font: 15px/1.5 -apple-system, BlinkMacSystemFont, \"Segoe UI\", system-ui,",
        "  sans-serif; }",
        "main { max-width: 1200px; margin: 0 auto; padding: 24px; }",
        "h1 { font-size: 1.7em; margin: 0 0 8px; }",
        "h2 { border-bottom: 1px solid #d0d7de; padding-bottom: 4px; margin-top: 32px; }",
        "code, .mono { font-family: ui-monospace, SFMono-Regular, Menlo, Consolas,",
        "  \"Liberation Mono\", monospace; font-size: 0.9em; }",
        "code { background: #f6f8fa; padding: 1px 4px; border-radius: 4px; }",
        "table { border-collapse: collapse; margin: 8px 0 16px; }",
        "th, td { border: 1px solid #d0d7de; padding: 4px 10px; text-align: left;",
        "  vertical-align: top; }",
        "th { background: #f6f8fa; }",
        "tr:target { background: #fff8c5; }",
        ".badge { display: inline-block; font-weight: 700; font-size: 0.8em;",
        "  letter-spacing: 0.05em; line-height: 1.4; padding: 1px 8px; border-radius: 10px;",
        "  border: 1px solid; }",
        ".badge.pass { background: #dafbe1; color: #116329; border-color: #1a7f37; }",
        ".badge.fail { background: #ffebe9; color: #a40e26; border-color: #cf222e; }",
        ".failure { background: #ffebe9; border-left: 4px solid #cf222e; padding: 8px 12px; }",
        ".legend { color: #57606a; }",
        ".diagram { overflow: auto; max-height: 85vh; border: 1px solid #d0d7de;",
        "  border-radius: 6px; }",
        ".diagram svg { display: block; }",
        ".diagram .names { position: sticky; top: 0; z-index: 1; width: max-content;",
        "  background: #fff; border-bottom: 1px solid #d0d7de; }",
        ".sd { font-family: ui-monospace, SFMono-Regular, Menlo, Consolas,",
        "  \"Liberation Mono\", monospace; font-size: 12px; }",
        ".sd .box { fill: #f6f8fa; stroke: #57606a; }",
        ".sd .name { font-weight: 600; }",
        ".sd .lifeline { stroke: #8c959f; stroke-dasharray: 4 4; }",
        ".sd .msg { stroke: #1f2328; stroke-width: 1.2; fill: none; }",
        ".sd .msg.response, .sd .msg.lost { stroke-dasharray: 6 3; }",
        ".sd .msg.lost { stroke: #cf222e; }",
        ".sd .msg.push { stroke: #0969da; }",
        ".sd .note { stroke: #8c959f; }",
        ".sd .note.rule { fill: #ddf4ff; }",
        ".sd .note.action { fill: #f6f8fa; }",
        ".sd .note.trigger { fill: #ffe8a3; }",
        ".sd .note.fault { fill: #ffcecb; }",
        ".sd .note.failure { fill: #ffebe9; stroke: #cf222e; }",
        ".sd .note.info { fill: #ffffff; }",
        ".sd .note.gap { fill: #f6f8fa; stroke-dasharray: 4 3; }",
        ".sd .band.trigger { fill: #fff8c5; }",
        ".sd .band.fault { fill: #fff0ee; }",
        ".sd .gap-text { font-style: italic; }",
        ".sd a .rule { fill: #0550ae; text-decoration: underline; font-weight: 600; }",
    ]
}
