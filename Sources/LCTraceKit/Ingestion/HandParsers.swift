/// Hand-written matchers for the commonest line headers and message forms: the fast path. Each decides exactly what
/// its PCRE2 pattern (in `LineFormat` and `MessageParser`, which stay the definition) would match on the same bytes,
/// or says it cannot tell and leaves the line to PCRE2; `HandParserTests` holds the two paths to the same results.
/// Byte classes are PCRE2's without UTF or UCP: `\d` is 0-9, `\w` is [A-Za-z0-9_], `\s` is space, \t, \n, \v, \f, \r.
enum HandParsers {
    @inline(__always) static func isDigit(_ byte: UInt8) -> Bool { byte &- 0x30 < 10 }
    @inline(__always) static func isNameStart(_ byte: UInt8) -> Bool { (byte | 0x20) &- 0x61 < 26 || byte == 0x5F }
    @inline(__always) static func isWord(_ byte: UInt8) -> Bool { isNameStart(byte) || isDigit(byte) }
    @inline(__always) static func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || byte &- 0x09 < 5 }
    @inline(__always) static func isHexOrX(_ byte: UInt8) -> Bool {
        isDigit(byte) || (byte | 0x20) &- 0x61 < 6 || byte == 0x78
    }
}

/// The NSLog headers, `2016-03-17 16:02:37.277 Process[pid:tid] ` (classic) and
/// `2024-02-09 09:14:03.118204+0100 Process[pid:tid] ` (modern).
enum HandHeader: Sendable {
    case nslogClassic
    case nslogModern

    /// The header at `start`, or nil when the line is not in the format (a definite answer, as the pattern's).
    func parse(_ line: UnsafeRawBufferPointer, from start: Int) -> LineHeader? {
        var s = ByteScanner(line)
        s.index = start
        // \d{4}-\d\d-\d\d then ' ' (modern: [ T]) then \d\d:\d\d:\d\d
        guard s.digits(exactly: 4) != nil, s.skip(0x2D), s.digits(exactly: 2) != nil, s.skip(0x2D),
              s.digits(exactly: 2) != nil, s.skip(0x20) || (self == .nslogModern && s.skip(0x54)),
              s.digits(exactly: 2) != nil, s.skip(0x3A), s.digits(exactly: 2) != nil, s.skip(0x3A),
              s.digits(exactly: 2) != nil
        else { return nil }
        switch self {
        case .nslogClassic:
            // (?:\.\d{1,3})? then ' '
            if s.skip(0x2E), s.digits(upTo: 3) == nil { return nil }
        case .nslogModern:
            // \.\d{4,9} then (?:[+-]\d\d:?\d\d|Z)
            guard s.skip(0x2E) else { return nil }
            let fraction = s.index
            s.skip(while: HandParsers.isDigit)
            guard (4...9).contains(s.index - fraction) else { return nil }
            if !s.skip(0x5A) {
                guard s.skip(0x2B) || s.skip(0x2D), s.digits(exactly: 2) != nil else { return nil }
                _ = s.skip(0x3A)
                guard s.digits(exactly: 2) != nil else { return nil }
            }
        }
        let time = start..<s.index
        guard s.skip(0x20) else { return nil }
        // (?<process>[^\[\]\n]+?)\[ : the process cannot hold '[', so it ends at the first one.
        let processStart = s.index
        s.skip { $0 != 0x5B && $0 != 0x5D && $0 != 0x0A }
        let process = processStart..<s.index
        guard !process.isEmpty, s.skip(0x5B) else { return nil }
        // (?<pid>\d+):(?<tid>[0-9A-Fa-fx]+)\] ?
        let pidStart = s.index
        s.skip(while: HandParsers.isDigit)
        let pid = pidStart..<s.index
        guard !pid.isEmpty, s.skip(0x3A) else { return nil }
        let tidStart = s.index
        s.skip(while: HandParsers.isHexOrX)
        let tid = tidStart..<s.index
        guard !tid.isEmpty, s.skip(0x5D) else { return nil }
        _ = s.skip(0x20)
        return LineHeader(time: time, process: process, pid: pid, tid: tid, message: s.index..<line.count)
    }
}

/// What the hand-written message matcher decided.
enum HandMessageMatch: Equatable {
    /// `Class >>>> selector`, `Class selector()` or `Class selector` (no address).
    case matched(className: Range<Int>, selector: Range<Int>, end: Int)
    /// No lifecycle message form matches.
    case none
    /// A shape it does not decide (brackets, addresses, unusual selectors): PCRE2 decides.
    case undecided

