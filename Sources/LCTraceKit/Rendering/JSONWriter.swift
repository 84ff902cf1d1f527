/// Writes JSON text straight into bytes, members in the order they are written: pretty-printed (two spaces per
/// level, from a starting level) or on one line (JSON Lines). `/` is left unescaped. The reports are written with
/// it directly, so no tree of values is built per item.
struct JSONWriter {
    /// The text written so far. A writer is passed `inout`, never copied; only one writes to a buffer at a time.
    let buffer: ByteBuffer
    /// nil: everything on one line.
    private let pretty: Bool
    private var level: Int
    private var depth = 0
    /// No element written yet in the innermost open container.
    private var first = true
    /// A key was written: its value follows without a separator.
    private var afterKey = false

    /// `indent` is the level the outermost value starts at, or nil for one line.
    init(indent: Int?, capacity: Int = 512) {
        self.init(appendingTo: ByteBuffer(capacity: capacity), indent: indent)
    }

    /// A writer that adds to the end of text already in `buffer`.
    init(appendingTo buffer: ByteBuffer, indent: Int?) {
        pretty = indent != nil
        level = indent ?? 0
        self.buffer = buffer
    }

    /// A copy of the text written so far.
    var bytes: [UInt8] { buffer.array }

    /// Empties the buffer for the next value, keeping its memory.
    mutating func reset() {
        buffer.removeAll()
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

    /// Each item is lent to `element` where it lies in the array: an iterator would copy it, retaining (and then
    /// releasing) every reference it holds.
    mutating func array<Element>(_ items: [Element], _ element: (Element, inout JSONWriter) -> Void) {
        array { writer in
            items.withUnsafeBufferPointer { items in
                for index in items.indices { element(items[index], &writer) }
            }
        }
    }

    /// An array of objects, one per item, whose members `members` writes. The item is lent where it lies in the
    /// array: a closure writing each object would capture the item, and so copy it (retaining every reference it
    /// holds) once per object.
    mutating func objects<Element>(_ items: [Element], _ members: (Element, inout JSONWriter) -> Void) {
        array { writer in
            items.withUnsafeBufferPointer { items in
                for index in items.indices {
                    writer.open(UInt8(ascii: "{"))
                    members(items[index], &writer)
                    writer.close(UInt8(ascii: "}"))
                }
            }
        }
    }

    /// A member name from the report schema: plain ASCII, written as it is, with its separator and indentation in
    /// one write (the commonest write of a report).
    mutating func key(_ name: StaticString) {
        member(name, valueRoom: 0) { _ in 0 }
        afterKey = true
    }

    /// A member name as `key(_:)` writes it and its value after it, in one write: `value` writes at most `valueRoom`
    /// bytes where it is given and returns how many it wrote.
    @inline(__always)
    private mutating func member(_ name: StaticString, valueRoom: Int, _ value: (UnsafeMutableRawPointer) -> Int) {
        let length = name.utf8CodeUnitCount
        let indent = pretty ? level * 2 : 0
        let needsComma = !first
        let pretty = self.pretty
        buffer.write(atMost: length + indent + JSONWriter.lineBreakSlack + 5 + valueRoom) { room in
            var at = 0
            if needsComma { room.storeBytes(of: UInt8(ascii: ","), as: UInt8.self); at = 1 }
            if pretty { at += JSONWriter.writeLineBreak(indent: indent, at: room + at) }
            room.storeBytes(of: UInt8(ascii: "\""), toByteOffset: at, as: UInt8.self)
            RawBytes.copy(length, from: name.utf8Start, to: room + at + 1)
            at += length + 1
            room.storeBytes(of: UInt8(ascii: "\""), toByteOffset: at, as: UInt8.self)
            room.storeBytes(of: UInt8(ascii: ":"), toByteOffset: at + 1, as: UInt8.self)
            if pretty {
                room.storeBytes(of: UInt8(ascii: " "), toByteOffset: at + 2, as: UInt8.self)
                at += 3
            } else {
                at += 2
            }
            return at + value(room + at)
        }
        first = false
    }

    /// Room a line break needs beyond its `indent` spaces: the newline, and the overshoot of writing spaces eight at
    /// a time.
    private static let lineBreakSlack = 9

    /// A newline and `indent` spaces at `room`; returns how many bytes that is. Spaces are stored eight at a time,
    /// possibly past the end (the caller reserved `lineBreakSlack`).
    @inline(__always)
    private static func writeLineBreak(indent: Int, at room: UnsafeMutableRawPointer) -> Int {
        room.storeBytes(of: 0x0A, as: UInt8.self)
        var written = 0
        while written < indent {
            room.storeBytes(of: 0x2020_2020_2020_2020 as UInt64, toByteOffset: 1 + written, as: UInt64.self)
            written += 8
        }
        return 1 + indent
    }

    /// Any member name (escaped as needed). Named apart from `key(_: StaticString)`, which a string literal would
    /// otherwise not reach: a literal is a String first.
    mutating func key(text name: String) {
        separate()
        writeString(name)
        buffer.append(pretty ? ": " as StaticString : ":")
        afterKey = true
    }

    private mutating func open(_ bracket: UInt8) {
        beginValue()
        buffer.append(bracket)
        depth += 1
        if pretty { level += 1 }
        first = true
    }

    private mutating func close(_ bracket: UInt8) {
        depth -= 1
        if pretty { level -= 1 }
        if !first { newline() }
        buffer.append(bracket)
        first = false
    }

    private mutating func beginValue() {
        if afterKey { afterKey = false } else { separate() }
    }

    /// A comma before every element but the first, then the element's line break and indentation.
    private mutating func separate() {
        guard depth > 0 else { return }
        if !first { buffer.append(UInt8(ascii: ",")) }
        first = false
        newline()
    }

    @inline(__always)
    private mutating func newline() {
        guard pretty else { return }
        let indent = level * 2
        buffer.write(atMost: indent + JSONWriter.lineBreakSlack) { JSONWriter.writeLineBreak(indent: indent, at: $0) }
    }

    // MARK: Values

    mutating func null() {
        beginValue()
        buffer.append("null" as StaticString)
    }

    mutating func value(_ value: Bool) {
        beginValue()
        buffer.append(value ? "true" as StaticString : "false")
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
            buffer.append(JSONWriter.format(value))
        }
    }

