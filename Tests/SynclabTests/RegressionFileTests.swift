import Foundation
import Testing
import TestSupport

/// Every reproducer kept in `Tests/Regressions/` runs with the built binary (the release
/// one in CI, through `SYNCLAB_BINARY`) and ends as its header says.
///
/// A file starts with `# regression: …` (what it was), then `# outcome: pass|fail|
/// input-error|runtime-error` and optionally lines `# output-contains: TEXT`. A `.scenario`
/// file is run with `synclab run`, a `.chaos` file with `synclab explore FILE --seeds 1`.
@Suite struct RegressionFileTests {
    static let files: [String] = {
        let folder = TestSupport.repositoryRoot.appendingPathComponent("Tests/Regressions")
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        return names.filter { $0.hasSuffix(".scenario") || $0.hasSuffix(".chaos") }.sorted()
            .map { "Tests/Regressions/\($0)" }
    }()

    struct Header {
        var outcome: String
        var contains: [String]
    }

    static func header(of path: String) throws -> Header {
        let lines = try TestSupport.read(path).split(separator: "\n", omittingEmptySubsequences: false)
        var outcome: String?
        var contains: [String] = []
        for line in lines.prefix(10) {
            if line.hasPrefix("# outcome: ") { outcome = String(line.dropFirst("# outcome: ".count)) }
            if line.hasPrefix("# output-contains: ") {
                contains.append(String(line.dropFirst("# output-contains: ".count)))
            }
        }
        return Header(outcome: try #require(outcome, "\(path) has no '# outcome:' line"), contains: contains)
    }

    @Test func theFolderHoldsReproducers() {
        #expect(Self.files.count >= 1)
    }

    @Test(arguments: files)
    func reproducerEndsAsItsHeaderSays(_ path: String) throws {
        let header = try Self.header(of: path)
        let expectedStatus: Int32
        switch header.outcome {
        case "pass": expectedStatus = 0
        case "fail", "runtime-error": expectedStatus = 1
        case "input-error": expectedStatus = 2
        default:
            Issue.record("\(path): unknown outcome '\(header.outcome)'")
            return
        }
        let arguments = path.hasSuffix(".chaos") ? ["explore", path, "--seeds", "1"] : ["run", path]
        let result = try TestSupport.run(TestSupport.synclabBinary, arguments, deadline: 60)
        #expect(result.ending == .exited(expectedStatus), "\(path): \(result.output)")
        if header.outcome == "runtime-error" {
            #expect(result.output.contains("runtime error"), "\(path): \(result.output)")
        }
        for text in header.contains {
            #expect(result.output.contains(text), "\(path): output lacks '\(text)':\n\(result.output)")
        }
    }
}
