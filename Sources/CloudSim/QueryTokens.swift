import Foundation

/// The tokenized search of `self CONTAINS` ([CKQuery]): a record's string fields, and its lists
/// of strings, cut into words; a search matches when every word of its text is among them.
/// Words are compared with case and diacritics ignored (`Ångström` is `angstrom`).
enum QueryTokens {
    static func record(_ record: CloudRecord, holdsEveryWordOf text: String) -> Bool {
        let wanted = words(of: text)
        guard !wanted.isEmpty else { return false }
        var held = Set<String>()
        for (_, value) in record.fields {  // tidy: ordered a sorted map; only a set is filled
            switch value {
            case .string(let string): held.formUnion(words(of: string))
            case .list(let values):
                for case .string(let string) in values { held.formUnion(words(of: string)) }
            default: continue
            }
        }
        return wanted.allSatisfy(held.contains)
    }

    static func words(of text: String) -> [String] {
        text.folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil)
            .split { !$0.isLetter && !$0.isNumber }.map(String.init)
    }
}
