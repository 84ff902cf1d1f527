/// A timestamp as written in the log, kept inline without allocating until it is printed: most events' times are
/// never printed (only a session's first and last, and a transition's start, unless every event is listed).
public struct TimeText: Sendable, Equatable, CustomStringConvertible {
    public static let inlineCapacity = 48
    private var inline: (UInt64, UInt64, UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0, 0, 0)
    private var count = 0
    /// A time longer than the inline room (from a custom pattern).
    private var long: String?

    public init(_ bytes: UnsafeRawBufferPointer.SubSequence) {
        self.init(UnsafeRawBufferPointer(rebasing: bytes))
    }

    public init(_ bytes: UnsafeRawBufferPointer) {
        guard bytes.count <= TimeText.inlineCapacity else {
            long = String(decoding: bytes, as: UTF8.self)
            return
        }
        setInline(bytes)
    }

    /// No time (what an event whose line has none carries).
    init() {}

    var isEmpty: Bool { count == 0 && long == nil }

    /// The length of the text in bytes.
    var utf8Count: Int { long?.utf8.count ?? count }

    /// The time, or nil when there is none.
    var nonEmpty: TimeText? { isEmpty ? nil : self }

    /// Becomes the time written in `bytes`. When it fits inline (every built-in format's time does) and this one is
    /// inline too, only the bytes are copied: assigning a whole new value would retain and release its long text's
    /// storage, even when there is none.
    @inline(__always)
    mutating func assign(_ bytes: UnsafeRawBufferPointer) {
        guard long == nil, bytes.count <= TimeText.inlineCapacity else { self = TimeText(bytes); return }
        setInline(bytes)
    }

    /// Holds `bytes` (at most `inlineCapacity`) inline.
    @inline(__always)
    private mutating func setInline(_ bytes: UnsafeRawBufferPointer) {
        count = bytes.count
        guard let source = bytes.baseAddress, count > 0 else { return }
        withUnsafeMutableBytes(of: &inline) { $0.baseAddress!.copyMemory(from: source, byteCount: bytes.count) }
    }

    /// The text, made into a String now.
    public var string: String {
        withUTF8 { String(decoding: $0, as: UTF8.self) }
    }

    public var description: String { string }

    /// The text's UTF-8 bytes, without making a String.
    public func withUTF8<Result>(_ body: (UnsafeRawBufferPointer) -> Result) -> Result {
        if let long { return long.withUTF8Bytes(body) }
        let count = self.count
        return withUnsafeBytes(of: inline) { body(UnsafeRawBufferPointer(start: $0.baseAddress, count: count)) }
    }

    public static func == (lhs: TimeText, rhs: TimeText) -> Bool {
        lhs.withUTF8 { left in rhs.withUTF8 { right in left.elementsEqual(right) } }
    }
}
