import CatalogueGen
import Foundation

// `swift run catalogue-gen [--check]` from the repository root: writes each engine's
// `…Rules+Generated.swift` from its docs page; `--check` only reports stale files (exit 1).
let arguments = CommandLine.arguments.dropFirst()
guard arguments.allSatisfy({ $0 == "--check" }) else {
    FileHandle.standardError.write(Data("usage: catalogue-gen [--check]\n".utf8))
    exit(2)
}
let root = URL(fileURLWithPath: FileManager.default.currentDirectoryPath)
do {
    let result = try CatalogueGenerator.run(root: root, write: !arguments.contains("--check"))
    for line in result.lines { print(line) }
    exit(result.upToDate ? 0 : 1)
} catch {
    FileHandle.standardError.write(Data("catalogue-gen: \(error)\n".utf8))
    exit(2)
}
