/// Text written into an XML 1.0 document (the JUnit and Checkstyle reports): the markup characters `& < > " '` as
/// entity references, and the characters XML 1.0 cannot hold at all (the C0 controls but tab, line feed and carriage
/// return, and U+FFFE, U+FFFF) replaced by U+FFFD. A log line, and so a message or a file name, can hold any of them.
enum XMLText {
    /// The declaration every document starts with.
    static let declaration: StaticString = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"

    /// ` name="value"`, the value escaped.
    static func attribute(_ name: StaticString, _ value: String, to buffer: ByteBuffer) {
        buffer.append(" " as StaticString)
        buffer.append(name)
        buffer.append("=\"" as StaticString)
        append(value, to: buffer, inAttribute: true)
        buffer.append(UInt8(ascii: "\""))
    }

    /// ` name="number"`.
    static func attribute(_ name: StaticString, _ value: Int, to buffer: ByteBuffer) {
        attribute(name, String(value), to: buffer)
    }

    /// Element content: text between tags.
    static func content(_ text: String, to buffer: ByteBuffer) {
        append(text, to: buffer, inAttribute: false)
    }

    /// `text` escaped, as a string (for tests and short texts).
    static func escaped(_ text: String, inAttribute: Bool = true) -> String {
        let buffer = ByteBuffer(capacity: text.utf8.count + 16)
        append(text, to: buffer, inAttribute: inAttribute)
        return String(decoding: buffer.bytes, as: UTF8.self)
    }

    /// In an attribute, tab, line feed and carriage return are written as character references: a parser would fold
    /// them to spaces otherwise. In content only the carriage return is (a parser would fold CR LF to LF).
    private static func append(_ text: String, to buffer: ByteBuffer, inAttribute: Bool) {
        text.withUTF8Bytes { utf8 in
            // Most text is plain: copied as it is. 0xEF starts U+FFFE and U+FFFF (and many allowed characters).
            guard utf8.contains(where: { $0 < 0x20 || $0 == 0xEF || isMarkup($0) }) else { buffer.append(utf8); return }
            for scalar in String(decoding: utf8, as: UTF8.self).unicodeScalars {
                switch scalar {
                case "&": buffer.append("&amp;" as StaticString)
                case "<": buffer.append("&lt;" as StaticString)
                case ">": buffer.append("&gt;" as StaticString)
                case "\"": buffer.append("&quot;" as StaticString)
                case "'": buffer.append("&apos;" as StaticString)
                case "\r": buffer.append("&#13;" as StaticString)
                case "\n" where inAttribute: buffer.append("&#10;" as StaticString)
                case "\t" where inAttribute: buffer.append("&#9;" as StaticString)
                case "\n", "\t": buffer.append(UInt8(scalar.value))
                case "\u{0}"..."\u{1F}", "\u{FFFE}", "\u{FFFF}": buffer.append("\u{FFFD}")
                case _ where scalar.isASCII: buffer.append(UInt8(scalar.value))
                default: buffer.append(String(scalar))
                }
            }
        }
    }

    private static func isMarkup(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "&"), UInt8(ascii: "<"), UInt8(ascii: ">"), UInt8(ascii: "\""), UInt8(ascii: "'"): return true
        default: return false
        }
    }
}
