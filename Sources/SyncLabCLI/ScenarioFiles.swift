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
        let result = ScenarioChecker.check(source: source, file: path, options: options)
        for diagnostic in result.diagnostics {
            Terminal.writeError(diagnostic.renderedWithNotes)
        }
        return result.hasErrors ? nil : (result.scenario, source)
    }
}