    mutating func value(_ value: String) {
        beginValue()
        writeString(value)
    }

    mutating func value(_ value: Int?) { if let value { self.value(value) } else { null() } }
    mutating func value(_ value: Double?) { if let value { self.value(value) } else { null() } }
    mutating func value(_ value: String?) { if let value { self.value(value) } else { null() } }

    /// A timestamp as logged, written from its bytes.
    mutating func value(_ value: TimeText?) {
        guard let value else { null(); return }
        beginValue()
        value.withUTF8 { writeString($0) }
    }

    /// Ends a JSON Lines record.
    mutating func endLine() { buffer.append(0x0A) }

    // Members with a scalar value are written with their name in one write.

    @inline(__always)
    mutating func member(_ name: StaticString, _ value: Int) {
        member(name, valueRoom: JSONWriter.integerRoom) { JSONWriter.writeInteger(Int64(value), at: $0) }
    }

    @inline(__always)
    mutating func member(_ name: StaticString, _ value: Int?) {
        guard let value else { nullMember(name); return }
        member(name, value)
    }

    mutating func member(_ name: StaticString, _ value: Double?) {
        guard let value else { nullMember(name); return }
        guard let whole = JSONWriter.wholeNumber(value) else { key(name); self.value(value); return }
        member(name, valueRoom: JSONWriter.integerRoom) { JSONWriter.writeInteger(whole, at: $0) }
    }

    @inline(__always)
    mutating func member(_ name: StaticString, _ value: String) {
        value.withUTF8Bytes { member(name, utf8: $0) }
    }

