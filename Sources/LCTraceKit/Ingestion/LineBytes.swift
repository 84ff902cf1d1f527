/// Byte-level helpers for reading a line: white space, trimming, finding a fixed string.
enum LineBytes {
    @inline(__always)
    static func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 }

    /// `range` without the spaces and tabs at either end.
    static func trimmed(_ line: UnsafeRawBufferPointer, _ range: Range<Int>) -> Range<Int> {
        var lower = range.lowerBound
        var upper = range.upperBound
        while lower < upper, isSpace(line[lower]) { lower &+= 1 }
        while upper > lower, isSpace(line[upper &- 1]) { upper &-= 1 }
        return LineOffsets.range(lower, upper)
    }

    /// The first index at or after `start` that is not a space or a tab.
    @inline(__always)
    static func skipSpaces(_ line: UnsafeRawBufferPointer, from start: Int) -> Int {
        var index = start
        while index < line.count, isSpace(line[index]) { index += 1 }
        return index
    }

    /// Empty or only spaces and tabs.
    static func isBlank(_ line: UnsafeRawBufferPointer) -> Bool {
        line.allSatisfy(isSpace)
    }

    /// Whether `bytes` start with `prefix`.
    @inline(__always)
    static func has(_ bytes: UnsafeRawBufferPointer.SubSequence, prefix: StaticString) -> Bool {
        guard bytes.count >= prefix.utf8CodeUnitCount, let base = bytes.base.baseAddress else { return false }
        return RawBytes.equal(base + bytes.startIndex, prefix.utf8Start, count: prefix.utf8CodeUnitCount)
    }

    /// Whether `byte` occurs in `bytes`.
    @inline(__always)
    static func contains(_ byte: UInt8, in bytes: UnsafeRawBufferPointer.SubSequence) -> Bool {
        guard let base = bytes.base.baseAddress, !bytes.isEmpty else { return false }
        return RawBytes.firstOffset(of: byte, in: base + bytes.startIndex, count: bytes.endIndex - bytes.startIndex) != nil
    }

    /// Where `needle` starts in `bytes` (the first place, or the last), or nil.
    static func find(_ needle: StaticString, in bytes: UnsafeRawBufferPointer.SubSequence, last: Bool = false) -> Int? {
        let count = needle.utf8CodeUnitCount
        guard bytes.count >= count, let base = bytes.base.baseAddress else { return nil }
        let first = needle.utf8Start.pointee
        var found: Int?
        var from = bytes.startIndex
        while from + count <= bytes.endIndex, let hit = RawBytes.firstOffset(of: first, in: base + from, count: bytes.endIndex - count + 1 - from) {
            let index = from + hit
            if RawBytes.equal(base + index, needle.utf8Start, count: count) {
                found = index
                if !last { break }
            }
            from = index + 1
        }
        return found
    }

    /// A byte that ends a line, alone or with the one after it (`\n`, `\r`).
    @inline(__always)
    static func isLineBreak(_ byte: UInt8) -> Bool { byte == 0x0A || byte == 0x0D }

    /// The first line break in `bytes` ending at or after `start`, as `LineReader` splits lines (`\n`, `\r\n`, a lone
    /// `\r`), found by the index of its last byte; `undecided` at a `\r` that is the last byte held, when more follow
    /// (`atEnd` false): the next byte decides it. Nil when there is none. The same rule as `NewlineCounter.next`, which
    /// reads the file for the byte after a `\r`.
    static func firstLineBreak(in bytes: UnsafeRawBufferPointer, from start: Int, atEnd: Bool) -> LineBreakSearch? {
        guard let base = bytes.baseAddress, start < bytes.count else { return nil }
        let count = bytes.count
        let newline = RawBytes.firstOffset(of: 0x0A, in: base + start, count: count - start).map { start + $0 } ?? count
        var at = start
        // A `\r` before the `\n` ends a line when it is alone.
        while at < newline, let found = RawBytes.firstOffset(of: 0x0D, in: base + at, count: newline - at) {
            let index = at + found
            if index + 1 < count {
                if bytes[index + 1] != 0x0A { return .breakEnding(index) }
            } else {
                return atEnd ? .breakEnding(index) : .undecided(index)
            }
            at = index + 1
        }
        return newline < count ? .breakEnding(newline) : nil
    }

    /// The index of the last line break byte (`\n` or `\r`) in `bytes` at or after `floor`, or nil.
    static func lastLineBreak(in bytes: UnsafeRawBufferPointer, notBefore floor: Int) -> Int? {
        var index = bytes.count - 1
        while index >= max(floor, 0) {
            if isLineBreak(bytes[index]) { return index }
            index -= 1
        }
        return nil
    }
}

/// What `LineBytes.firstLineBreak` found.
enum LineBreakSearch: Equatable {
    /// A line break whose last byte is at this index.
    case breakEnding(Int)
    /// A `\r` at this index, the last byte held: a line break of its own unless a `\n` follows.
    case undecided(Int)
}

/// Offsets within one line, for the hand-written readers every line goes through. A line is held in memory, so its
/// offsets and their sums and differences are far from `Int.max`: they are added without the overflow check (`&+`,
/// `&-`), and a range whose bounds were found in order is made without checking them again (debug builds, which the
/// tests run, still assert that they are in order). The tests that hold the hand-written header and message readers
/// to their PCRE2 patterns, on generated logs and seeded mutations and truncations of their lines, are what would
/// show a reader that got an offset wrong.
enum LineOffsets {
    /// `lower..<upper`, for bounds the caller found in order (`lower <= upper`, checked in debug builds).
    @inline(__always)
    static func range(_ lower: Int, _ upper: Int) -> Range<Int> {
        assert(lower <= upper, "a line range found out of order")
        return Range(uncheckedBounds: (lower, upper))
    }

    /// `range` moved `offset` bytes on: a range remembered from one line's part, placed in another line whose bytes
    /// there the caller found to be the same (so the range moved lies within that line, in order).
    @inline(__always)
    static func shift(_ range: Range<Int>, by offset: Int) -> Range<Int> {
        assert(range.lowerBound >= 0 && range.lowerBound <= range.upperBound, "a remembered range out of order")
        return Range(uncheckedBounds: (range.lowerBound &+ offset, range.upperBound &+ offset))
    }
}
