import Foundation

/// Output helpers: colour and progress only on a terminal, plain text when piped.
enum Terminal {
    static let standardOutputIsTerminal = isatty(1) == 1
    static let standardErrorIsTerminal = isatty(2) == 1

    static func write(_ text: String) {
        print(text)
    }

    static func writeError(_ text: String) {
        FileHandle.standardError.write(Data((text + "\n").utf8))
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
