/// Writes JSON text straight into bytes, members in the order they are written: pretty-printed (two spaces per
/// level, from a starting level) or on one line (JSON Lines). `/` is left unescaped. The reports are written with
/// it directly, so no tree of values is built per item.
struct JSONWriter {
    private(set) var bytes: [UInt8] = []
    /// nil: everything on one line.
    private let pretty: Bool
    private var level: Int
    private var depth = 0
    /// No element written yet in the innermost open container.
    private var first = true
    /// A key was written: its value follows without a separator.
    private var afterKey = false

    /// `indent` is the level the outermost value starts at, or nil for one line.
    init(indent: Int?) {
        pretty = indent != nil
        level = indent ?? 0
        bytes.reserveCapacity(512)
    }

    /// Empties the buffer for the next value, keeping its memory.
    mutating func reset() {
        bytes.removeAll(keepingCapacity: true)
        depth = 0
        first = true
        afterKey = false
    }

    // MARK: Containers

    mutating func object(_ body: (inout JSONWriter) -> Void) {
        open(UInt8(ascii: "{"))
        body(&self)
        close(UInt8(ascii: "}"))
    }

    mutating func array(_ body: (inout JSONWriter) -> Void) {
        open(UInt8(ascii: "["))
        body(&self)
        close(UInt8(ascii: "]"))
    }

    mutating func array<Items: Sequence>(_ items: Items, _ element: (Items.Element, inout JSONWriter) -> Void) {
        array { writer in
            for item in items { element(item, &writer) }
        }
    }

    /// A member name from the report schema: plain ASCII, written as it is.
    mutating func key(_ name: StaticString) {
        separate()
        bytes.append(UInt8(ascii: "\""))
        name.withUTF8Buffer { bytes.append(contentsOf: $0) }
        bytes.append(UInt8(ascii: "\""))
        bytes.append(UInt8(ascii: ":"))
        if pretty { bytes.append(UInt8(ascii: " ")) }
        afterKey = true
    }

    /// Any member name (escaped as needed).
    mutating func key(_ name: String) {
        separate()
        writeString(name)
        bytes.append(UInt8(ascii: ":"))
        if pretty { bytes.append(UInt8(ascii: " ")) }
        afterKey = true
    }

    private mutating func open(_ bracket: UInt8) {
        beginValue()
        bytes.append(bracket)
        depth += 1
        if pretty { level += 1 }
        first = true
    }

    private mutating func close(_ bracket: UInt8) {
        depth -= 1
        if pretty { level -= 1 }
        if !first { newline() }
        bytes.append(bracket)
        first = false
    }

    private mutating func beginValue() {
        if afterKey { afterKey = false } else { separate() }
    }

    /// A comma before every element but the first, then the element's line break and indentation.
    private mutating func separate() {
        guard depth > 0 else { return }
        if !first { bytes.append(UInt8(ascii: ",")) }
        first = false
        newline()
    }

    private mutating func newline() {
        guard pretty else { return }
        let width = level * 2
        if width < JSONWriter.indentation.count {
            JSONWriter.indentation.withUnsafeBufferPointer { bytes.append(contentsOf: UnsafeBufferPointer(rebasing: $0[...width])) }
        } else {
            bytes.append(0x0A)
            bytes.append(contentsOf: repeatElement(0x20, count: width))
        }
    }

    /// A line break and 32 spaces: each line start is a prefix of it.
    private static let indentation: [UInt8] = [0x0A] + Array(repeating: 0x20, count: 32)

    // MARK: Values

    mutating func null() {
        beginValue()
        JSONWriter.null.withUTF8Buffer { bytes.append(contentsOf: $0) }
    }

    private static let null: StaticString = "null"

    mutating func value(_ value: Bool) {
        beginValue()
        bytes.append(contentsOf: (value ? "true" : "false").utf8)
    }

    mutating func value(_ value: Int) {
        beginValue()
        writeInteger(Int64(value))
    }

    mutating func value(_ value: Double) {
        beginValue()
        // Most measures are whole milliseconds: written as integers without making a String.
        if let whole = JSONWriter.wholeNumber(value) {
            writeInteger(whole)
        } else {
            bytes.append(contentsOf: JSONWriter.format(value).utf8)
        }
    }

    mutating func value(_ value: String) {
        beginValue()
        writeString(value)
    }

    mutating func value(_ value: Int?) { if let value { self.value(value) } else { null() } }
    mutating func value(_ value: Double?) { if let value { self.value(value) } else { null() } }
    mutating func value(_ value: String?) { if let value { self.value(value) } else { null() } }

    /// Ends a JSON Lines record.
    mutating func endLine() { bytes.append(0x0A) }

    mutating func member(_ name: StaticString, _ value: Int) { key(name); self.value(value) }
    mutating func member(_ name: StaticString, _ value: Int?) { key(name); self.value(value) }
    mutating func member(_ name: StaticString, _ value: Double?) { key(name); self.value(value) }
    mutating func member(_ name: StaticString, _ value: String) { key(name); self.value(value) }
    mutating func member(_ name: StaticString, _ value: String?) { key(name); self.value(value) }

    // MARK: Scalars

    private mutating func writeInteger(_ value: Int64) {
        JSONWriter.appendInteger(value, to: &bytes)
    }

    /// Decimal digits of `value`, written straight into `bytes`.
    static func appendInteger(_ value: Int64, to bytes: inout [UInt8]) {
        if value < 0 { bytes.append(UInt8(ascii: "-")) }
        var magnitude = value.magnitude
        var digits: (UInt64, UInt64, UInt64) = (0, 0, 0)  // room for 24 digits, filled from the end
        var count = 0
        withUnsafeMutableBytes(of: &digits) { buffer in
            repeat {
                count += 1
                buffer[24 - count] = UInt8(ascii: "0") + UInt8(magnitude % 10)
                magnitude /= 10
            } while magnitude > 0
            bytes.append(contentsOf: buffer[(24 - count)...])
        }
    }

    private mutating func writeString(_ value: String) {
        bytes.append(UInt8(ascii: "\""))
        var value = value
        let copied = value.withUTF8 { utf8 in
            for byte in utf8 where byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") { return false }
            bytes.append(contentsOf: utf8)
            return true
        }
        if !copied {
            for byte in value.utf8 {
                switch byte {
                case UInt8(ascii: "\""): bytes.append(contentsOf: #"\""#.utf8)
                case UInt8(ascii: "\\"): bytes.append(contentsOf: #"\\"#.utf8)
                case 0x0A: bytes.append(contentsOf: #"\n"#.utf8)
                case 0x0D: bytes.append(contentsOf: #"\r"#.utf8)
                case 0x09: bytes.append(contentsOf: #"\t"#.utf8)
                case ..<0x20:
                    let hex = String(byte, radix: 16)
                    bytes.append(contentsOf: ("\\u" + String(repeating: "0", count: 4 - hex.count) + hex).utf8)
                default: bytes.append(byte)
                }
            }
        }
        bytes.append(UInt8(ascii: "\""))
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
}
