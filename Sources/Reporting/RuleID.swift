/// Ordering of rule IDs (`SYNC-2` before `SYNC-10`), for lists a reader scans.
///
/// Plain string order would put `SYNC-10` before `SYNC-2`; the catalogue numbers rules
/// within a group, so the number is compared as a number.
public enum RuleID {
    public static func areInIncreasingOrder(_ left: String, _ right: String) -> Bool {
        let a = split(left)
        let b = split(right)
        if a.group != b.group { return a.group < b.group }
        if a.number != b.number { return (a.number ?? -1) < (b.number ?? -1) }
        return left < right
    }

    /// `SYNC-4` is group `SYNC`, number 4; an ID without a trailing number has none.
    static func split(_ id: String) -> (group: String, number: Int?) {
        guard let dash = id.lastIndex(of: "-"), let number = Int(id[id.index(after: dash)...])
        else { return (id, nil) }
        return (String(id[..<dash]), number)
    }

    /// The rule's anchor in an HTML page: `rule-SYNC-4`; characters an ID should not have
    /// become `_` so the anchor stays a valid fragment.
    public static func anchor(_ id: String) -> String {
        var result = "rule-"
        for scalar in id.unicodeScalars {
            let keep = scalar.isASCIILetter || scalar.isASCIIDigit || scalar == "-" || scalar == "."
            result.unicodeScalars.append(keep ? scalar : "_")
        }
        return result
    }
}

extension RuleID {
    /// Escaped HTML of `text` with every rule ID in it (`OBX-12`, `SYNC-2`) kept on one line,
    /// so a narrow column never breaks an ID at its hyphen.
    static func unbrokenHTML(_ text: String) -> String {
        var out = ""
        var word = ""
        func flush() {
            let escaped = XMLText.escape(word)
            out += looksLikeID(word) ? "<span class=\"rid\">\(escaped)</span>" : escaped
            word = ""
        }
        for character in text {
            if character.isLetter || character.isNumber || character == "-" {
                word.append(character)
            } else {
                flush()
                out += XMLText.escape(String(character))
            }
        }
        flush()
        return out
    }

    /// Upper-case letters, a hyphen and digits: the shape of every catalogue's IDs.
    static func looksLikeID(_ word: String) -> Bool {
        let parts = word.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 2, let group = parts.first, let number = parts.last,
            !group.isEmpty, !number.isEmpty
        else { return false }
        return group.allSatisfy { $0.isASCII && $0.isUppercase }
            && number.allSatisfy { $0.isASCII && $0.isNumber }
    }
}
