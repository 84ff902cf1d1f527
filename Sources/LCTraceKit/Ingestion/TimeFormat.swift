/// How the `time` group of a user's pattern is written (`--time-format`), in strftime's notation, for times whose
/// shape the built-in reading (`TimestampReader`) does not know: `%d/%m/%Y %H.%M.%S`, `%b %e %H:%M:%S`, `%s.%f`.
///
/// Directives (each reads digits, as strptime does; a number may have fewer digits than its widest):
///
/// | directive | reads |
/// |---|---|
/// | `%Y` | the year, 4 digits |
/// | `%y` | the year, 2 digits: 69–99 are 1969–1999, 00–68 are 2000–2068 |
/// | `%m` | the month, 1–12 |
/// | `%b`, `%h`, `%B` | the month's English name, abbreviated (`Feb`) or whole (`February`), in any case |
/// | `%d` | the day of the month, 1–31 |
/// | `%e` | the day of the month, a leading space allowed (` 9`) |
/// | `%H` | the hour, 0–23 |
/// | `%I`, `%p` | the hour on a 12-hour clock, 1–12, and `AM` or `PM` (in any case, `a.m.`/`p.m.` too); one needs the other |
/// | `%j` | the day of the year, 1–366 (instead of a month and a day) |
/// | `%a`, `%A` | the weekday's English name, abbreviated or whole, in any case: read and not checked |
/// | `%M` | the minute, 0–59 |
/// | `%S` | the second, 0–60 |
/// | `%f` | a fraction of a second, 1–9 digits (what follows the `.` or `,` the format writes before it) |
/// | `%L` | milliseconds, exactly 3 digits |
/// | `%z` | a zone: `Z`, `+01`, `+0100`, `+01:00` |
/// | `%s` | seconds since 1970-01-01 UTC (with `%f` at most: no other field) |
/// | `%T`, `%F` | `%H:%M:%S`, `%Y-%m-%d` |
/// | `%%` | `%` |
///
/// A space matches one or more spaces or tabs; any other character matches itself. The whole time must be read: a
/// time with anything left over, an impossible date (`2016-02-30`) or time of day (`24:00:00`) is not read (the
/// event has no time, counted in `unreadTimes`). A date without a year is taken in the year 2000, as syslog's are;
/// a time without a date is a time of day, as Xcode's console has it. Times without a zone are taken as written.
public struct TimeFormat: Sendable, Equatable {
    /// The format as given.
    public let text: String
    private let steps: [Step]

    enum Step: Sendable, Equatable {
        case literal(UInt8)
        /// One or more spaces or tabs.
        case spaces
        case year, shortYear, month, monthName, day, spacePaddedDay, hour, minute, second
        case fraction, milliseconds, zone, epoch
        case twelveHour, meridiem, dayOfYear, weekdayName
    }

    public init(_ text: String) throws(TimeFormatError) {
        self.text = text
        var steps: [Step] = []
        var bytes = Array(text.utf8)[...]
        while let byte = bytes.popFirst() {
            guard byte == UInt8(ascii: "%") else {
                steps.append(byte == 0x20 ? .spaces : .literal(byte))
                continue
            }
            guard let directive = bytes.popFirst() else {
                throw TimeFormatError("\(text) ends with a lone %; write %% for a percent sign")
            }
            switch directive {
            case UInt8(ascii: "Y"): steps.append(.year)
            case UInt8(ascii: "y"): steps.append(.shortYear)
            case UInt8(ascii: "m"): steps.append(.month)
            case UInt8(ascii: "b"), UInt8(ascii: "h"), UInt8(ascii: "B"): steps.append(.monthName)
            case UInt8(ascii: "d"): steps.append(.day)
            case UInt8(ascii: "e"): steps.append(.spacePaddedDay)
            case UInt8(ascii: "H"): steps.append(.hour)
            case UInt8(ascii: "I"): steps.append(.twelveHour)
            case UInt8(ascii: "p"): steps.append(.meridiem)
            case UInt8(ascii: "j"): steps.append(.dayOfYear)
            case UInt8(ascii: "a"), UInt8(ascii: "A"): steps.append(.weekdayName)
            case UInt8(ascii: "M"): steps.append(.minute)
            case UInt8(ascii: "S"): steps.append(.second)
            case UInt8(ascii: "f"): steps.append(.fraction)
            case UInt8(ascii: "L"): steps.append(.milliseconds)
            case UInt8(ascii: "z"): steps.append(.zone)
            case UInt8(ascii: "s"): steps.append(.epoch)
            case UInt8(ascii: "T"): steps += [.hour, .literal(UInt8(ascii: ":")), .minute, .literal(UInt8(ascii: ":")), .second]
            case UInt8(ascii: "F"): steps += [.year, .literal(UInt8(ascii: "-")), .month, .literal(UInt8(ascii: "-")), .day]
            case UInt8(ascii: "%"): steps.append(.literal(directive))
            default:
                let shown = String(decoding: [directive], as: UTF8.self)
                throw TimeFormatError("%\(shown) in \(text) is not a directive lctrace reads; it reads "
                                      + "%Y %y %m %b %h %B %d %e %j %a %A %H %I %p %M %S %f %L %z %s %T %F %%")
            }
        }
        try TimeFormat.check(steps, text: text)
        self.steps = steps
    }

