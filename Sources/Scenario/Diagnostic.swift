/// How serious a diagnostic is; any error makes the file an input error (exit 2).
public enum DiagnosticSeverity: String, Hashable, Sendable {
    case error
    case warning
    case note
}

/// A stable identifier of a kind of diagnostic, e.g. `unknown-device`.
///
/// Tests and tools match on the ID rather than on the wording, which may be refined.
public struct DiagnosticID: RawRepresentable, Hashable, Sendable, Comparable,
    CustomStringConvertible
{
    public var rawValue: String

    public init(rawValue: String) {
        self.rawValue = rawValue
    }

    public init(_ rawValue: String) {
        self.rawValue = rawValue
    }

    public static func < (lhs: DiagnosticID, rhs: DiagnosticID) -> Bool {
        lhs.rawValue < rhs.rawValue
    }

    public var description: String { rawValue }
}

/// A secondary remark attached to a diagnostic, such as where a name was first declared.
public struct DiagnosticNote: Hashable, Sendable {
    public var location: SourceLocation
    public var message: String

    public init(location: SourceLocation, message: String) {
        self.location = location
        self.message = message
    }
}

/// One problem found in a scenario file, as a value (swift-syntax style).
///
/// Messages are lower case with tokens in single quotes; `suggestions` are the candidates a
/// reader most likely meant, appended by `rendered` as `; did you mean 'x'?`.
public struct Diagnostic: Hashable, Sendable, CustomStringConvertible {
    public var severity: DiagnosticSeverity
    public var id: DiagnosticID
    public var file: String
    public var location: SourceLocation
    public var message: String
    public var suggestions: [String]
    public var notes: [DiagnosticNote]

    public init(
        severity: DiagnosticSeverity = .error,
        id: DiagnosticID,
        file: String,
        location: SourceLocation,
        message: String,
        suggestions: [String] = [],
        notes: [DiagnosticNote] = []
    ) {
        self.severity = severity
        self.id = id
        self.file = file
        self.location = location
        self.message = message
        self.suggestions = suggestions
        self.notes = notes
    }

    /// The message followed by the suggestion, if any: `unknown device 'x'; did you mean 'y'?`.
    public var fullMessage: String {
        guard let last = suggestions.last else { return message }
        let quoted = suggestions.map { "'\($0)'" }
        let list: String
        if quoted.count == 1 {
            list = quoted[0]
        } else {
            list = quoted.dropLast().joined(separator: ", ") + " or '\(last)'"
        }
        return "\(message); did you mean \(list)?"
    }

    /// `FILE:LINE:COLUMN: error: MESSAGE`, the one-line form every tool prints.
    public var rendered: String {
        "\(file):\(location.line):\(location.column): \(severity.rawValue): \(fullMessage)"
    }

    /// The rendered line followed by one `FILE:LINE:COLUMN: note: ...` line per note.
    public var renderedWithNotes: String {
        var lines = [rendered]
        for note in notes {
            let position = "\(note.location.line):\(note.location.column)"
            lines.append("\(file):\(position): note: \(note.message)")
        }
        return lines.joined(separator: "\n")
    }

    public var description: String { rendered }
}

extension Array where Element == Diagnostic {
    /// Whether any diagnostic is an error, which makes the scenario unusable.
    public var containsErrors: Bool { contains { $0.severity == .error } }
}
