import Harness
import Kernel

/// Trace details as short text for diagram labels and notes.
///
/// Record names are UUIDs or `Entity.<64 hex digits>`: a label (`n1`) replaces the name
/// when the scenario bound one, otherwise the name is cut to its first eight characters;
/// long lists and strings are cut too. The trace keeps everything.
struct TraceDetailText {
    /// Record name → the scenario's label for it.
    let labels: [String: String]

    /// Strings longer than this (in character cells) are cut.
    static let maxValueCells = 60
    /// Items of a list shown before `+N more`.
    static let maxListItems = 3

    init(labels: [FinalState.LabelBinding]) {
        self.labels = Self.labelTable(labels)
    }

    /// Record name → label; when two labels name one record, the first in name order wins.
    static func labelTable(_ bindings: [FinalState.LabelBinding]) -> [String: String] {
        var table: [String: String] = [:]
        for binding in bindings.sorted(by: { $0.label < $1.label })
        where table[binding.recordName] == nil {
            table[binding.recordName] = binding.label
        }
        return table
    }

    /// `key=value` pairs separated by spaces, leaving out keys in `hidden` and, when
    /// `terse`, values that say nothing (nil, an empty list, false).
    func fields(
        _ fields: [TraceField], hiding hidden: Set<String> = [], terse: Bool = false
    ) -> String {
        fields.compactMap { field -> String? in
            if hidden.contains(field.key) { return nil }
            if terse {
                switch field.value {
                case .null, .bool(false): return nil
                case .list(let items) where items.isEmpty: return nil
                case .object(let items) where items.isEmpty: return nil
                default: break
                }
            }
            return "\(field.key)=\(value(field.value))"
        }.joined(separator: " ")
    }

    /// One value: strings as they are (cut, names shortened), lists in brackets.
    func value(_ value: TraceValue) -> String {
        switch value {
        case .string(let text):
            return TextWidth.truncated(shortened(text), toCells: Self.maxValueCells)
        case .int(let number): return String(number)
        case .bool(let flag): return flag ? "true" : "false"
        case .null: return "nil"
        case .list(let items):
            var shown = items.prefix(Self.maxListItems).map { self.value($0) }
            if items.count > Self.maxListItems {
                shown.append("+\(items.count - Self.maxListItems) more")
            }
            return "[" + shown.joined(separator: ", ") + "]"
        case .object(let fields):
            return "{" + self.fields(fields) + "}"
        }
    }

    /// The string field of that key, if the event has one.
    static func string(_ key: String, in fields: [TraceField]) -> String? {
        for field in fields where field.key == key {
            if case .string(let text) = field.value { return text }
        }
        return nil
    }

    /// The integer field of that key, if the event has one.
    static func integer(_ key: String, in fields: [TraceField]) -> Int64? {
        for field in fields where field.key == key {
            if case .int(let number) = field.value { return number }
        }
        return nil
    }

    /// Text with every record name replaced by its label or a short form.
    func shortened(_ text: String) -> String {
        var result = ""
        var token = ""
        for character in text {
            if Self.isNameCharacter(character) {
                token.append(character)
            } else {
                result += shortenedToken(token)
                token = ""
                result.append(character)
            }
        }
        return result + shortenedToken(token)
    }

    private static func isNameCharacter(_ character: Character) -> Bool {
        guard character.isASCII else { return false }
        return character.isLetter || character.isNumber || character == "-" || character == "."
            || character == "_"
    }

    private func shortenedToken(_ token: String) -> String {
        guard token.count >= 32 else { return token }
        if let label = labels[token] { return label }
        if Self.isUUID(token) { return String(token.prefix(8)) + "…" }
        if let dot = token.lastIndex(of: "."), Self.isHex(token[token.index(after: dot)...]),
           token.distance(from: dot, to: token.endIndex) > 32 {
            return String(token[...dot]) + token[token.index(after: dot)...].prefix(8) + "…"
        }
        return token
    }

    static func isUUID(_ token: String) -> Bool {
        let groups = token.split(separator: "-", omittingEmptySubsequences: false)
        return groups.map(\.count) == [8, 4, 4, 4, 12] && groups.allSatisfy { isHex($0) }
    }

    static func isHex(_ text: Substring) -> Bool {
        !text.isEmpty && text.allSatisfy { $0.isHexDigit }
    }
}
