/// Escaping for Mermaid sequence diagrams inside a Markdown code fence.
///
/// Mermaid ends a statement at `;` and at a line break, decodes `#…;` entity codes, reads
/// `%%{…}%%` as a directive and renders labels as HTML; a backtick run could close the
/// Markdown fence around the diagram. Every such character becomes a numeric entity code
/// (`#59;`), which Mermaid shows as the character itself.
public enum MermaidText {
    /// A message or note text: one line, every meaningful character encoded.
    public static func escape(_ text: String) -> String {
        var result = ""
        result.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "#": result += "#35;"
            case ";": result += "#59;"
            case "\"": result += "#34;"
            case "<": result += "#60;"
            case ">": result += "#62;"
            case "&": result += "#38;"
            case "%": result += "#37;"
            case "`": result += "#96;"
            case "\n", "\r", "\t": result += " "
            default:
                if scalar.value < 0x20 || scalar.value == 0x7F {
                    result += " "
                } else {
                    result.unicodeScalars.append(scalar)
                }
            }
        }
        return result
    }

    /// Words Mermaid's sequence grammar reserves; a participant with such a name needs an
    /// alias, or `Note over end` would end a block.
    static let keywords: Set<String> = [
        "accdescr", "acctitle", "activate", "actor", "alt", "and", "as", "autonumber", "box",
        "break", "create", "critical", "deactivate", "destroy", "details", "else", "end",
        "left", "link", "links", "loop", "note", "of", "opt", "option", "over", "par",
        "participant", "properties", "rect", "right", "title",
    ]

    /// Whether `name` can stand as a participant identifier as it is.
    public static func isPlainIdentifier(_ name: String) -> Bool {
        guard let first = name.unicodeScalars.first, first.isASCIILetter else { return false }
        let valid = name.unicodeScalars.allSatisfy {
            $0.isASCIILetter || $0.isASCIIDigit || $0 == "_"
        }
        return valid && !keywords.contains(name.lowercased())
    }
}

extension Unicode.Scalar {
    var isASCIILetter: Bool { ("a"..."z").contains(self) || ("A"..."Z").contains(self) }
    var isASCIIDigit: Bool { ("0"..."9").contains(self) }
}
