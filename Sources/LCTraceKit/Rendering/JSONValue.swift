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
        var out = ""
        write(to: &out, indent: indent)
        return out
    }

    /// The value on one line, for JSON Lines.
    public func compact() -> String {
        var out = ""
        write(to: &out, indent: nil)
        return out
    }

    func write(to out: inout String, indent: Int?) {
        switch self {
        case .null: out += "null"
        case .bool(let value): out += value ? "true" : "false"
        case .int(let value): out += String(value)
        case .double(let value): out += JSONValue.format(value)
        case .string(let value): JSONValue.writeString(value, to: &out)
        case .array(let items):
            writeContainer(items.map { (nil, $0) }, open: "[", close: "]", to: &out, indent: indent)
        case .object(let members):
            writeContainer(members.map { (Optional($0.0), $0.1) }, open: "{", close: "}", to: &out, indent: indent)
        }
    }

    private func writeContainer(_ members: [(String?, JSONValue)], open: String, close: String,
                                to out: inout String, indent: Int?) {
        out += open
        guard !members.isEmpty else { out += close; return }
        let inner = indent.map { $0 + 1 }
        for (position, (key, value)) in members.enumerated() {
            if position > 0 { out += "," }
            if let inner { out += "\n" + String(repeating: "  ", count: inner) }
            if let key {
                JSONValue.writeString(key, to: &out)
                out += indent == nil ? ":" : ": "
            }
            value.write(to: &out, indent: inner)
        }
        if let indent { out += "\n" + String(repeating: "  ", count: indent) }
        out += close
    }

    /// Milliseconds and other measures: at most three decimals, no trailing zeros, integers without a point.
    static func format(_ value: Double) -> String {
        guard value.isFinite else { return "null" }
        let rounded = (value * 1000).rounded() / 1000
        if rounded == rounded.rounded(), abs(rounded) < 1e15 { return String(Int64(rounded)) }
        return String(rounded)
    }

    static func writeString(_ value: String, to out: inout String) {
        out += "\""
        for scalar in value.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case _ where scalar.value < 0x20:
                let hex = String(scalar.value, radix: 16)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: out.unicodeScalars.append(scalar)
            }
        }
        out += "\""
    }
}
