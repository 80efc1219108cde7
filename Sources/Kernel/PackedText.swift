/// Fields packed into one string, each as its length in UTF-8 bytes, a colon and its text, or
/// `~` when absent: an opaque value (a sync engine's state, a record's system fields) that an
/// app's JSON or archive carries as a single string instead of a tree of keys.
public struct PackedText: Sendable {
    public private(set) var text = ""

    public init() {}

    public mutating func append(_ field: String?) {
        guard let field else { text.append("~"); return }
        text.append(String(field.utf8.count))
        text.append(":")
        text.append(field)
    }

    public mutating func append(_ number: Int64) { append(String(number)) }
    public mutating func append(_ number: Int) { append(String(number)) }
    public mutating func append(_ flag: Bool) { append(flag ? "1" : "0") }

    /// Reads fields back in the order they were appended.
    public struct Reader {
        private let bytes: [UInt8]
        private var at = 0

        public init(_ text: String) { bytes = Array(text.utf8) }

        public var isAtEnd: Bool { at == bytes.count }

        /// The next field, nil when it was appended absent.
        public mutating func optional() throws(Malformed) -> String? {
            guard at < bytes.count else { throw Malformed(offset: at) }
            if bytes[at] == UInt8(ascii: "~") { at += 1; return nil }
            var length = 0
            let digits = at
            while at < bytes.count, let digit = Self.digit(bytes[at]) {
                guard length < bytes.count else { throw Malformed(offset: at) }
                length = length * 10 + digit
                at += 1
            }
            guard at > digits, at < bytes.count, bytes[at] == UInt8(ascii: ":"),
                  length <= bytes.count - at - 1 else { throw Malformed(offset: at) }
            let start = at + 1
            at = start + length
            return String(decoding: bytes[start..<at], as: UTF8.self)
        }

        public mutating func text() throws(Malformed) -> String {
            guard let field = try optional() else { throw Malformed(offset: at) }
            return field
        }

        public mutating func int64() throws(Malformed) -> Int64 {
            guard let number = Int64(try text()) else { throw Malformed(offset: at) }
            return number
        }

        public mutating func int() throws(Malformed) -> Int {
            guard let number = Int(try text()) else { throw Malformed(offset: at) }
            return number
        }

        public mutating func flag() throws(Malformed) -> Bool {
            switch try text() {
            case "1": return true
            case "0": return false
            default: throw Malformed(offset: at)
            }
        }

        private static func digit(_ byte: UInt8) -> Int? {
            byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
                ? Int(byte - UInt8(ascii: "0")) : nil
        }
    }

    /// The text is not a sequence of packed fields (or ends before the reader expected).
    public struct Malformed: Error, Sendable, Equatable {
        /// The byte offset where reading stopped.
        public let offset: Int
        public init(offset: Int) { self.offset = offset }
    }
}