    /// Mirrors branches 3–5 of `MessageParser.pattern` for messages that start with a name character; the others
    /// (`<Module.Class: 0x…>`, `-[Class sel]`, `[Class …]`) are left undecided.
    static func match(_ line: UnsafeRawBufferPointer, from start: Int, to limit: Int) -> HandMessageMatch {
        var i = start
        while i < limit, HandParsers.isSpace(line[i]) { i += 1 }
        guard i < limit, HandParsers.isNameStart(line[i]) else { return .undecided }
        // (name): [A-Za-z_][\w.]* — greedy, and nothing after it could be part of a shorter one.
        let nameStart = i
        i += 1
        while i < limit, HandParsers.isWord(line[i]) || line[i] == 0x2E { i += 1 }
        let name = nameStart..<i
        if i < limit, line[i] == 0x5D { return .undecided }

        // Branch 3: \s*>{2,}\s*(selector)
        var j = i
        while j < limit, HandParsers.isSpace(line[j]) { j += 1 }
        if j + 1 < limit, line[j] == 0x3E, line[j + 1] == 0x3E {
            while j < limit, line[j] == 0x3E { j += 1 }
            while j < limit, HandParsers.isSpace(line[j]) { j += 1 }
            guard let end = selector(line, from: j, to: limit) else { return .undecided }
            return .matched(className: name, selector: j..<end, end: end)
        }

        // Branches 4 and 5 both need \s+ then [A-Za-z_]\w*.
        guard i < limit, HandParsers.isSpace(line[i]) else { return .none }
        while i < limit, HandParsers.isSpace(line[i]) { i += 1 }
        let selectorStart = i
        guard i < limit, HandParsers.isNameStart(line[i]) else { return .none }
        i += 1
        while i < limit, HandParsers.isWord(line[i]) { i += 1 }
        // Branch 4: a Swift function, \([\w:]*\)
        if i < limit, line[i] == 0x28 {
            var k = i + 1
            while k < limit, HandParsers.isWord(line[k]) || line[k] == 0x3A { k += 1 }
            if k < limit, line[k] == 0x29 {
                return .matched(className: name, selector: selectorStart..<(k + 1), end: k + 1)
            }
        }
        // Branch 5: an Objective-C selector (?::(?:[A-Za-z_]\w*:)*)? and then only white space to the end.
        if i < limit, line[i] == 0x3A { i = segments(line, from: i + 1, to: limit) }
        let selectorEnd = i
        while i < limit, HandParsers.isSpace(line[i]) { i += 1 }
        return i == limit ? .matched(className: name, selector: selectorStart..<selectorEnd, end: limit) : .none
    }

    /// `[A-Za-z_]\w*(?:\([\w:]*\)|:(?:[A-Za-z_]\w*:)*)?(?![A-Za-z_(])` on its first (greedy) path: the end, or nil
    /// when that path fails the look-ahead (PCRE2 would backtrack; the caller leaves the line to it).
    private static func selector(_ line: UnsafeRawBufferPointer, from start: Int, to limit: Int) -> Int? {
        var i = start
        guard i < limit, HandParsers.isNameStart(line[i]) else { return nil }
        i += 1
        while i < limit, HandParsers.isWord(line[i]) { i += 1 }
        if i < limit, line[i] == 0x28 {
            var k = i + 1
            while k < limit, HandParsers.isWord(line[k]) || line[k] == 0x3A { k += 1 }
            guard k < limit, line[k] == 0x29 else { return nil }
            i = k + 1
        } else if i < limit, line[i] == 0x3A {
            i = segments(line, from: i + 1, to: limit)
        }
        if i < limit, HandParsers.isNameStart(line[i]) || line[i] == 0x28 { return nil }
        return i
    }

    /// (?:[A-Za-z_]\w*:)* from `start`: where the last complete segment ends.
    private static func segments(_ line: UnsafeRawBufferPointer, from start: Int, to limit: Int) -> Int {
        var end = start
        while end < limit, HandParsers.isNameStart(line[end]) {
            var k = end + 1
            while k < limit, HandParsers.isWord(line[k]) { k += 1 }
            guard k < limit, line[k] == 0x3A else { break }
            end = k + 1
        }
        return end
    }
}