    @inline(__always)
    mutating func member(_ name: StaticString, _ value: String?) {
        guard let value else { nullMember(name); return }
        member(name, value)
    }

    mutating func member(_ name: StaticString, _ value: TimeText?) {
        guard let value else { nullMember(name); return }
        value.withUTF8 { member(name, utf8: $0) }
    }

    /// A member whose value is `null`, with its name in one write.
    private mutating func nullMember(_ name: StaticString) {
        member(name, valueRoom: 4) { JSONWriter.writeNull(at: $0) }
    }

    /// A member with a string value: with its name in one write when the text needs no escaping.
    @inline(__always)
    private mutating func member(_ name: StaticString, utf8: UnsafeRawBufferPointer) {
        var plain = true
        member(name, valueRoom: utf8.count + JSONWriter.quotedSlack) { room in
            guard let written = JSONWriter.writeQuotedIfPlain(utf8, at: room) else { plain = false; return 0 }
            return written
        }
        if !plain { writeEscaped(utf8) }
    }

    // MARK: Scalars

    /// Decimal digits of `value`, written straight into the buffer.
    private mutating func writeInteger(_ value: Int64) {
        buffer.write(atMost: JSONWriter.integerRoom) { JSONWriter.writeInteger(value, at: $0) }
    }

    /// The most bytes an integer takes: a sign and twenty digits.
    static let integerRoom = ByteBuffer.maxDecimalDigits + 1

    /// Writes `value` in decimal at `target`; returns how many bytes that is.
    @inline(__always)
    static func writeInteger(_ value: Int64, at target: UnsafeMutableRawPointer) -> Int {
        guard value < 0 else { return ByteBuffer.writeDecimal(value.magnitude, at: target) }
        target.storeBytes(of: UInt8(ascii: "-"), as: UInt8.self)
        return 1 + ByteBuffer.writeDecimal(value.magnitude, at: target + 1)
    }

    @inline(__always)
    static func writeNull(at target: UnsafeMutableRawPointer) -> Int {
        target.storeBytes(of: 0x6C6C_756E as UInt32, as: UInt32.self)  // "null", little-endian
        return 4
    }

    private mutating func writeString(_ value: String) {
        value.withUTF8Bytes { writeString($0) }
    }

    private mutating func writeString(_ utf8: UnsafeRawBufferPointer) {
        if JSONWriter.appendQuotedIfPlain(utf8, to: buffer) { return }
        writeEscaped(utf8)
    }

