import Foundation
import Testing
import TestSupport
import Kernel

/// Where users see MIR-1: `synclab check` warns at each item (the file stays valid), and a
/// run shows the state and the text in the trace (MIR-2).
@Suite struct MirrorCLITests {
    static let before = "Scenarios/engines/mirror/MIRW-7-brew-book-before.scenario"

    @Test func checkWarnsAtEveryItemAndTheFileStaysValid() throws {
        let output = try TestSupport.runSynclab(["check", Self.before])
        #expect(output.status == 0, "\(output.standardError)")
        let prefix = "\(Self.before):"
        let warnings = output.standardError.split(separator: "\n").filter { $0.contains(": warning: ") }
        #expect(warnings.count == 5, "\(output.standardError)")
        let header = "on engine 'mirror' the store fails to load (NSCocoaErrorDomain 134060, MIR-1, MIR-2, "
            + "MIR-3, MIRW-7): "
        let required = "CloudKit integration requires that all attributes be optional, or have a default value "
            + "set. The following attributes are marked non-optional but do not have a default value: "
        #expect(warnings.contains { $0 == "\(prefix)20:3: warning: \(header)\(required)Brew: brewDate" })
        #expect(warnings.contains { $0 == "\(prefix)17:3: warning: \(header)\(required)Brew: brewIdentifier" })
        #expect(warnings.contains { $0 == "\(prefix)22:12: warning: \(header)CloudKit integration does not "
            + "support unique constraints. The following entities are constrained: Brew: brewIdentifier" })
        #expect(output.standardOutput.contains("OK \(Self.before)") || output.standardOutput.contains(Self.before))
    }

    @Test func otherEnginesRunTheSameFileAndGetNoWarning() throws {
        let folder = try TestSupport.temporaryFolder("mirror-cli")
        let file = folder.appendingPathComponent("required.scenario")
        try """
            scenario "A required attribute"
            engines sds, mirror
            entity Note {
              title: String
            }
            account alice
            device phone on alice
            device laptop on alice
            phone: insert Note n1 title="A"
            settle
            expect [sds] laptop: n1 title="A"
            expect [mirror] phone: state error(storeLoadFailed)
            expect [mirror] phone: fired MIR-2
            expect [mirror] cloud alice: count Note = 0

            """.write(to: file, atomically: true, encoding: .utf8)
        let check = try TestSupport.runSynclab(["check", file.path])
        #expect(check.status == 0)
        #expect(check.standardError.contains(":4:3: warning: on engine 'mirror' the store fails to load"))
        let sds = try TestSupport.runSynclab(["run", "--engine", "sds", file.path])
        #expect(sds.status == 0, "\(sds.standardOutput)\(sds.standardError)")
        let mirror = try TestSupport.runSynclab(["run", "--engine", "mirror", file.path])
        #expect(mirror.status == 0, "\(mirror.standardOutput)\(mirror.standardError)")
        let plain = folder.appendingPathComponent("sds-only.scenario")
        try """
            scenario "A required attribute on sds only"
            entity Note {
              title: String
            }
            account alice
            device phone on alice

            """.write(to: plain, atomically: true, encoding: .utf8)
        let quiet = try TestSupport.runSynclab(["check", plain.path])
        #expect(quiet.status == 0)
        #expect(!quiet.standardError.contains("warning"))
    }

    @Test func theRunShowsTheStateAndApplesTextInTheTrace() throws {
        let folder = try TestSupport.temporaryFolder("mirror-trace")
        let trace = folder.appendingPathComponent("before.jsonl")
        let output = try TestSupport.runSynclab(["run", "--trace-out", trace.path, Self.before])
        #expect(output.status == 0, "\(output.standardOutput)\(output.standardError)")
        let text = try String(contentsOf: trace, encoding: .utf8)
        let event = try #require(
            TraceEvent.decodedLines(text).first { $0.kind == "store.load-failed" })
        #expect(event[detail: "code"] == .int(134060))
        let message = event.detailStrings.joined(separator: "\n")
        #expect(message.contains("Error Domain=NSCocoaErrorDomain Code=134060 \"A Core Data error occurred.\" "
            + "UserInfo={NSLocalizedFailureReason=CloudKit integration requires that all attributes be optional"))
        #expect(message.contains("do not have a default value:\nBrew: brewDate\nBrew: brewIdentifier\nBrew: rating"
            + "\nBrew: type\nCloudKit integration does not support unique constraints. The following entities "
            + "are constrained:\nBrew: brewIdentifier"))
    }
}
