import Foundation

/// A one-line progress bar on standard error, drawn only when it is a terminal (never when
/// piped or in tests), so output stays byte-stable.
final class ProgressBar: @unchecked Sendable {
    private let total: Int
    private let label: String
    private let enabled: Bool
    private var shown = -1

    init(total: Int, label: String) {
        self.total = total
        self.label = label
        enabled = Terminal.standardErrorIsTerminal && total > 1
    }

    /// Redraws the bar when the count changed.
    func update(_ done: Int) {
        guard enabled, done != shown else { return }
        shown = done
        let width = 30
        let filled = total == 0 ? width : min(width, done * width / total)
        let bar = String(repeating: "#", count: filled)
            + String(repeating: ".", count: width - filled)
        FileHandle.standardError.write(Data("\r[\(bar)] \(done)/\(total) \(label)".utf8))
    }

    /// Clears the bar's line.
    func finish() {
        guard enabled, shown >= 0 else { return }
        FileHandle.standardError.write(Data(("\r" + String(repeating: " ", count: 60) + "\r").utf8))
    }
}