    /// The text quoted, its quotes, backslashes and control characters (C0 and C1) escaped, and any bytes that are not
    /// UTF-8 replaced by U+FFFD: a log line can hold any byte, and a JSON reader takes only valid UTF-8. Only text the
    /// word-at-a-time check turned away comes here.
    private mutating func writeEscaped(_ utf8: UnsafeRawBufferPointer) {
        buffer.append(UInt8(ascii: "\""))
        for scalar in String(decoding: utf8, as: UTF8.self).unicodeScalars {
            switch scalar.value {
            case UInt32(UInt8(ascii: "\"")): buffer.append(#"\""#)
            case UInt32(UInt8(ascii: "\\")): buffer.append(#"\\"#)
            case 0x0A: buffer.append(#"\n"#)
            case 0x0D: buffer.append(#"\r"#)
            case 0x09: buffer.append(#"\t"#)
            case 0..<0x20, 0x80..<0xA0:
                let hex = String(scalar.value, radix: 16)
                buffer.append("\\u" + String(repeating: "0", count: 4 - hex.count) + hex)
            case 0..<0x80: buffer.append(UInt8(scalar.value))
            default: buffer.append(String(scalar))
            }
        }
        buffer.append(UInt8(ascii: "\""))
    }

    /// Nonzero when the word holds a control character, a quote, a backslash or a byte beyond ASCII (in the high bit of the first such
    /// byte at least, which is enough).
    @inline(__always)
    private static func escapeBits(_ word: UInt64) -> UInt64 {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highs: UInt64 = 0x8080_8080_8080_8080
        func zeroBytes(_ word: UInt64) -> UInt64 { (word &- ones) & ~word & highs }
        let control = (word &- ones &* 0x20) & ~word & highs
        // A byte from 0x80 up goes the slow way too: it may begin a C1 control or not be UTF-8 at all.
        return control | zeroBytes(word ^ (ones &* 0x22)) | zeroBytes(word ^ (ones &* 0x5C)) | (word & highs)
    }

    @inline(__always)
    private static func needsEscaping(_ byte: UInt8) -> Bool {
        byte < 0x20 || byte >= 0x80 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\")
    }

    /// Writes `"text"` when the text needs no escaping, copying and checking it in the same eight-byte words;
    /// otherwise writes nothing and returns false.
    @inline(__always)
    static func appendQuotedIfPlain(_ text: UnsafeRawBufferPointer, to buffer: ByteBuffer) -> Bool {
        var plain = true
        buffer.write(atMost: text.count + quotedSlack) { room in
            guard let written = writeQuotedIfPlain(text, at: room) else { plain = false; return 0 }
            return written
        }
        return plain
    }

    /// Room `writeQuotedIfPlain` needs beyond the text: its quotes (the last word it stores ends with the text).
    static let quotedSlack = 2

    /// Writes `"text"` at `room` (the text's length and `quotedSlack`) and returns its length, when the text needs no
    /// escaping; otherwise nil (what it wrote is to be ignored).
    @inline(__always)
    static func writeQuotedIfPlain(_ text: UnsafeRawBufferPointer, at room: UnsafeMutableRawPointer) -> Int? {
        let count = text.count
        room.storeBytes(of: UInt8(ascii: "\""), as: UInt8.self)
        guard let source = text.baseAddress else {
            room.storeBytes(of: UInt8(ascii: "\""), toByteOffset: 1, as: UInt8.self)
            return 2
        }
        // Offsets within the text and the room, added without overflow checks.
        if count >= 8 {
            var escapes: UInt64 = 0
            var offset = 0
            while offset &+ 8 < count {
                let word = source.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
                escapes |= escapeBits(UInt64(littleEndian: word))
                room.storeBytes(of: word, toByteOffset: 1 &+ offset, as: UInt64.self)
                offset &+= 8
            }
            // The last eight bytes, overlapping the words already copied.
            let last = source.loadUnaligned(fromByteOffset: count &- 8, as: UInt64.self)
            escapes |= escapeBits(UInt64(littleEndian: last))
            room.storeBytes(of: last, toByteOffset: 1 &+ (count &- 8), as: UInt64.self)
            guard escapes == 0 else { return nil }
        } else {
            for offset in 0..<count {
                let byte = source.load(fromByteOffset: offset, as: UInt8.self)
                guard !needsEscaping(byte) else { return nil }
                room.storeBytes(of: byte, toByteOffset: 1 &+ offset, as: UInt8.self)
            }
        }
        room.storeBytes(of: UInt8(ascii: "\""), toByteOffset: 1 &+ count, as: UInt8.self)
        return count &+ 2
    }

    /// Milliseconds and other measures: at most three decimals, no trailing zeros, integers without a point.
    static func format(_ value: Double) -> String { value.isFinite ? TextFormat.measure(value) : "null" }

    /// The value as an integer when, rounded to three decimals, it is one.
    @inline(__always)
    static func wholeNumber(_ value: Double) -> Int64? {
        // Whole already (as times logged in milliseconds give): exact through the rounding below, at this size.
        if abs(value) < 1e12, let whole = Int64(exactly: value) { return whole }
        return roundedWholeNumber(value)
    }

    /// `wholeNumber` for a value that is not a whole number already.
    @inline(never)
    private static func roundedWholeNumber(_ value: Double) -> Int64? {
        guard value.isFinite else { return nil }
        let rounded = (value * 1000).rounded() / 1000
        return rounded == rounded.rounded() && abs(rounded) < 1e15 ? Int64(rounded) : nil
    }
}
