import Foundation
import Harness
import Scenario

/// Reading scenario files and folders from the command line.
enum ScenarioFiles {
    /// Expands folders into the `.scenario` files below them, sorted by path.
    static func expand(_ paths: [String]) -> (files: [String], errors: [String]) {
        var files: [String] = []
        var errors: [String] = []
        let manager = FileManager.default
        for path in paths {
            var isDirectory: ObjCBool = false
            guard manager.fileExists(atPath: path, isDirectory: &isDirectory) else {
                errors.append("\(path): error: no such file or folder")
                continue
            }
            if isDirectory.boolValue {
                let found = (manager.enumerator(atPath: path)?.allObjects as? [String] ?? [])
                    .filter { $0.hasSuffix(".scenario") }
                    .sorted()
                    .map { path.hasSuffix("/") ? path + $0 : path + "/" + $0 }
                if found.isEmpty {
                    errors.append("\(path): error: no .scenario files in this folder")
                }
                files += found
            } else {
                files.append(path)
            }
        }
        return (files, errors)
    }

    /// Reads and checks one file: its tree and source, or its diagnostics.
    static func load(
        _ path: String, options: ValidationOptions = EngineChoice.registry.validationOptions()
    ) -> (scenario: ScenarioFile, source: String)? {
        guard let source = readSource(path) else { return nil }
        let result = ScenarioChecker.check(source: source, file: path, options: options)
        for diagnostic in result.diagnostics {
            Terminal.writeError(diagnostic.renderedWithNotes)
        }
        return result.hasErrors ? nil : (result.scenario, source)
    }

    /// A file's text, or nil with the error printed (unreadable, or not UTF-8: placed at the
    /// first invalid byte).
    static func readSource(_ path: String) -> String? {
        guard let data = FileManager.default.contents(atPath: path) else {
            Terminal.writeError("\(path): error: cannot read the file")
            return nil
        }
        guard let source = String(data: data, encoding: .utf8) else {
            let location = InvalidUTF8.firstLocation(in: data) ?? .start
            Terminal.writeError("\(path):\(location): error: the file is not valid UTF-8 "
                + "(the first invalid byte is here)")
            return nil
        }
        return source
    }

    /// Writes `text` at `relative` under `folder`, making the folders it needs; false with
    /// the error printed (`what`: "the report", "the comparison").
    static func save(_ text: String, to folder: String, relative: String, what: String) -> Bool {
        let path = (folder as NSString).appendingPathComponent(relative)
        let parent = (path as NSString).deletingLastPathComponent
        do {
            try FileManager.default.createDirectory(
                atPath: parent, withIntermediateDirectories: true)
            try Data(text.utf8).write(to: URL(fileURLWithPath: path))
            return true
        } catch {
            Terminal.writeError(
                "\(path): error: cannot write \(what) (\(error.localizedDescription))")
            return false
        }
    }
}
