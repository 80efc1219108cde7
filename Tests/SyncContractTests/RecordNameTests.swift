import Kernel
import SyncContract
import Testing

@Suite("RecordName")
struct RecordNameTests {
    @Test("RULES.md's example: feedLink hashes the 29 bytes s:23:https://example.org/rss;")
    func rulesExample() {
        let values: [IdentityValue] = [.string("https://example.org/rss")]
        let text = RecordName.identityText(values)
        #expect(text == "s:23:https://example.org/rss;")
        #expect(text.utf8.count == 29)
        #expect(RecordName.identityName(entity: "Feed", values: values)
            == "Feed." + SHA256.hexDigest(Array("s:23:https://example.org/rss;".utf8)))
        // From Python: hashlib.sha256(b"s:23:https://example.org/rss;").hexdigest()
        #expect(RecordName.identityName(entity: "Feed", values: values)
            == "Feed.b16f442328ed90c9678d78fb4c0c593fee1ebb238c572e98385d17ae66311048")
    }

    @Test(
        "each kind has its tag and canonical text",
        arguments: [
            (IdentityValue.string("ä:;"), "s:4:ä:;;"),
            (.string(""), "s:0:;"),
            (.int(-42), "i:3:-42;"),
            (.int(Int64.min), "i:20:-9223372036854775808;"),
            (.double(1), "d:3:1.0;"),
            (.double(0.1), "d:3:0.1;"),
            (.double(-0.0), "d:4:-0.0;"),
            (.double(1e-5), "d:5:1e-05;"),
            (.double(1e16), "d:5:1e+16;"),
            (.double(9_007_199_254_740_992), "d:18:9007199254740992.0;"),
            (.double(.infinity), "d:3:inf;"),
            (.double(.nan), "d:3:nan;"),
            (.bool(true), "b:4:true;"),
            (.bool(false), "b:5:false;"),
            (.date(millisecondsSince1970: 1_700_000_000_123), "t:13:1700000000123;"),
            (.date(millisecondsSince1970: -2), "t:2:-2;"),
            (.uuid("e621e1f8-c36c-495a-93fc-0c247a3e6e5f"),
             "u:36:E621E1F8-C36C-495A-93FC-0C247A3E6E5F;"),
            (.url("https://example.org/a?b=c"), "l:25:https://example.org/a?b=c;"),
            (.data([0x00, 0xAB, 0x7F]), "x:6:00ab7f;"),
            (.data([]), "x:0:;"),
        ]
    )
    func canonicalText(value: IdentityValue, text: String) {
        #expect(RecordName.identityText([value]) == text)
    }

    @Test("values are concatenated in order")
    func order() {
        let forward = RecordName.identityText([.int(1), .string("a")])
        #expect(forward == "i:1:1;s:1:a;")
        #expect(RecordName.identityName(entity: "E", values: [.int(1), .string("a")])
            != RecordName.identityName(entity: "E", values: [.string("a"), .int(1)]))
    }

    @Test(
        "500 random multi-value identities agree with a Python implementation",
        .enabled(if: PythonReference.isAvailable, PythonReference.missingMessage)
    )
    func agreesWithPython() throws {
        var random = Xoshiro256StarStar(seed: 0x1D_E471_7E)
        var cases: [(entity: String, values: [IdentityValue])] = []
        for index in 0..<500 {
            let count = Int(random.int(in: 1...4))
            let values = (0..<count).map { _ in Self.randomValue(&random) }
            cases.append(("Entity\(index % 7)", values))
        }
        let input = cases.map { entity, values in
            ([entity] + values.map(Self.describeForPython)).joined(separator: " ") + "\n"
        }.joined()
        let expected = try PythonReference.run(script: Self.pythonScript, input: input)
            .split(separator: "\n", omittingEmptySubsequences: false).dropLast()
        #expect(expected.count == cases.count)
        for (item, name) in zip(cases, expected) {
            let actual = RecordName.identityName(entity: item.entity, values: item.values)
            #expect(actual == name, "\(RecordName.identityText(item.values))")
        }
    }

    static func randomValue(_ random: inout Xoshiro256StarStar) -> IdentityValue {
        let alphabet: [String] = ["a", "Z", "0", ":", ";", " ", "é", "日", "🙂", "\n", "\""]
        func text(_ random: inout Xoshiro256StarStar) -> String {
            (0..<random.int(in: 0...12)).map { _ in
                alphabet[Int(random.uniform(below: UInt64(alphabet.count)))]
            }.joined()
        }
        switch random.uniform(below: 8) {
        case 0: return .string(text(&random))
        case 1: return .int(Int64(bitPattern: random.next()) >> random.int(in: 0...63))
        case 2: return .double(randomDouble(&random))
        case 3: return .bool(random.chance(1, in: 2))
        case 4:
            let milliseconds = random.int(in: -10_000_000...2_000_000_000_000)
            return .date(millisecondsSince1970: milliseconds)
        case 5:
            let hex = SHA256.hex((0..<16).map { _ in UInt8(truncatingIfNeeded: random.next()) })
            let parts = [hex.prefix(8), hex.dropFirst(8).prefix(4), hex.dropFirst(12).prefix(4),
                         hex.dropFirst(16).prefix(4), hex.dropFirst(20)]
            return .uuid(parts.joined(separator: "-"))
        case 6: return .url("https://example.org/" + text(&random))
        default:
            return .data((0..<random.int(in: 0...20)).map { _ in
                UInt8(truncatingIfNeeded: random.next())
            })
        }
    }

    /// Doubles of every shape: raw bit patterns, integers, small and huge magnitudes, and the
    /// range just above 2^53 where Swift and Python switch to exponent notation differently.
    static func randomDouble(_ random: inout Xoshiro256StarStar) -> Double {
        switch random.uniform(below: 5) {
        case 0: return Double(bitPattern: random.next())
        case 1: return Double(random.int(in: -1_000_000...1_000_000))
        case 2: return Double(random.int(in: -1_000_000...1_000_000)) / 1_024
        case 3: return Double(random.int(in: 9_007_199_254_740_993...9_999_999_999_999_999))
        default: return [0.0, -0.0, .infinity, -.infinity, .nan, 0.1, 1e-7][
            Int(random.uniform(below: 7))]
        }
    }

    /// One value as a token Python can parse without quoting: `tag=payload`, texts in hex.
    static func describeForPython(_ value: IdentityValue) -> String {
        func hex(_ text: String) -> String { SHA256.hex(Array(text.utf8)) }
        switch value {
        case .string(let text): return "s=" + hex(text)
        case .int(let number): return "i=\(number)"
        case .double(let number): return "d=\(String(number.bitPattern, radix: 16))"
        case .bool(let flag): return flag ? "b=1" : "b=0"
        case .date(let milliseconds): return "t=\(milliseconds)"
        case .uuid(let text): return "u=" + hex(text)
        case .url(let text): return "l=" + hex(text)
        case .data(let bytes): return "x=" + SHA256.hex(bytes)
        }
    }

    /// The encoding of RULES.md written independently in Python; `swift_double` gives
    /// Swift's `description` (Python's repr, except that Swift already uses exponent form
    /// above 2^53 where Python waits for 1e16).
    static let pythonScript = """
        import hashlib, struct, sys
        def swift_double(d):
            r = repr(d)
            if 2.0 ** 53 < abs(d) < 1e16:
                digits = r.lstrip("-").split(".")[0]
                exponent = len(digits) - 1
                digits = digits.rstrip("0")
                mantissa = digits[0] + ("." + digits[1:] if len(digits) > 1 else "")
                r = ("-" if d < 0 else "") + mantissa + "e+%02d" % exponent
            return r
        def text(token):
            tag, payload = token.split("=", 1)
            if tag in "slu":
                t = bytes.fromhex(payload).decode("utf-8")
                return tag, (t.upper() if tag == "u" else t)
            if tag in "it": return tag, str(int(payload))
            if tag == "b": return tag, "true" if payload == "1" else "false"
            if tag == "x": return tag, payload
            bits = int(payload, 16)
            return tag, swift_double(struct.unpack("<d", struct.pack("<Q", bits))[0])
        for line in sys.stdin.read().split("\\n")[:-1]:
            entity, *tokens = line.split(" ")
            encoded = b""
            for token in tokens:
                tag, t = text(token)
                raw = t.encode("utf-8")
                encoded += tag.encode() + b":" + str(len(raw)).encode() + b":" + raw + b";"
            print(entity + "." + hashlib.sha256(encoded).hexdigest())
        """
}