    /// Each field at most once, at least one, and `%s` with nothing but a fraction.
    private static func check(_ steps: [Step], text: String) throws(TimeFormatError) {
        let fields = steps.filter {
            switch $0 {
            case .literal, .spaces: false
            default: true
            }
        }
        guard !fields.isEmpty else { throw TimeFormatError("\(text) has no directive: it reads no date or time") }
        func kind(_ step: Step) -> String {
            switch step {
            case .year, .shortYear: "year"
            case .month, .monthName: "month"
            case .day, .spacePaddedDay: "day"
            case .fraction, .milliseconds: "fraction of a second"
            case .hour, .twelveHour: "hour"
            default: "\(step)"
            }
        }
        var seen: Set<String> = []
        for field in fields where !seen.insert(kind(field)).inserted {
            throw TimeFormatError("\(text) reads the \(kind(field)) twice")
        }
        if fields.contains(.twelveHour) != fields.contains(.meridiem) {
            throw TimeFormatError("\(text) has " + (fields.contains(.twelveHour) ? "%I without %p" : "%p without %I")
                                  + ": a 12-hour clock needs both the hour and AM/PM")
        }
        if seen.contains("dayOfYear"), seen.contains("month") || seen.contains("day") {
            throw TimeFormatError("\(text) has %j with a month or a day of the month; %j is the date with the year alone")
        }
        if seen.contains("epoch"), !seen.isSubset(of: ["epoch", "fraction of a second"]) {
            throw TimeFormatError("\(text) has %s with other date or time fields; %s may only be followed by a fraction (%f or %L)")
        }
    }

    /// `text` read as microseconds on the scale of `Timestamp.microseconds`; nil when it does not fit the format or
    /// names a date or time that does not exist.
    public func microseconds(_ text: UnsafeRawBufferPointer) -> Int64? {
        var s = ByteScanner(text)
        var year: Int?, month: Int?, day: Int?
        var hour = 0, minute = 0, second = 0
        var afternoon: Bool?
        var dayOfYear: Int?
        var fraction: Int64 = 0
        var zoneOffset: Int64 = 0
        var epoch: Int64?
        for step in steps {
            switch step {
            case .literal(let byte):
                guard s.skip(byte) else { return nil }
            case .spaces:
                guard let first = s.peek, first == 0x20 || first == 0x09 else { return nil }
                s.skip { $0 == 0x20 || $0 == 0x09 }
            case .year:
                guard let value = s.digits(exactly: 4) else { return nil }
                year = value
            case .shortYear:
                guard let value = s.digits(exactly: 2) else { return nil }
                year = value < 69 ? 2000 + value : 1900 + value
            case .month:
                guard let value = s.digits(upTo: 2) else { return nil }
                month = value
            case .monthName:
                guard let value = TimeFormat.monthName(&s) else { return nil }
                month = value
            case .day:
                guard let value = s.digits(upTo: 2) else { return nil }
                day = value
            case .spacePaddedDay:
                _ = s.skip(0x20)
                guard let value = s.digits(upTo: 2) else { return nil }
                day = value
            case .hour:
                guard let value = s.digits(upTo: 2) else { return nil }
                hour = value
            case .twelveHour:
                guard let value = s.digits(upTo: 2), (1...12).contains(value) else { return nil }
                hour = value
            case .meridiem:
                guard let value = TimeFormat.meridiem(&s) else { return nil }
                afternoon = value
            case .dayOfYear:
                guard let value = s.digits(upTo: 3), (1...366).contains(value) else { return nil }
                dayOfYear = value
            case .weekdayName:
                guard TimeFormat.name(&s, among: TimeFormat.weekdayNames) != nil else { return nil }
            case .minute:
                guard let value = s.digits(upTo: 2) else { return nil }
                minute = value
            case .second:
                guard let value = s.digits(upTo: 2) else { return nil }
                second = value
            case .fraction:
                guard let value = TimeFormat.fraction(&s, maxDigits: 9) else { return nil }
                fraction = value
            case .milliseconds:
                guard let value = s.digits(exactly: 3) else { return nil }
                fraction = Int64(value) * 1000
            case .zone:
                guard let value = TimeFormat.zone(&s) else { return nil }
                zoneOffset = value
            case .epoch:
                guard let value = s.digits(upTo: 12) else { return nil }
                epoch = Int64(value)
            }
        }
        guard s.peek == nil else { return nil }
        if let epoch { return epoch * 1_000_000 + fraction }
        if let afternoon { hour = hour % 12 + (afternoon ? 12 : 0) }
        guard ByteScanner.isTimeOfDay(hours: hour, minutes: minute, seconds: second) else { return nil }
        var micros = Int64((hour * 60 + minute) * 60 + second) * 1_000_000 + fraction - zoneOffset
        if let dayOfYear {
            let y = year ?? 2000
            let leap = y % 4 == 0 && (y % 100 != 0 || y % 400 == 0)
            guard dayOfYear <= (leap ? 366 : 365) else { return nil }
            micros += (Timestamp.daysFromCivil(year: y, month: 1, day: 1) + Int64(dayOfYear - 1)) * 86_400_000_000
        } else if year != nil || month != nil || day != nil {
            let (y, m, d) = (year ?? 2000, month ?? 1, day ?? 1)
            guard Timestamp.isDate(year: y, month: m, day: d) else { return nil }
            micros += Timestamp.daysFromCivil(year: y, month: m, day: d) * 86_400_000_000
        }
        return micros
    }

