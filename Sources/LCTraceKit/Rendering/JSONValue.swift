/// A JSON value whose object keys keep the order they were written in, for small documents (the rule catalogue);
/// the reports are written with `JSONWriter` directly. Serialised pretty-printed (two spaces) with `/` left unescaped.
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
        var writer = JSONWriter(indent: indent)
        write(to: &writer)
        return writer.bytes
    }

    func write(to writer: inout JSONWriter) {
        switch self {
        case .null: writer.null()
        case .bool(let value): writer.value(value)
        case .int(let value): writer.value(value)
        case .double(let value): writer.value(value)
        case .string(let value): writer.value(value)
        case .array(let items): writer.array(items) { item, writer in item.write(to: &writer) }
        case .object(let members):
            writer.object { writer in
                for (key, value) in members {
                    writer.key(text: key)
                    value.write(to: &writer)
                }
            }
        }
    }

    /// Milliseconds and other measures: at most three decimals, no trailing zeros, integers without a point.
    static func format(_ value: Double) -> String { JSONWriter.format(value) }
}
