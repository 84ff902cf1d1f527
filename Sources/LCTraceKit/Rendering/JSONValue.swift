/// A JSON value whose object keys keep the order they were written in, so reports have a stable,
/// documented key order. Serialised pretty-printed (two spaces) with `/` left unescaped.
public indirect enum JSONValue: Equatable {
    case null
    case bool(Bool)
    case int(Int)
    case double(Double)
    case string(String)
    case array([JSONValue])
    case object([(String, JSONValue)])

    public static func == (lhs: JSONValue, rhs: JSONValue) -> Bool {
        lhs.serialized(indent: 0) == rhs.serialized(indent: 0)
    }

    public static func optional(_ value: String?) -> JSONValue { value.map(JSONValue.string) ?? .null }
    public static func optional(_ value: Int?) -> JSONValue { value.map(JSONValue.int) ?? .null }
    public static func optional(_ value: Double?) -> JSONValue { value.map(JSONValue.double) ?? .null }

    /// The value as text; nested lines are indented by `indent` levels of two spaces.
    public func serialized(indent: Int) -> String {
        String(decoding: bytes(indent: indent), as: UTF8.self)
    }

    /// The value on one line, for JSON Lines.
    public func compact() -> String {
        String(decoding: bytes(indent: nil), as: UTF8.self)
    }

    /// The UTF-8 text, pretty-printed from `indent` levels, or on one line when `indent` is nil.
    public func bytes(indent: Int?) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(256)
        write(to: &out, indent: indent)
        return out
    }

    func write(to out: inout [UInt8], indent: Int?) {
        switch self {
        case .null: out.append(contentsOf: "null".utf8)
        case .bool(let value): out.append(contentsOf: (value ? "true" : "false").utf8)
        case .int(let value): JSONValue.writeInteger(Int64(value), to: &out)
        case .double(let value):
            // Most measures are whole milliseconds: written as integers without making a String.
            if let whole = JSONValue.wholeNumber(value) {
                JSONValue.writeInteger(whole, to: &out)
            } else {
                out.append(contentsOf: JSONValue.format(value).utf8)
            }
        case .string(let value): JSONValue.writeString(value, to: &out)
        case .array(let items):
            out.append(UInt8(ascii: "["))
            guard !items.isEmpty else { out.append(UInt8(ascii: "]")); return }
            let inner = indent.map { $0 + 1 }
            for (position, item) in items.enumerated() {
                JSONValue.separate(position, inner, &out)
                item.write(to: &out, indent: inner)
            }
            JSONValue.newline(indent, &out)
            out.append(UInt8(ascii: "]"))
        case .object(let members):
            out.append(UInt8(ascii: "{"))
            guard !members.isEmpty else { out.append(UInt8(ascii: "}")); return }
            let inner = indent.map { $0 + 1 }
            for (position, (key, value)) in members.enumerated() {
                JSONValue.separate(position, inner, &out)
                JSONValue.writeString(key, to: &out)
                out.append(UInt8(ascii: ":"))
                if indent != nil { out.append(UInt8(ascii: " ")) }
                value.write(to: &out, indent: inner)
            }
            JSONValue.newline(indent, &out)
            out.append(UInt8(ascii: "}"))
        }
    }

    /// A comma before every member but the first, then the member's line break and indentation.
    private static func separate(_ position: Int, _ inner: Int?, _ out: inout [UInt8]) {
        if position > 0 { out.append(UInt8(ascii: ",")) }
        newline(inner, &out)
    }

    private static func newline(_ indent: Int?, _ out: inout [UInt8]) {
        guard let indent else { return }
        out.append(0x0A)
        out.append(contentsOf: repeatElement(0x20, count: indent * 2))
    }

    /// Decimal digits of `value`, written straight into `out`.
    private static func writeInteger(_ value: Int64, to out: inout [UInt8]) {
        if value < 0 { out.append(UInt8(ascii: "-")) }
        var magnitude = value.magnitude
        var digits: (UInt64, UInt64, UInt64) = (0, 0, 0)  // room for 24 digits, filled from the end
        var count = 0
        withUnsafeMutableBytes(of: &digits) { buffer in
            repeat {
                count += 1
                buffer[24 - count] = UInt8(ascii: "0") + UInt8(magnitude % 10)
                magnitude /= 10
            } while magnitude > 0
            out.append(contentsOf: buffer[(24 - count)...])
        }
    }

    /// Milliseconds and other measures: at most three decimals, no trailing zeros, integers without a point.
    static func format(_ value: Double) -> String {
        guard value.isFinite else { return "null" }
        if let whole = wholeNumber(value) { return String(whole) }
        return String((value * 1000).rounded() / 1000)
    }

    /// The value as an integer when, rounded to three decimals, it is one.
    private static func wholeNumber(_ value: Double) -> Int64? {
        guard value.isFinite else { return nil }
        let rounded = (value * 1000).rounded() / 1000
        return rounded == rounded.rounded() && abs(rounded) < 1e15 ? Int64(rounded) : nil
    }

    static func writeString(_ value: String, to out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        var value = value
        let needsEscape = value.withUTF8 { bytes in
            for byte in bytes where byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") { return true }
            return false
        }
        if !needsEscape {
            out.append(contentsOf: value.utf8)
        } else {
            for byte in value.utf8 {
                switch byte {
                case UInt8(ascii: "\""): out.append(contentsOf: #"\""#.utf8)
                case UInt8(ascii: "\\"): out.append(contentsOf: #"\\"#.utf8)
                case 0x0A: out.append(contentsOf: #"\n"#.utf8)
                case 0x0D: out.append(contentsOf: #"\r"#.utf8)
                case 0x09: out.append(contentsOf: #"\t"#.utf8)
                case ..<0x20:
                    let hex = String(byte, radix: 16)
                    out.append(contentsOf: ("\\u" + String(repeating: "0", count: 4 - hex.count) + hex).utf8)
                default: out.append(byte)
                }
            }
        }
        out.append(UInt8(ascii: "\""))
    }
}
