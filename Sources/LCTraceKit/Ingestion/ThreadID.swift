/// A thread id as a log prints it: decimal (NSLog) or hexadecimal (`log show`, compact style).
public struct ThreadID: Hashable, Sendable, CustomStringConvertible {
    public var value: UInt64
    public var isHex: Bool

    /// Parses `117099`, `0x1e4a1` or `1e4a1` (hexadecimal when prefixed or when it holds a letter digit).
    public init?(_ bytes: UnsafeRawBufferPointer.SubSequence) {
        self.init(UnsafeRawBufferPointer(rebasing: bytes))
    }

    /// One pass over the digits, reading them as decimal and as hexadecimal at once.
    public init?(_ bytes: UnsafeRawBufferPointer) {
        guard let base = bytes.baseAddress?.assumingMemoryBound(to: UInt8.self) else { return nil }
        var start = 0
        var hex = false
        if bytes.count > 2, base[0] == 0x30, base[1] | 0x20 == 0x78 {
            start = 2
            hex = true
        }
        let count = bytes.count - start
        guard count > 0, count <= 16 else { return nil }
        var decimal: UInt64 = 0
        var hexadecimal: UInt64 = 0
        for offset in start..<bytes.count {
            guard let value = HandParsers.hexValue(base[offset]) else { return nil }
            if value > 9 { hex = true }
            let digit = UInt64(value)
            decimal = decimal &* 10 &+ digit
            hexadecimal = hexadecimal << 4 | digit
        }
        self.value = hex ? hexadecimal : decimal
        self.isHex = hex
    }

    public var description: String { isHex ? "0x" + String(value, radix: 16) : String(value) }
}
