/// Parses log timestamps by hand (no DateFormatter on the hot path) into microseconds on a common scale.
///
/// Accepted shapes: `2016-03-17 16:02:37.277` (any number of fraction digits, optional), the same followed by a
/// zone `+0100`/`-05:00`/`Z`, ISO `T` separators, a time of day alone (`09:14:03.118204+0100`), and syslog's
/// `Mar 17 16:34:24` and `Feb  9 09:14:03.118204` (no year: year 2000 is assumed, which keeps offsets within one log
/// right). The date may be written with slashes (`2024/02/09`), and the fraction after a `.`, a `,` or a `:`
/// (CocoaLumberjack's `2024/02/09 09:14:03:118`). Times without a zone are taken as they are written.
public enum Timestamp {
    public static func microseconds(_ text: UnsafeRawBufferPointer) -> Int64? {
        var scanner = ByteScanner(text)
        if let first = scanner.peek, first >= 0x30, first <= 0x39 {
            // A time of day alone (`09:14:03.118204+0100`, Xcode's console): microseconds since midnight.
            if text.count > 2, text[2] == 0x3A {
                guard let clock = parseClock(&scanner) else { return nil }
                return applyZone(&scanner, to: clock)
            }
            return parseNumericDate(&scanner)
        }
        return parseSyslogDate(&scanner)
    }

    public static func microseconds(_ text: String) -> Int64? {
        var text = text
        return text.withUTF8 { microseconds(UnsafeRawBufferPointer($0)) }
    }

    private static func parseNumericDate(_ s: inout ByteScanner) -> Int64? {
        guard let days = parseDay(&s), var micros = parseClock(&s) else { return nil }
        micros += days * 86_400_000_000
        return applyZone(&s, to: micros)
    }

    /// `YYYY-MM-DD` or `YYYY/MM/DD` and its separator (` ` or `T`) → days since 1970-01-01.
    fileprivate static func parseDay(_ s: inout ByteScanner) -> Int64? {
        guard let year = s.digits(exactly: 4), let separator = s.peek, separator == 0x2D || separator == 0x2F else { return nil }
        s.advance()
        guard let month = s.digits(exactly: 2), s.skip(separator),
              let day = s.digits(exactly: 2), s.skip(0x20) || s.skip(0x54), isDate(year: year, month: month, day: day)
        else { return nil }
        return daysFromCivil(year: year, month: month, day: day)
    }

    /// Whether the day exists in the proleptic Gregorian calendar (`2016-02-30` does not).
    static func isDate(year: Int, month: Int, day: Int) -> Bool {
        guard month >= 1, month <= 12, day >= 1 else { return false }
        let leap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
        let days = month == 2 ? (leap ? 29 : 28) : (month == 4 || month == 6 || month == 9 || month == 11 ? 30 : 31)
        return day <= days
    }

    /// An optional zone after the time: `Z`, `+0100`, `-05:00`.
    fileprivate static func applyZone(_ s: inout ByteScanner, to micros: Int64) -> Int64 {
        var micros = micros
        if s.skip(0x5A) { return micros }
        if let sign = s.peek, sign == 0x2B || sign == 0x2D {
            s.advance()
            guard let hours = s.digits(exactly: 2) else { return micros }
            _ = s.skip(0x3A)
            let minutes = s.digits(exactly: 2) ?? 0
            let offset = Int64(hours * 3600 + minutes * 60) * 1_000_000
            micros += sign == 0x2B ? -offset : offset
        }
        return micros
    }

    private static let months: [[UInt8]] = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"].map { Array($0.utf8) }

    private static func parseSyslogDate(_ s: inout ByteScanner) -> Int64? {
        guard let name = s.take(3), let month = months.firstIndex(where: { $0.elementsEqual(name) }), s.skip(0x20) else { return nil }
        _ = s.skip(0x20)  // day padded with a space: "Mar  7"
        guard let day = s.digits(upTo: 2), isDate(year: 2000, month: month + 1, day: day), s.skip(0x20),
              let clock = parseClock(&s) else { return nil }
        return daysFromCivil(year: 2000, month: month + 1, day: day) * 86_400_000_000 + clock
    }

