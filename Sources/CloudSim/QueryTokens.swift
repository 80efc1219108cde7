/// The tokenized search of `self CONTAINS` ([CKQuery]): a record's string fields, and its lists
/// of strings, cut into words (runs of letters and digits); a search matches when every word
/// of its text is among them. Words compare with case and diacritics ignored: a letter with
/// marks is the letter without them (`Ångström` is `angstrom`), named by Unicode.
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
        text.lowercased().split { !$0.isLetter && !$0.isNumber }.map { word in
            var folded = ""
            for scalar in word.unicodeScalars where scalar.properties.generalCategory
                != .nonspacingMark {
                folded += base(of: scalar)
            }
            return folded
        }
    }

    /// A letter without its marks: `é` (LATIN SMALL LETTER E WITH ACUTE) is `e`; any other
    /// letter beyond ASCII is its base letter's Unicode name, so `ά` and `α` are the same.
    static func base(of scalar: Unicode.Scalar) -> String {
        guard scalar.value > 0x7F, let name = scalar.properties.name else {
            return String(scalar)
        }
        let baseName = name.firstRange(of: " WITH ").map { name[..<$0.lowerBound] }
            ?? name[...]
        let latin = "LATIN SMALL LETTER "
        if baseName.hasPrefix(latin), baseName.count == latin.count + 1,
           let letter = baseName.last {
            return letter.lowercased()
        }
        return "{\(baseName)}"
    }
}
