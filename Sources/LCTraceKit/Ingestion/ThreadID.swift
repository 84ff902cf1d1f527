/// A thread id as a log prints it: decimal (NSLog) or hexadecimal (`log show`, compact style).
public struct ThreadID: Hashable, Sendable, CustomStringConvertible {
    public var value: UInt64
    public var isHex: Bool

    /// Parses `117099`, `0x1e4a1` or `1e4a1`.
    public init?(_ bytes: UnsafeRawBufferPointer.SubSequence) {
        var digits = bytes
        var hex = false
        if digits.count > 2, digits[digits.startIndex] == 0x30, digits[digits.startIndex + 1] | 0x20 == 0x78 {
            digits = digits.dropFirst(2)
            hex = true
        }
        guard !digits.isEmpty, digits.count <= 16 else { return nil }
        if !hex { hex = digits.contains { !(0x30...0x39).contains($0) } }
        var value: UInt64 = 0
        for byte in digits {
            let digit: UInt64
            switch byte {
            case 0x30...0x39: digit = UInt64(byte - 0x30)
            case 0x61...0x66: digit = UInt64(byte - 0x61 + 10)
            case 0x41...0x46: digit = UInt64(byte - 0x41 + 10)
            default: return nil
            }
            value = hex ? value << 4 | digit : value &* 10 &+ digit
        }
        self.value = value
        self.isHex = hex
    }

    public var description: String { isHex ? "0x" + String(value, radix: 16) : String(value) }
}