    /// `HH:MM:SS[.fraction]` (or `,fraction`, `:fraction`) → microseconds since midnight.
    fileprivate static func parseClock(_ s: inout ByteScanner) -> Int64? {
        guard let seconds = s.clockSeconds() else { return nil }
        var micros = Int64(seconds) * 1_000_000
        if s.skip(0x2E) || s.skip(0x2C) || s.skip(0x3A) {
            // Digits past the sixth (below a microsecond) are read over and dropped.
            var fraction: Int64 = 0
            var places = 0
            while let digit = s.peek, digit &- 0x30 < 10 {
                if places < 6 {
                    fraction = fraction * 10 + Int64(digit &- 0x30)
                    places += 1
                }
                s.advance()
            }
            while places < 6 {
                fraction *= 10
                places += 1
            }
            micros += fraction
        }
        return micros
    }

    /// Days since 1970-01-01 of a proleptic Gregorian date (Howard Hinnant's algorithm).
    static func daysFromCivil(year: Int, month: Int, day: Int) -> Int64 {
        let y = Int64(month <= 2 ? year - 1 : year)
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let m = Int64(month)
        let doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + Int64(day) - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146_097 + doe - 719_468
    }
}

/// `Timestamp.microseconds` for the lines of one input, remembering the last date read: consecutive lines share
/// their date, so only the time of day is read again; classic NSLog lines logged in one second share their first 19
/// bytes too, so only their milliseconds are.
public struct TimestampReader {
    /// The first ten bytes (`YYYY-MM-DD`, `YYYY/MM/DD`) of the last numeric date, and its day number.
    private var lastDate: (UInt64, UInt16)?
    private var lastDays: Int64 = 0
    /// The first 19 bytes (`YYYY-MM-DD HH:MM:SS`) of the last classic NSLog time read, as three overlapping words
    /// (bytes 0–7, 8–15, 11–18), and that second's microseconds.
    private var lastSecond: (UInt64, UInt64, UInt64)?
    private var lastSecondMicros: Int64 = 0

    public init() {}

    public mutating func microseconds(_ text: UnsafeRawBufferPointer) -> Int64? {
        if text.count == 23, let micros = millisecondTime(text) { return micros }
        guard text.count > 11, text[4] == 0x2D && text[7] == 0x2D || text[4] == 0x2F && text[7] == 0x2F else {
            return Timestamp.microseconds(text)
        }
        var scanner = ByteScanner(text)
        guard let days = day(of: text, scanner: &scanner), let clock = Timestamp.parseClock(&scanner) else { return nil }
        return Timestamp.applyZone(&scanner, to: clock + days * 86_400_000_000)
    }

    /// The day number of the numeric date `text` starts with (and its ` `/`T` separator), the scanner moved past
    /// them: read again only when the date differs from the last one read.
    @inline(__always)
    private mutating func day(of text: UnsafeRawBufferPointer, scanner: inout ByteScanner) -> Int64? {
        let date = (text.loadUnaligned(as: UInt64.self), text.loadUnaligned(fromByteOffset: 8, as: UInt16.self))
        if let lastDate, lastDate == date, text[10] == 0x20 || text[10] == 0x54 {
            scanner.index = 11
            return lastDays
        }
        guard let days = Timestamp.parseDay(&scanner) else { return nil }
        lastDate = date
        lastDays = days
        return days
    }
}

extension TimestampReader {
    /// `YYYY-MM-DD HH:MM:SS.mmm` (classic NSLog; `T` also between date and time), the commonest time by far: its
    /// digits checked as words, its fields read at their places. nil for any other shape of 23 bytes.
    @inline(__always)
    private mutating func millisecondTime(_ text: UnsafeRawBufferPointer) -> Int64? {
        guard let base = text.baseAddress, text[19] == 0x2E,
              HandParsers.isDigit(text[20]), HandParsers.isDigit(text[21]), HandParsers.isDigit(text[22]) else { return nil }
        func number(_ offset: Int) -> Int64 { Int64(text[offset] &- 0x30) * 10 + Int64(text[offset + 1] &- 0x30) }
        let milliseconds = Int64(text[20] &- 0x30) * 100 + number(21)
        // The same second as the last time read: its first 19 bytes were checked and read then.
        let second = (base.loadUnaligned(as: UInt64.self), base.loadUnaligned(fromByteOffset: 8, as: UInt64.self),
                      base.loadUnaligned(fromByteOffset: 11, as: UInt64.self))
        if let lastSecond, lastSecond == second { return lastSecondMicros + milliseconds * 1000 }
        guard HandHeader.isDateAndTime(at: base), text[10] == 0x20 || text[10] == 0x54 else { return nil }
        var scanner = ByteScanner(text)
        guard let days = day(of: text, scanner: &scanner) else { return nil }
        let hours = number(11), minutes = number(14), secondsPart = number(17)
        guard ByteScanner.isTimeOfDay(hours: hours, minutes: minutes, seconds: secondsPart) else { return nil }
        let seconds = (hours * 60 + minutes) * 60 + secondsPart
        lastSecond = second
        lastSecondMicros = (days * 86_400 + seconds) * 1_000_000
        return lastSecondMicros + milliseconds * 1000
    }
}

