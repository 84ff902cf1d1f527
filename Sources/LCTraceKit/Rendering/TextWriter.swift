/// Writes the text report's pieces straight into bytes: names, counts, times and durations, styled with ANSI codes
/// when colour is on. The text report's per-event lines are written with it, so no String is built per line.
struct TextWriter {
    let buffer: ByteBuffer
    let style: TextStyle

    @inline(__always) func write(_ literal: StaticString) { buffer.append(literal) }
    /// Any text (a literal reaches `write(_: StaticString)` instead, as a String would not), with the control
    /// characters a log may hold escaped (`TerminalText`).
    @inline(__always) func write(text: String) {
        var text = text
        text.withUTF8 { TerminalText.append(UnsafeRawBufferPointer($0), to: buffer) }
    }

    func write(_ number: Int) {
        buffer.write(atMost: JSONWriter.integerRoom) { JSONWriter.writeInteger(Int64(number), at: $0) }
    }

    /// `1 event`, `2 events`.
    func plural(_ count: Int, _ word: StaticString) {
        write(count)
        write(" ")
        write(word)
        if count != 1 { write("s") }
    }

    /// `body` between the style's `code` and its reset, or alone when colour is off.
    @inline(__always)
    func styled(_ code: StaticString, _ body: () -> Void) {
        guard style.enabled else { body(); return }
        write("\u{1B}[")
        write(code)
        write("m")
        body()
        write("\u{1B}[0m")
    }

    func bold(_ body: () -> Void) { styled("1", body) }
    func dim(_ body: () -> Void) { styled("2", body) }

    func severity(_ severity: Severity, _ body: () -> Void) {
        switch severity {
        case .error: styled("1;31", body)
        case .warning: styled("1;33", body)
        case .info: styled("1;36", body)
        }
    }

    /// What `body` writes, after as many spaces as bring it to `width` bytes (it writes ASCII only).
    func leftPadded(to width: Int, _ body: () -> Void) {
        let start = buffer.count
        body()
        let length = buffer.count - start
        guard length < width else { return }
        buffer.insert(UInt8(ascii: " "), count: width - length, at: start)
    }

    /// `1.234 s`: milliseconds as seconds with three decimals.
    func seconds(_ ms: Double) {
        let thousandths = (ms / 1000 * 1000).rounded()
        guard let whole = TextWriter.exactInteger(thousandths) else { write(text: TextFormat.seconds(ms)); return }
        writeFixed(whole, negative: thousandths.sign == .minus, places: 3)
        write(" s")
    }

    /// `1.234 s` from a second up, else milliseconds with at most one decimal (`43.2 ms`).
    func duration(_ ms: Double) {
        if ms >= 1000 { seconds(ms); return }
        let tenths = (ms * 10).rounded()
        guard let whole = TextWriter.exactInteger(tenths) else { write(text: TextFormat.duration(ms)); return }
        if whole % 10 == 0 {
            write(Int(whole / 10))
        } else {
            writeFixed(whole, negative: whole < 0, places: 1)
        }
        write(" ms")
    }

    /// A whole number held in a Double, when it is small enough that dividing it by a power of ten up to 1,000 is
    /// printed by Swift as the plain decimal of the quotient (the shortest digits naming that Double).
    @inline(__always)
    private static func exactInteger(_ value: Double) -> Int64? {
        abs(value) < 1e12 ? Int64(value) : nil
    }

    /// `value` ÷ 10^`places` with exactly `places` decimals, `-` first when `negative` (which a zero may be).
    private func writeFixed(_ value: Int64, negative: Bool, places: Int) {
        let scale: UInt64 = places == 3 ? 1000 : 10
        let magnitude = value.magnitude
        buffer.write(atMost: JSONWriter.integerRoom + 2 + places) { room in
            var at = 0
            if negative { room.storeBytes(of: UInt8(ascii: "-"), as: UInt8.self); at = 1 }
            at += ByteBuffer.writeDecimal(magnitude / scale, at: room + at)
            room.storeBytes(of: UInt8(ascii: "."), toByteOffset: at, as: UInt8.self)
            var fraction = magnitude % scale
            var place = places
            while place > 0 {
                place -= 1
                room.storeBytes(of: UInt8(ascii: "0") &+ UInt8(fraction % 10), toByteOffset: at + 1 + place, as: UInt8.self)
                fraction /= 10
            }
            return at + 1 + places
        }
    }
}
