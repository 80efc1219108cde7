import Kernel
import Scenario

/// The values drawn operations write: distinct for every step (so the lost-change checker
/// can tell who saw whose value), except identity values, which come from a small pool so
/// that identities collide, and Bools.
enum ValueDraw {
    /// The value step `step` writes to `attribute`.
    static func value(
        for attribute: AttributeDeclaration, step: Int, isIdentity: Bool,
        random: inout Xoshiro256StarStar
    ) -> ChaosAssignment {
        value(key: attribute.name.value, type: attribute.type, step: step,
              isIdentity: isIdentity, random: &random)
    }

    /// `value(for:step:isIdentity:random:)` of the attribute named `key`, of type `type`
    /// (given these, a caller does not copy the whole declaration out of its list).
    static func value(
        key: String, type: AttributeType, step: Int, isIdentity: Bool,
        random: inout Xoshiro256StarStar
    ) -> ChaosAssignment {
        let pool = Int(random.uniform(below: UInt64(ChaosPlan.identityPoolSize))) + 1
        let number = isIdentity ? pool : step
        let literal: ValueLiteral
        // nil for a string's text, which is the string between quotes.
        let text: String?
        switch type {
        case .string:
            // Appended, not interpolated: an interpolated Int goes through its description.
            var string = key
            if isIdentity { string.append("-") }
            string.append(String(number))
            (literal, text) = (.string(string), nil)
        case .int:
            (literal, text) = (.integer(Int64(number)), String(number))
        case .double:
            let decimal = String(number) + ".5"
            (literal, text) = (.decimal(decimal), decimal)
        case .bool:
            let flag = random.chance(1, in: 2)
            (literal, text) = (.bool(flag), flag ? "true" : "false")
        case .date:
            let date = ISODate.text(
                millisecondsSince1970: 1_767_225_600_000 + Int64(number) * 1_000)
            (literal, text) = (.string(date), nil)
        case .uuid:
            let hex = String(number, radix: 16, uppercase: true)
            let uuid = "00000000-0000-4000-8000-" + String(repeating: "0", count: 12 - hex.count)
                + hex
            (literal, text) = (.string(uuid), nil)
        case .url:
            let url = "https://example.org/" + key + "/" + String(number)
            (literal, text) = (.string(url), nil)
        case .data:
            var bytes: [UInt8] = []
            var rest = UInt64(number)
            for _ in 0..<4 {
                bytes.insert(UInt8(rest & 0xFF), at: 0)
                rest >>= 8
            }
            let hex = bytes.map { byte in
                let digits = String(byte, radix: 16)
                return digits.count == 1 ? "0" + digits : digits
            }.joined()
            (literal, text) = (.hexData(bytes), "hex\"\(hex)\"")
        }
        return ChaosAssignment(key: key, literal: literal, keptText: text)
    }

    /// The size of a `large` operation's value: past BIG-2's 256 KB, so it needs the asset.
    static let largeByteCount = 300 * 1_024

    /// A value that needs an asset (BIG rules), for String and Data attributes.
    static func large(for attribute: AttributeDeclaration) -> ChaosAssignment? {
        let key = attribute.name.value
        switch attribute.type {
        case .string:
            return ChaosAssignment(
                key: key, literal: .generatedText(byteCount: largeByteCount),
                keptText: "text(300KB)")
        case .data:
            return ChaosAssignment(
                key: key, literal: .generatedBytes(byteCount: largeByteCount),
                keptText: "bytes(300KB)")
        default:
            return nil
        }
    }

    /// `nil`, which clears an optional attribute.
    static func null(for attribute: AttributeDeclaration) -> ChaosAssignment {
        ChaosAssignment(key: attribute.name.value, literal: .null, keptText: "nil")
    }
}
