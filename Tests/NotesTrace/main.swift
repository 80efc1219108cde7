// Runs one scenario file on the example engine (`notes`, Examples/NotesSyncEngine) and prints
// the trace as JSON Lines: SyncLabEngineKitTests runs it twice, in two processes, and
// compares the bytes (same seed, same trace, async engine included).
import Foundation
import NotesSyncEngine
import SyncLab

let arguments = CommandLine.arguments.dropFirst()
guard let path = arguments.first else {
    FileHandle.standardError.write(Data("usage: notes-trace FILE [SEED]\n".utf8))
    exit(2)
}
var lab = ScenarioLab()
lab.register(NotesProfile.profile)
let seed = arguments.dropFirst().first.flatMap { UInt64($0) }
let result = lab.run(contentsOf: path, seed: seed, engine: "notes")
for line in result.diagnostics { FileHandle.standardError.write(Data((line + "\n").utf8)) }
print(result.traceJSONLines, terminator: "")
exit(result.run == nil ? 2 : 0)
