import CloudSim
import Testing

/// Compares the whole cloud with a golden text, reporting the first differing line so a
/// failure reads like a diff rather than two walls of text.
func expectSnapshot(
    _ cloud: CloudService, _ expected: String, sourceLocation: SourceLocation = #_sourceLocation
) {
    let actual = cloud.snapshot().description
    guard actual != expected else { return }
    let actualLines = actual.split(separator: "\n", omittingEmptySubsequences: false)
    let expectedLines = expected.split(separator: "\n", omittingEmptySubsequences: false)
    let count = max(actualLines.count, expectedLines.count)
    for index in 0..<count {
        let have = index < actualLines.count ? String(actualLines[index]) : "<end>"
        let want = index < expectedLines.count ? String(expectedLines[index]) : "<end>"
        if have != want {
            let message = "snapshot differs at line \(index + 1):\n"
                + "  want: \(want)\n  have: \(have)\n--- whole snapshot:\n\(actual)"
            Issue.record(Comment(rawValue: message), sourceLocation: sourceLocation)
            return
        }
    }
}
