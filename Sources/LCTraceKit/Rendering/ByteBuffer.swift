/// Growable bytes written through a raw pointer: one capacity check per write, and none of an array's
/// copy-on-write checks. The reports and the output buffer are built in it.
final class ByteBuffer: @unchecked Sendable {
    private(set) var start: UnsafeMutablePointer<UInt8>
    private(set) var count = 0
    private(set) var capacity: Int

    init(capacity: Int = 512) {
        self.capacity = max(capacity, 16)
        start = .allocate(capacity: self.capacity)
    }

    deinit { start.deallocate() }

    var isEmpty: Bool { count == 0 }

    /// The bytes written so far; valid until the next write.
    var bytes: UnsafeRawBufferPointer { UnsafeRawBufferPointer(start: start, count: count) }

    /// A copy of the bytes written so far.
    var array: [UInt8] { Array(UnsafeBufferPointer(start: start, count: count)) }

    func removeAll() { count = 0 }

    @inline(__always)
    func append(_ byte: UInt8) {
        if count == capacity { grow(to: count + 1) }
        start[count] = byte
        count += 1
    }

    @inline(__always)
    func append(_ bytes: UnsafeRawBufferPointer) {
        guard let source = bytes.baseAddress else { return }
        if count + bytes.count > capacity { grow(to: count + bytes.count) }
        RawBytes.copy(bytes.count, from: source, to: start + count)
        count += bytes.count
    }

    @inline(__always)
    func append(_ text: StaticString) {
        text.withUTF8Buffer { append(UnsafeRawBufferPointer($0)) }
    }

    /// Writes at most `limit` bytes straight into the buffer's room: `body` gets where to write and returns how many
    /// it wrote. One capacity check for several small writes.
    @inline(__always)
    func write(atMost limit: Int, _ body: (UnsafeMutableRawPointer) -> Int) {
        if count + limit > capacity { grow(to: count + limit) }
        // `body` writes at most `limit` bytes, and `count + limit` was just added with the check: no overflow.
        count &+= body(UnsafeMutableRawPointer(start + count))
    }

    func append(_ text: String) {
        text.withUTF8Bytes { append($0) }
    }

    /// "00" "01" … "99": two digits per division.
    private static let digitPairs: StaticString = """
        0001020304050607080910111213141516171819202122232425262728293031323334353637383940414243444546474849\
        5051525354555657585960616263646566676869707172737475767778798081828384858687888990919293949596979899
        """

    /// The most digits a decimal `UInt64` has.
    static let maxDecimalDigits = 20

    /// 10¹ to 10¹⁹ by their exponent, with 0 for 10⁰: the smallest number of each length past one digit.
    private static let digitThresholds: [UInt64] = [0] + (1...19).map { exponent in
        (0..<exponent).reduce(1) { power, _ in power * 10 }
    }

    /// How many decimal digits `value` has: from its length in bits (each bit about log₁₀ 2, 1233/4096, of a digit),
    /// less one when it is below the smallest number of that many digits. Without a division per two digits, whose
    /// loop ends after a different count for every length of number.
    @inline(__always)
    static func decimalLength(_ value: UInt64) -> Int {
        let bits = UInt64.bitWidth &- (value | 1).leadingZeroBitCount
        let guess = (bits &* 1233) &>> 12
        return guess &+ (value < digitThresholds[guess] ? 0 : 1)
    }

    /// Writes the decimal digits of `value` at `target` (room for `maxDecimalDigits`), from the last, two at a time;
    /// returns how many.
    @inline(__always)
    static func writeDecimal(_ value: UInt64, at target: UnsafeMutableRawPointer) -> Int {
        let length = decimalLength(value)
        let pairs = ByteBuffer.digitPairs.utf8Start
        var digit = target.assumingMemoryBound(to: UInt8.self) + length
        var rest = value
        while rest >= 100 {
            let pair = Int(rest % 100) &* 2
            rest /= 100
            digit -= 2
            digit[0] = pairs[pair]
            digit[1] = pairs[pair &+ 1]
        }
        if rest >= 10 {
            let pair = Int(rest) &* 2
            digit[-2] = pairs[pair]
            digit[-1] = pairs[pair &+ 1]
        } else {
            digit[-1] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: rest)
        }
        return length
    }

    /// Overwrites a byte already written.
    func replace(at index: Int, with byte: UInt8) {
        precondition(index < count)
        start[index] = byte
    }

    /// Inserts `count` copies of `byte` at `index`, moving the bytes from there on after them.
    func insert(_ byte: UInt8, count inserted: Int, at index: Int) {
        precondition(index <= count && inserted >= 0)
        if count + inserted > capacity { grow(to: count + inserted) }
        RawBytes.move(count - index, from: start + index, to: start + index + inserted)
        (start + index).initialize(repeating: byte, count: inserted)
        count += inserted
    }

    /// Trades bytes with `other`: each takes the other's memory, bytes and capacity (a full buffer handed to a
    /// writer without copying it, and without a new object for the one that goes on being filled).
    func exchangeContents(with other: ByteBuffer) {
        guard other !== self else { return }
        let (otherStart, otherCount, otherCapacity) = (other.start, other.count, other.capacity)
        other.start = start
        other.count = count
        other.capacity = capacity
        start = otherStart
        count = otherCount
        capacity = otherCapacity
    }

    private func grow(to needed: Int) {
        var newCapacity = capacity * 2
        while newCapacity < needed { newCapacity *= 2 }
        let larger = UnsafeMutablePointer<UInt8>.allocate(capacity: newCapacity)
        larger.update(from: start, count: count)
        start.deallocate()
        start = larger
        capacity = newCapacity
    }
}

extension String {
    /// The string's UTF-8 bytes: read in place when they are stored contiguously (as a native string's are), and
    /// otherwise through a copy. Reading in place needs no copy of the string, so no reference counting.
    @inline(__always)
    func withUTF8Bytes<Result>(_ body: (UnsafeRawBufferPointer) -> Result) -> Result {
        if let result = utf8.withContiguousStorageIfAvailable({ body(UnsafeRawBufferPointer($0)) }) { return result }
        var copy = self
        return copy.withUTF8 { body(UnsafeRawBufferPointer($0)) }
    }
}