/// A cursor over bytes for the hand-written parsers (timestamps, line headers). They run on every line, so its
/// steps are inlined into them.
struct ByteScanner {
    let bytes: UnsafeRawBufferPointer
    var index = 0
    /// The same bytes, read through a plain pointer on the hot path.
    private let base: UnsafePointer<UInt8>
    private let count: Int

    init(_ bytes: UnsafeRawBufferPointer) {
        self.bytes = bytes
        count = bytes.count
        // An empty buffer may have no address; with `count` 0 nothing is ever read through this one.
        base = (bytes.baseAddress ?? UnsafeRawPointer(bitPattern: 1)!).assumingMemoryBound(to: UInt8.self)
    }

    var peek: UInt8? {
        @inline(__always) get { index < count ? base[index] : nil }
    }
    @inline(__always) mutating func advance() { index += 1 }

    /// Moves past the bytes that satisfy `predicate`.
    @inline(__always) mutating func skip(while predicate: (UInt8) -> Bool) {
        while index < count, predicate(base[index]) { index += 1 }
    }

    @inline(__always) mutating func skip(_ byte: UInt8) -> Bool {
        guard peek == byte else { return false }
        index += 1
        return true
    }

    mutating func take(_ count: Int) -> UnsafeRawBufferPointer.SubSequence? {
        guard index + count <= bytes.count else { return nil }
        defer { index += count }
        return bytes[index..<index + count]
    }

    /// The number in the next `count` digits (at most 18, so that it cannot overflow), moving past them; nil when
    /// fewer than `count` bytes are left or they are not all digits. Offsets within the text are added without
    /// overflow checks (`LineOffsets`).
    @inline(__always) mutating func digits(exactly count: Int) -> Int? {
        assert(count <= 18, "more digits than an Int holds")
        guard index &+ count <= self.count else { return nil }
        var value = 0
        for offset in 0..<count {
            let digit = base[index &+ offset]
            guard digit >= 0x30, digit <= 0x39 else { return nil }
            value = value &* 10 &+ Int(digit &- 0x30)
        }
        index &+= count
        return value
    }

    /// `HH:MM:SS` at the cursor, as seconds since midnight, moving past it; nil when it is not there.
    @inline(__always) mutating func clockSeconds() -> Int? {
        guard index + 8 <= count else { return nil }
        let p = base + index
        let h0 = p[0] &- 0x30, h1 = p[1] &- 0x30, m0 = p[3] &- 0x30, m1 = p[4] &- 0x30, s0 = p[6] &- 0x30, s1 = p[7] &- 0x30
        guard h0 < 10, h1 < 10, p[2] == 0x3A, m0 < 10, m1 < 10, p[5] == 0x3A, s0 < 10, s1 < 10 else { return nil }
        let hours = Int(h0) * 10 + Int(h1), minutes = Int(m0) * 10 + Int(m1), seconds = Int(s0) * 10 + Int(s1)
        guard ByteScanner.isTimeOfDay(hours: hours, minutes: minutes, seconds: seconds) else { return nil }
        index += 8
        return (hours * 60 + minutes) * 60 + seconds
    }

    /// A time of day a clock shows: hours 0–23, minutes 0–59, seconds 0–60 (60 for a leap second).
    @inline(__always)
    static func isTimeOfDay<T: BinaryInteger>(hours: T, minutes: T, seconds: T) -> Bool {
        hours < 24 && minutes < 60 && seconds <= 60
    }

    @inline(__always) mutating func digits(upTo count: Int) -> Int? {
        var value = 0
        var taken = 0
        while taken < count, let digit = peek, digit >= 0x30, digit <= 0x39 {
            value = value * 10 + Int(digit - 0x30)
            taken += 1
            advance()
        }
        return taken > 0 ? value : nil
    }
}
