/// Text from a log made safe to print on a terminal. A log line can hold any byte, and control characters would
/// move the cursor, recolour the screen, switch character sets or reset the terminal when printed. Every string the
/// text reports take from the input goes through here: its C0 controls and DEL are shown as `\x1b`, its C1 controls
/// as `\u009b`, the bidirectional controls that reorder what a terminal or a CI page shows (U+202E, right-to-left
/// override, and the rest) as `\u202e`, and bytes that are not UTF-8 as U+FFFD. So are names in messages on standard
/// error, and a name at the start of a line cannot start a CI workflow command (`lineStart`).
public enum TerminalText {
    /// `text` with its control characters escaped.
    public static func escaped(_ text: String) -> String {
        var copy = text
        return copy.withUTF8 { isPlain(UnsafeRawBufferPointer($0)) } ? text : escapedScalars(text.unicodeScalars)
    }

    /// A name that begins a line of output (the input of a compiler-form finding): `escaped`, and one that starts
    /// with `::` gets `./` before it, since GitHub Actions reads a line that starts with `::` as a workflow command.
    public static func lineStart(_ name: String) -> String {
        name.hasPrefix("::") ? "./" + escaped(name) : escaped(name)
    }

    /// Appends `utf8` to `buffer`, its control characters escaped and its invalid bytes replaced.
    static func append(_ utf8: UnsafeRawBufferPointer, to buffer: ByteBuffer) {
        if isPlain(utf8) { buffer.append(utf8); return }
        buffer.append(escapedScalars(String(decoding: utf8, as: UTF8.self).unicodeScalars))
    }

    /// Printable ASCII only: nothing to escape or to check further. Checked eight bytes at a time, since every
    /// name in a text report passes here.
    @inline(__always)
    private static func isPlain(_ utf8: UnsafeRawBufferPointer) -> Bool {
        guard let base = utf8.baseAddress else { return true }
        let count = utf8.count
        var offset = 0
        while offset + 8 <= count {
            if notPlainBits(UInt64(littleEndian: base.loadUnaligned(fromByteOffset: offset, as: UInt64.self))) != 0 { return false }
            offset += 8
        }
        while offset < count {
            let byte = base.load(fromByteOffset: offset, as: UInt8.self)
            if byte < 0x20 || byte >= 0x7F { return false }
            offset += 1
        }
        return true
    }

    /// Nonzero when the word holds a byte below 0x20, DEL, or a byte from 0x80 up.
    @inline(__always)
    private static func notPlainBits(_ word: UInt64) -> UInt64 {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highs: UInt64 = 0x8080_8080_8080_8080
        let below = (word &- ones &* 0x20) & ~word & highs
        let delete = ((word ^ (ones &* 0x7F)) &- ones) & ~(word ^ (ones &* 0x7F)) & highs
        return below | delete | (word & highs)
    }

    private static func escapedScalars(_ scalars: String.UnicodeScalarView) -> String {
        var result = ""
        for scalar in scalars {
            switch scalar.value {
            case 0..<0x20, 0x7F: result += "\\x" + hex(scalar.value, digits: 2)
            case 0x80..<0xA0: result += "\\u" + hex(scalar.value, digits: 4)
            case _ where isBidirectionalControl(scalar): result += "\\u" + hex(scalar.value, digits: 4)
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result
    }

    /// The controls that change the order text is shown in: U+061C, U+200E–U+200F, U+202A–U+202E, U+2066–U+2069.
    static func isBidirectionalControl(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x061C, 0x200E, 0x200F, 0x202A...0x202E, 0x2066...0x2069: return true
        default: return false
        }
    }

    static func hex(_ value: UInt32, digits: Int) -> String {
        let text = String(value, radix: 16)
        return String(repeating: "0", count: max(0, digits - text.count)) + text
    }
}
