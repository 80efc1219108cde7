/// Writes trace values as compact JSON (RFC 8259) bytes, with a fixed and documented form.
///
/// Byte-stable output is the point: no spaces, object keys in the order given, integers in
/// decimal, strings escaped minimally (`\"`, `\\`, the short escapes `\b \f \n \r \t`, other
/// control characters as `\u00xx` with lowercase hex) and everything else left as UTF-8.
enum JSONWriter {
    static func write(_ event: TraceEvent, into bytes: inout [UInt8]) {
        append("{\"time\":", to: &bytes)
        append(String(event.time.microseconds), to: &bytes)
        append(",\"actor\":", to: &bytes)
        writeString(event.actor, into: &bytes)
        append(",\"kind\":", to: &bytes)
        writeString(event.kind, into: &bytes)
        append(",\"details\":", to: &bytes)
        writeObject(event.details, into: &bytes)
        append(",\"rules\":[", to: &bytes)
        for (index, rule) in event.rules.enumerated() {
            if index > 0 { bytes.append(UInt8(ascii: ",")) }
            writeString(rule, into: &bytes)
        }
        append("]}", to: &bytes)
    }

    static func write(_ value: TraceValue, into bytes: inout [UInt8]) {
        switch value {
        case .string(let text):
            writeString(text, into: &bytes)
        case .int(let number):
            append(String(number), to: &bytes)
        case .bool(let flag):
            append(flag ? "true" : "false", to: &bytes)
        case .null:
            append("null", to: &bytes)
        case .list(let elements):
            bytes.append(UInt8(ascii: "["))
            for (index, element) in elements.enumerated() {
                if index > 0 { bytes.append(UInt8(ascii: ",")) }
                write(element, into: &bytes)
            }
            bytes.append(UInt8(ascii: "]"))
        case .object(let fields):
            writeObject(fields, into: &bytes)
        }
    }

    static func writeObject(_ fields: [TraceField], into bytes: inout [UInt8]) {
        bytes.append(UInt8(ascii: "{"))
        for (index, field) in fields.enumerated() {
            if index > 0 { bytes.append(UInt8(ascii: ",")) }
            writeString(field.key, into: &bytes)
            bytes.append(UInt8(ascii: ":"))
            write(field.value, into: &bytes)
        }
        bytes.append(UInt8(ascii: "}"))
    }

    static func writeString(_ text: String, into bytes: inout [UInt8]) {
        bytes.append(UInt8(ascii: "\""))
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "\""): append("\\\"", to: &bytes)
            case UInt8(ascii: "\\"): append("\\\\", to: &bytes)
            case 0x08: append("\\b", to: &bytes)
            case 0x0C: append("\\f", to: &bytes)
            case 0x0A: append("\\n", to: &bytes)
            case 0x0D: append("\\r", to: &bytes)
            case 0x09: append("\\t", to: &bytes)
            case 0x00..<0x20:
                append("\\u00", to: &bytes)
                bytes.append(hexDigits[Int(byte >> 4)])
                bytes.append(hexDigits[Int(byte & 0x0F)])
            default:
                bytes.append(byte)
            }
        }
        bytes.append(UInt8(ascii: "\""))
    }

    static let hexDigits: [UInt8] = Array("0123456789abcdef".utf8)

    static func append(_ text: String, to bytes: inout [UInt8]) {
        bytes.append(contentsOf: text.utf8)
    }
}
