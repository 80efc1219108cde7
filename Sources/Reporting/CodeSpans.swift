/// Splits prose into plain text and the code spans it quotes between single backticks.
///
/// Rule texts and `about` texts are written like RULES.md, with `hasDownloadedOnce` or
/// `forceDownload()` in backticks; reports show those as code in both formats. A backtick
/// without a partner stays plain text.
enum CodeSpans {
    struct Piece: Equatable {
        var text: String
        var isCode: Bool
    }

    static func split(_ text: String) -> [Piece] {
        var pieces: [Piece] = []
        var rest = text[...]
        while let open = rest.firstIndex(of: "`") {
            let afterOpen = rest.index(after: open)
            guard let close = rest[afterOpen...].firstIndex(of: "`"), close > afterOpen else {
                break
            }
            if open > rest.startIndex {
                pieces.append(Piece(text: String(rest[..<open]), isCode: false))
            }
            pieces.append(Piece(text: String(rest[afterOpen..<close]), isCode: true))
            rest = rest[rest.index(after: close)...]
        }
        if !rest.isEmpty { pieces.append(Piece(text: String(rest), isCode: false)) }
        return pieces
    }
}
