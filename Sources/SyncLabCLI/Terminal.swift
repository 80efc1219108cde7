import Foundation

/// Output helpers: colour, progress and the terminal's width only on a terminal, plain text
/// of 80 columns when piped.
enum Terminal {
    static let standardOutputIsTerminal = isatty(1) == 1
    static let standardErrorIsTerminal = isatty(2) == 1

    /// The width listings fit: 80 columns when piped (the same bytes in any environment);
    /// on a terminal, `COLUMNS`, else the window's width, else 80.
    static let width: Int = {
        guard standardOutputIsTerminal else { return pipedWidth }
        if let text = ProcessInfo.processInfo.environment["COLUMNS"], let columns = Int(text),
            columns >= minimumWidth
        {
            return min(columns, maximumWidth)
        }
        var size = winsize()
        if ioctl(1, UInt(TIOCGWINSZ), &size) == 0, Int(size.ws_col) >= minimumWidth {
            return min(Int(size.ws_col), maximumWidth)
        }
        return pipedWidth
    }()

    static let pipedWidth = 80
    /// Narrower than this, indented listings leave no room for their text.
    static let minimumWidth = 40
    /// Wider lines are hard to read, whatever the window.
    static let maximumWidth = 160

    static func write(_ text: String) {
        print(text)
    }

    /// Errors name the executable that runs (`ProgramName`), so their hints can be followed.
    static func writeError(_ text: String) {
        FileHandle.standardError.write(Data((ProgramName.named(text) + "\n").utf8))
    }

    static func green(_ text: String) -> String {
        standardOutputIsTerminal ? "\u{1B}[32m\(text)\u{1B}[0m" : text
    }

    static func red(_ text: String) -> String {
        standardOutputIsTerminal ? "\u{1B}[31m\(text)\u{1B}[0m" : text
    }

    static func bold(_ text: String) -> String {
        standardOutputIsTerminal ? "\u{1B}[1m\(text)\u{1B}[0m" : text
    }
}
