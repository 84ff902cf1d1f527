/// A timestamp as written in the log, kept inline: a plain value of 121 bytes (copied without a call to `memcpy`), copied without reference counting and
/// made into a String only when printed (most events' times never are: only a session's first and last, and a
/// transition's start, unless every event is listed).
///
/// Every built-in format's time fits, and so does a custom pattern's time of up to 120 bytes. A longer one keeps its
/// first bytes and ends with `…`.
public struct TimeText: Sendable, Equatable, CustomStringConvertible {
    public static let capacity = 120
    private var bytes: (UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64,
                        UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
    private var count: UInt8 = 0

    public init(_ bytes: UnsafeRawBufferPointer.SubSequence) {
        self.init(UnsafeRawBufferPointer(rebasing: bytes))
    }

    public init(_ text: UnsafeRawBufferPointer) {
        self.init()
        assign(text)
    }

    /// Makes this the time `text`, cut as `init` cuts it, in place: a reader writes an event's time where the event
    /// holds it instead of making a time and copying its 121 bytes in.
    mutating func assign(_ text: UnsafeRawBufferPointer) {
        guard text.count <= TimeText.capacity else {
            // Cut where a character starts, and mark the cut.
            let ellipsis: [UInt8] = [0xE2, 0x80, 0xA6]
            var end = TimeText.capacity - ellipsis.count
            while end > 0, text[end] & 0xC0 == 0x80 { end -= 1 }
            (Array(text[..<end]) + ellipsis).withUnsafeBytes { assign(fitting: $0) }
            return
        }
        assign(fitting: text)
    }

    /// Makes this the time `text`, at most `capacity` bytes; what the last one left past them is never read.
    private mutating func assign(fitting text: UnsafeRawBufferPointer) {
        count = UInt8(text.count)
        guard let source = text.baseAddress, !text.isEmpty else { return }
        withUnsafeMutableBytes(of: &bytes) { $0.baseAddress!.copyMemory(from: source, byteCount: text.count) }
    }

    /// No time (what an event whose line has none carries).
    init() {}

    var isEmpty: Bool { count == 0 }

    /// The time, or nil when there is none.
    var nonEmpty: TimeText? { isEmpty ? nil : self }

    /// The length of the text in bytes.
    var utf8Count: Int { Int(count) }

    /// The text, made into a String now.
    public var string: String {
        withUTF8 { String(decoding: $0, as: UTF8.self) }
    }

    public var description: String { string }

    /// The text's UTF-8 bytes, without making a String.
    public func withUTF8<Result>(_ body: (UnsafeRawBufferPointer) -> Result) -> Result {
        let count = Int(self.count)
        return withUnsafeBytes(of: bytes) { body(UnsafeRawBufferPointer(start: $0.baseAddress, count: count)) }
    }

    public static func == (lhs: TimeText, rhs: TimeText) -> Bool {
        lhs.withUTF8 { left in rhs.withUTF8 { right in left.elementsEqual(right) } }
    }
}
