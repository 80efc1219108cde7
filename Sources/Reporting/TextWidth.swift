/// An estimate of how wide text is in a monospaced font, in character cells.
///
/// SyncLab draws its own SVG without a font engine; a monospaced font makes the width of
/// ASCII exact, and counting wide scalars (CJK, emoji) as two cells keeps labels from
/// overlapping in the common cases.
enum TextWidth {
    /// Character cells `text` takes up.
    static func cells(_ text: String) -> Int {
        var total = 0
        for scalar in text.unicodeScalars {
            total += cells(scalar)
        }
        return total
    }

    static func cells(_ scalar: Unicode.Scalar) -> Int {
        let value = scalar.value
        if value < 0x300 { return 1 }
        if scalar.properties.generalCategory == .nonspacingMark { return 0 }
        if value == 0x200D || (0xFE00...0xFE0F).contains(value) { return 0 }
        if scalar.properties.isEmojiPresentation { return 2 }
        if (0x1100...0x115F).contains(value) || (0x2E80...0xA4CF).contains(value)
            || (0xAC00...0xD7A3).contains(value) || (0xF900...0xFAFF).contains(value)
            || (0xFF00...0xFF60).contains(value) || (0x20000...0x3FFFD).contains(value) {
            return 2
        }
        return 1
    }

    /// The text cut to at most `limit` cells, ending with `…` when something was cut.
    static func truncated(_ text: String, toCells limit: Int) -> String {
        guard cells(text) > limit else { return text }
        guard limit > 1 else { return "…" }
        var result = ""
        var used = 0
        for character in text {
            let width = cells(String(character))
            if used + width > limit - 1 { break }
            result.append(character)
            used += width
        }
        return result + "…"
    }
}