    public func microseconds(_ text: String) -> Int64? {
        var text = text
        return text.withUTF8 { microseconds(UnsafeRawBufferPointer($0)) }
    }

    private static let monthNames: [[UInt8]] = ["january", "february", "march", "april", "may", "june", "july", "august",
                                                "september", "october", "november", "december"].map { Array($0.utf8) }

    private static let weekdayNames: [[UInt8]] = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday",
                                                  "sunday"].map { Array($0.utf8) }

    /// `AM` or `PM` (`a.m.`, `p.m.`), in any case: whether it is the afternoon.
    private static func meridiem(_ s: inout ByteScanner) -> Bool? {
        guard let first = s.peek, first | 0x20 == UInt8(ascii: "a") || first | 0x20 == UInt8(ascii: "p") else { return nil }
        s.advance()
        let dotted = s.skip(UInt8(ascii: "."))
        guard let m = s.peek, m | 0x20 == UInt8(ascii: "m") else { return nil }
        s.advance()
        if dotted { guard s.skip(UInt8(ascii: ".")) else { return nil } }
        return first | 0x20 == UInt8(ascii: "p")
    }

    /// A month's English name, whole or its first three letters, in any case: 1–12.
    private static func monthName(_ s: inout ByteScanner) -> Int? {
        name(&s, among: monthNames)
    }

    /// One of `names` (lower-case), whole or its first three letters, in any case: its number from 1.
    private static func name(_ s: inout ByteScanner, among names: [[UInt8]]) -> Int? {
        for (index, name) in names.enumerated() {
            for length in [name.count, 3] where matches(s, name.prefix(length)) {
                s.index += length
                return index + 1
            }
        }
        return nil
    }

    private static func matches(_ s: ByteScanner, _ name: ArraySlice<UInt8>) -> Bool {
        guard s.index + name.count <= s.bytes.count else { return false }
        for (offset, letter) in name.enumerated() where s.bytes[s.index + offset] | 0x20 != letter { return false }
        return true
    }

    /// 1 to `maxDigits` digits after the point, as microseconds (digits past the sixth dropped).
    private static func fraction(_ s: inout ByteScanner, maxDigits: Int) -> Int64? {
        var value: Int64 = 0
        var places = 0
        while places < maxDigits, let digit = s.peek, HandParsers.isDigit(digit) {
            if places < 6 { value = value * 10 + Int64(digit &- 0x30) }
            places += 1
            s.advance()
        }
        guard places > 0 else { return nil }
        for _ in min(places, 6)..<6 { value *= 10 }
        return value
    }

    /// `Z`, `+HH`, `+HHMM` or `+HH:MM` (or `-`): the zone's offset from UTC in microseconds.
    private static func zone(_ s: inout ByteScanner) -> Int64? {
        if s.skip(UInt8(ascii: "Z")) { return 0 }
        guard let sign = s.peek, sign == UInt8(ascii: "+") || sign == UInt8(ascii: "-") else { return nil }
        s.advance()
        guard let hours = s.digits(exactly: 2), hours < 24 else { return nil }
        var minutes = 0
        if s.peek == UInt8(ascii: ":") {
            s.advance()
            guard let value = s.digits(exactly: 2) else { return nil }
            minutes = value
        } else if let digit = s.peek, HandParsers.isDigit(digit) {
            guard let value = s.digits(exactly: 2) else { return nil }
            minutes = value
        }
        guard minutes < 60 else { return nil }
        let offset = Int64(hours * 3600 + minutes * 60) * 1_000_000
        return sign == UInt8(ascii: "+") ? offset : -offset
    }
}

/// Why a `--time-format` cannot be used, in one line.
public struct TimeFormatError: Error, CustomStringConvertible, Equatable {
    public let description: String
    init(_ description: String) { self.description = description }
}
