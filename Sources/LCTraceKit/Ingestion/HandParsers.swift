/// Hand-written matchers for the commonest line headers and message forms: the fast path. Each decides exactly what
/// its PCRE2 pattern (in `LineFormat` and `MessageParser`, which stay the definition) would match on the same bytes,
/// or says it cannot tell and leaves the line to PCRE2; `HandParserTests` holds the two paths to the same results.
/// Byte classes are PCRE2's without UTF or UCP: `\d` is 0-9, `\w` is [A-Za-z0-9_], `\s` is space, \t, \n, \v, \f, \r.
enum HandParsers {
    @inline(__always) static func isDigit(_ byte: UInt8) -> Bool { byte &- 0x30 < 10 }
    @inline(__always) static func isNameStart(_ byte: UInt8) -> Bool { (byte | 0x20) &- 0x61 < 26 || byte == 0x5F }
    @inline(__always) static func isWord(_ byte: UInt8) -> Bool { isNameStart(byte) || isDigit(byte) }
    @inline(__always) static func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || byte &- 0x09 < 5 }
    /// The value of a hexadecimal digit (either case); nil for any other byte.
    @inline(__always) static func hexValue(_ byte: UInt8) -> UInt8? {
        if isDigit(byte) { return byte &- 0x30 }
        if (byte | 0x20) &- 0x61 < 6 { return (byte | 0x20) &- 0x61 &+ 10 }
        return nil
    }
    @inline(__always) static func isHexOrX(_ byte: UInt8) -> Bool {
        isDigit(byte) || (byte | 0x20) &- 0x61 < 6 || byte == 0x78
    }

    /// The same classes as bits of one table entry per byte, for the scanning loops: one load and one test a byte.
    struct ByteClass: OptionSet {
        let rawValue: UInt8
        static let digit = ByteClass(rawValue: 1)
        static let nameStart = ByteClass(rawValue: 2)
        static let word = ByteClass(rawValue: 4)
        static let space = ByteClass(rawValue: 8)
        static let hexOrX = ByteClass(rawValue: 16)
        /// `[\w.]`: what follows a name's first character.
        static let nameBody = ByteClass(rawValue: 32)
        /// `[\w:]`: inside a Swift function's parentheses.
        static let wordOrColon = ByteClass(rawValue: 64)
        /// `[^\[\]\n]`: a process name in an NSLog header.
        static let processName = ByteClass(rawValue: 128)
    }

    /// The classes of every byte, built from the predicates above (so the two cannot disagree). Written once, when
    /// first used, and only read after that.
    nonisolated(unsafe) static let byteClasses: UnsafePointer<UInt8> = {
        let table = UnsafeMutablePointer<UInt8>.allocate(capacity: 256)
        for byte in 0...255 {
            let b = UInt8(byte)
            var classes: ByteClass = []
            if isDigit(b) { classes.insert(.digit) }
            if isNameStart(b) { classes.insert(.nameStart) }
            if isWord(b) { classes.insert([.word, .nameBody, .wordOrColon]) }
            if isSpace(b) { classes.insert(.space) }
            if isHexOrX(b) { classes.insert(.hexOrX) }
            if b == 0x2E { classes.insert(.nameBody) }
            if b == 0x3A { classes.insert(.wordOrColon) }
            if b != 0x5B, b != 0x5D, b != 0x0A { classes.insert(.processName) }
            table[byte] = classes.rawValue
        }
        return UnsafePointer(table)
    }()
}

/// Bytes scanned by class through `HandParsers.byteClasses`, read through a plain pointer.
struct ClassScanner {
    let base: UnsafePointer<UInt8>
    let table: UnsafePointer<UInt8>

    /// `byteClasses` is `HandParsers.byteClasses`: a matcher that scans every line keeps it and hands it in, since
    /// reading the lazily made table checks, on each read, that it was made.
    init(_ line: UnsafeRawBufferPointer, byteClasses: UnsafePointer<UInt8> = HandParsers.byteClasses) {
        // An empty line may have no address; nothing is read from it then (every read is bounded by its count).
        base = (line.baseAddress ?? UnsafeRawPointer(bitPattern: 1)!).assumingMemoryBound(to: UInt8.self)
        table = byteClasses
    }

    @inline(__always) func isClass(_ classes: HandParsers.ByteClass, at index: Int) -> Bool {
        table[Int(base[index])] & classes.rawValue != 0
    }

    /// The first index from `index` up to `limit` whose byte is not of `classes`: eight bytes at a time while they
    /// are ASCII (`ByteWord`), then byte by byte through the table.
    @inline(__always) func skip(_ classes: HandParsers.ByteClass, from index: Int, to limit: Int) -> Int {
        var i = index
        while limit &- i >= 8 {
            let word = UInt64(littleEndian: UnsafeRawPointer(base + i).loadUnaligned(as: UInt64.self))
            guard word & ByteWord.highBits == 0 else { break }
            let others = ~ByteWord.members(of: classes, in: word) & ByteWord.highBits
            if others != 0 { return i &+ others.trailingZeroBitCount &>> 3 }
            i &+= 8
        }
        while i < limit, table[Int(base[i])] & classes.rawValue != 0 { i &+= 1 }
        return i
    }

    /// The first index from `index` up to `limit` whose byte is `first` or `second`; `limit` when there is none.
    /// Eight bytes at a time, any bytes: a byte's difference from the one looked for is zero exactly where they are
    /// equal, and the lowest byte the zero test flags is always exact (a borrow only runs upwards from a zero byte).
    @inline(__always) func firstIndex(of first: UInt8, or second: UInt8, from index: Int, to limit: Int) -> Int {
        var i = index
        while limit &- i >= 8 {
            let word = UInt64(littleEndian: UnsafeRawPointer(base + i).loadUnaligned(as: UInt64.self))
            let found = ByteWord.zeroBytes(word ^ ByteWord.spread(first)) | ByteWord.zeroBytes(word ^ ByteWord.spread(second))
            if found != 0 { return i &+ found.trailingZeroBitCount &>> 3 }
            i &+= 8
        }
        while i < limit, base[i] != first, base[i] != second { i &+= 1 }
        return i
    }

    @inline(__always) subscript(index: Int) -> UInt8 { base[index] }
}

/// The byte classes of `HandParsers.ByteClass` tested on eight bytes at once, as one little-endian word whose bytes are
/// all ASCII (below 0x80): a byte of the class has its high bit set in the result, every other bit is clear. In an
/// ASCII word no sum below carries out of its byte, so each byte's answer is its own; `ClassScanner.skip` reads any
/// other word byte by byte. `HandParserTests` checks every class against the table, byte by byte in every place.
enum ByteWord {
    static let ones: UInt64 = 0x0101_0101_0101_0101
    static let highBits: UInt64 = 0x8080_8080_8080_8080

    @inline(__always) static func spread(_ byte: UInt8) -> UInt64 { ones &* UInt64(byte) }

    /// The zero bytes of any word, the lowest of them exactly (the ones above it may be flagged wrongly).
    @inline(__always) static func zeroBytes(_ word: UInt64) -> UInt64 {
        (word &- ones) & ~word & highBits
    }

    /// The bytes equal to `byte`.
    @inline(__always) static func equal(_ word: UInt64, _ byte: UInt8) -> UInt64 {
        ~((word ^ spread(byte)) &+ spread(0x7F)) & highBits
    }

    /// The bytes from `low` through `high`: at least `low` when adding 0x80 - low sets the high bit, at most `high`
    /// when adding 0x7F - high leaves it clear.
    @inline(__always) static func inRange(_ word: UInt64, _ low: UInt8, _ high: UInt8) -> UInt64 {
        (word &+ spread(0x80 &- low)) & ~(word &+ spread(0x7F &- high)) & highBits
    }

    /// The bytes of any of `classes`. With the classes known where it is inlined, only their tests remain.
    @inline(__always) static func members(of classes: HandParsers.ByteClass, in word: UInt64) -> UInt64 {
        let digit = inRange(word, 0x30, 0x39)
        let lowered = word | spread(0x20)
        let letter = inRange(lowered, 0x61, 0x7A)
        let underscore = equal(word, 0x5F)
        var members: UInt64 = 0
        if classes.contains(.digit) { members |= digit }
        if classes.contains(.nameStart) { members |= letter | underscore }
        if classes.contains(.word) { members |= digit | letter | underscore }
        if classes.contains(.space) { members |= equal(word, 0x20) | inRange(word, 0x09, 0x0D) }
        if classes.contains(.hexOrX) { members |= digit | inRange(lowered, 0x61, 0x66) | equal(word, 0x78) }
        if classes.contains(.nameBody) { members |= digit | letter | underscore | equal(word, 0x2E) }
        if classes.contains(.wordOrColon) { members |= digit | letter | underscore | equal(word, 0x3A) }
        if classes.contains(.processName) {
            members |= ~(equal(word, 0x5B) | equal(word, 0x5D) | equal(word, 0x0A)) & highBits
        }
        return members
    }
}

/// The NSLog headers, `2016-03-17 16:02:37.277 Process[pid:tid] ` (classic) and
/// `2024-02-09 09:14:03.118204+0100 Process[pid:tid] ` (modern), and `log`'s compact style,
/// `2024-02-09 09:14:03.118 Df Process[pid:tid] (Library) [subsystem:category] ` (what a whole-device log is most
/// often read in: every other process's line goes through it).
enum HandHeader: Sendable {
    case nslogClassic
    case nslogModern
    case logCompact

    /// The header at `start`, or nil when the line is not in the format (a definite answer, as the pattern's).
    /// `tail` remembers the last header's process and ids: a line with the same bytes there is not scanned again.
    /// `byteClasses` is `HandParsers.byteClasses` (see `ClassScanner`).
    func parse(_ line: UnsafeRawBufferPointer, from start: Int, tail: inout HeaderTail,
               byteClasses: UnsafePointer<UInt8> = HandParsers.byteClasses) -> LineHeader? {
        // \d{4}-\d\d-\d\d then ' ' (modern: [ T]) then \d\d:\d\d:\d\d, at fixed places.
        // Offsets on the paths most lines take are added and subtracted without overflow checks: see `LineOffsets`.
        guard line.count &- start >= 19, let base = line.baseAddress else { return nil }
        let separator = base.load(fromByteOffset: start &+ 10, as: UInt8.self)
        guard HandHeader.isDateAndTime(at: base + start), separator == 0x20 || (self == .nslogModern && separator == 0x54)
        else { return nil }
        var s = ByteScanner(line)
        s.index = start &+ 19
        switch self {
        case .nslogClassic:
            // (?:\.\d{1,3})? then ' '
            if s.skip(0x2E), s.digits(upTo: 3) == nil { return nil }
        case .logCompact:
            // \.\d{3}
            guard s.skip(0x2E), s.digits(exactly: 3) != nil else { return nil }
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
        let time = LineOffsets.range(start, s.index)
        let l = ClassScanner(line, byteClasses: byteClasses)
        let limit = line.count
        let triesTail = tail.takesPart()
        if triesTail, let known = tail.match(line, at: s.index) {
            tail.matched()
            let message = self == .logCompact ? HandHeader.compactMessage(l, from: known.message.lowerBound, to: limit) : known.message
            return LineHeader(time: time, process: known.process, pid: known.pid, tid: known.tid, message: message)
        }
        let tailStart = s.index
        guard s.skip(0x20) else { return nil }
        // A tail unlike the last line's: read by byte class.
        var processStart = s.index
        if self == .logCompact {
            // (?:Df|Db|Fa|I|E|F|A) + : a two-letter code must have its space after it, or the one letter is tried.
            let i = s.index
            guard limit &- i >= 2 else { return nil }
            let twoLetters = limit &- i >= 3 && l[i &+ 2] == 0x20
                && (l[i] == 0x44 && (l[i &+ 1] == 0x66 || l[i &+ 1] == 0x62) || l[i] == 0x46 && l[i &+ 1] == 0x61)
            if twoLetters {
                processStart = i &+ 2
            } else {
                guard l[i] == 0x49 || l[i] == 0x45 || l[i] == 0x46 || l[i] == 0x41, l[i &+ 1] == 0x20 else { return nil }
                processStart = i &+ 1
            }
            // ` +` takes every space; when a '[' follows them at once, it gives the last one back to the process.
            let spacesStart = processStart
            var spacesEnd = spacesStart
            while spacesEnd < limit, l[spacesEnd] == 0x20 { spacesEnd &+= 1 }
            if spacesEnd < limit, l[spacesEnd] == 0x5B {
                guard spacesEnd &- spacesStart >= 2 else { return nil }
                processStart = spacesEnd &- 1
            } else {
                processStart = spacesEnd
            }
        }
        // (?<process>[^\[\]\n]+?)\[ : the process cannot hold '[', so it ends at the first one.
        // (`skip` returns its start or an index past it: each range below is in order.)
        let process = LineOffsets.range(processStart, l.skip(.processName, from: processStart, to: limit))
        var i = process.upperBound
        guard !process.isEmpty, i < limit, l[i] == 0x5B else { return nil }
        // (?<pid>\d+):(?<tid>[0-9A-Fa-fx]+)\] ?
        let pid = LineOffsets.range(i &+ 1, l.skip(.digit, from: i &+ 1, to: limit))
        i = pid.upperBound
        guard !pid.isEmpty, i < limit, l[i] == 0x3A else { return nil }
        let tid = LineOffsets.range(i &+ 1, l.skip(.hexOrX, from: i &+ 1, to: limit))
        i = tid.upperBound
        guard !tid.isEmpty, i < limit, l[i] == 0x5D else { return nil }
        i &+= 1
        let tookSpace = i < limit && l[i] == 0x20
        if tookSpace { i &+= 1 }
        // Compact: \] then ' ', not optional.
        if self == .logCompact, !tookSpace { return nil }
        if triesTail { tail.remember(line, from: tailStart, to: i, process: process, pid: pid, tid: tid, tookSpace: tookSpace) }
        // `i` is at most `limit`: each step past `tid` was taken only below it.
        let message = self == .logCompact ? HandHeader.compactMessage(l, from: i, to: limit) : LineOffsets.range(i, limit)
        return LineHeader(time: time, process: process, pid: pid, tid: tid, message: message)
    }

    /// Compact's message after the `] `: past `(?:\([^)\n]*\) )?(?:\[[^\]\n]*\] )?`, the library and the subsystem
    /// with its category, each taken when it is whole and a space follows it.
    @inline(__always)
    private static func compactMessage(_ l: ClassScanner, from start: Int, to limit: Int) -> Range<Int> {
        var i = start
        if i < limit, l[i] == 0x28 { i = pastGroup(l, from: i, closedBy: 0x29, to: limit) }
        if i < limit, l[i] == 0x5B { i = pastGroup(l, from: i, closedBy: 0x5D, to: limit) }
        return LineOffsets.range(i, limit)
    }

    /// Past the group opening at `start` (`\(` or `\[`) and its space when it closes with `close` and a space follows;
    /// `start` when it does not.
    @inline(__always)
    private static func pastGroup(_ l: ClassScanner, from start: Int, closedBy close: UInt8, to limit: Int) -> Int {
        let k = l.firstIndex(of: close, or: 0x0A, from: start &+ 1, to: limit)
        guard k &+ 1 < limit, l[k] == close, l[k &+ 1] == 0x20 else { return start }
        return k &+ 2
    }
}

/// Up to 32 bytes remembered from the last line: a per-line reader compares a new line's bytes with them and, when
/// they are the same, reuses what it read from them instead of reading them again.
struct RememberedBytes {
    static let capacity = 32
    private var storage: (UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0)
    /// How many bytes are remembered; 0 when none are.
    private(set) var count = 0

    /// Whether the `count` bytes at `bytes` are the remembered ones: compared eight at a time, the last word
    /// overlapping the one before it; under eight, as two overlapping 4-byte words, or byte by byte under four (no
    /// byte outside either side is read, and no call is made for a short process name).
    @inline(__always)
    func equals(_ bytes: UnsafeRawPointer, count: Int) -> Bool {
        guard count == self.count, count > 0 else { return false }
        return withUnsafeBytes(of: storage) { stored in
            let remembered = stored.baseAddress!
            guard count >= 8 else {
                guard count >= 4 else {
                    for offset in 0..<count where remembered.load(fromByteOffset: offset, as: UInt8.self)
                        != bytes.load(fromByteOffset: offset, as: UInt8.self) { return false }
                    return true
                }
                return remembered.loadUnaligned(as: UInt32.self) == bytes.loadUnaligned(as: UInt32.self)
                    && remembered.loadUnaligned(fromByteOffset: count - 4, as: UInt32.self)
                        == bytes.loadUnaligned(fromByteOffset: count - 4, as: UInt32.self)
            }
            var offset = 0
            while offset &+ 8 < count {
                guard remembered.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
                        == bytes.loadUnaligned(fromByteOffset: offset, as: UInt64.self) else { return false }
                offset &+= 8
            }
            return remembered.loadUnaligned(fromByteOffset: count &- 8, as: UInt64.self)
                == bytes.loadUnaligned(fromByteOffset: count &- 8, as: UInt64.self)
        }
    }

    /// Remembers the `count` bytes at `bytes`, or forgets when there are more than `capacity`.
    mutating func remember(_ bytes: UnsafeRawPointer, count: Int) {
        guard count <= RememberedBytes.capacity else { self.count = 0; return }
        withUnsafeMutableBytes(of: &storage) { $0.baseAddress!.copyMemory(from: bytes, byteCount: count) }
        self.count = count
    }

    mutating func forget() { count = 0 }
}

/// The bytes of an NSLog header between its time and its message (` Process[pid:tid] `), as the last header had
/// them, with the fields read from them. Consecutive lines nearly always come from one process and thread: a line
/// with the same bytes there has the same fields.
///
/// Not in a whole-device log, where every process's lines come in turn and a tail seldom repeats (one line in sixty
/// in the benchmark's): after `missesBeforeRest` lines in a row unlike the one before, the tail is neither compared
/// nor remembered for `restLines` lines, which took about 100 instructions a line there for nothing.
struct HeaderTail {
    static let missesBeforeRest = 8
    static let restLines = 64
    private var misses = 0
    private var resting = 0
    private var bytes = RememberedBytes()
    /// The fields, counted from the tail's start.
    private var process = 0..<0, pid = 0..<0, tid = 0..<0
    /// Whether the space after `]` was taken: if it was not, the byte after the tail must not be a space either.
    private var tookSpace = false
    /// How many tails were remembered: the stamp of the one remembered last.
    private var remembered: UInt64 = 0
    /// The stamp of the last line's tail: the same for lines in a row with the same tail, new with each tail
    /// remembered, 0 when the line's tail was not compared (resting). A reader of the header's ids compares stamps
    /// rather than bytes: the ids of lines with one stamp are the same.
    private(set) var stamp: UInt64 = 0

    /// Whether this line's tail is compared with the remembered one (and remembered when it differs): false while
    /// resting, counted down a line at a time.
    @inline(__always)
    mutating func takesPart() -> Bool {
        guard resting == 0 else {
            resting -= 1
            stamp = 0
            return false
        }
        return true
    }

    /// The line's tail was the remembered one.
    @inline(__always)
    mutating func matched() {
        misses = 0
        stamp = remembered
    }

    /// Whether the tail is resting now.
    var isResting: Bool { resting > 0 }

    /// The fields when the bytes at `start` are the remembered ones (and the message starts where it did).
    @inline(__always)
    func match(_ line: UnsafeRawBufferPointer, at start: Int) -> (process: Range<Int>, pid: Range<Int>, tid: Range<Int>, message: Range<Int>)? {
        let limit = line.count
        let count = bytes.count
        guard count > 0, limit &- start >= count, let base = line.baseAddress, bytes.equals(base + start, count: count)
        else { return nil }
        let end = start &+ count
        if !tookSpace, end < limit, line[end] == 0x20 { return nil }
        return (LineOffsets.shift(process, by: start), LineOffsets.shift(pid, by: start), LineOffsets.shift(tid, by: start),
                LineOffsets.range(end, limit))
    }

    /// Remembers `line[start..<end]` and the fields read from it: a line whose tail was not the remembered one.
    mutating func remember(_ line: UnsafeRawBufferPointer, from start: Int, to end: Int,
                           process: Range<Int>, pid: Range<Int>, tid: Range<Int>, tookSpace: Bool) {
        misses += 1
        if misses >= HeaderTail.missesBeforeRest {
            misses = 0
            resting = HeaderTail.restLines
        }
        remembered += 1
        stamp = remembered
        guard let base = line.baseAddress else { bytes.forget(); return }
        bytes.remember(base + start, count: end - start)
        self.process = (process.lowerBound - start)..<(process.upperBound - start)
        self.pid = (pid.lowerBound - start)..<(pid.upperBound - start)
        self.tid = (tid.lowerBound - start)..<(tid.upperBound - start)
        self.tookSpace = tookSpace
    }
}

extension HandHeader {
    /// `\d{4}-\d\d-\d\d.\d\d:\d\d:\d\d` in the 19 bytes at `bytes` (the byte between date and time is the
    /// caller's), checked eight bytes at a time: three overlapping words, bytes 0–7, 8–15 and 11–18.
    ///
    /// In each word, the digits' high nibbles must be 3 and the separators exact (`masks`, `expected`); then, with 6
    /// added to each digit (no carry can leave a byte whose high nibble is 3), the high nibble must still be 3,
    /// which holds exactly for 0x30–0x39.
    @inline(__always)
    static func isDateAndTime(at bytes: UnsafeRawPointer) -> Bool {
        // Little-endian words: the first byte is the lowest. "dddd-dd-", "dd?dd:dd", "dd:dd:dd".
        let masks: (UInt64, UInt64, UInt64) = (0xFFF0_F0FF_F0F0_F0F0, 0xF0F0_FFF0_F000_F0F0, 0xF0F0_FFF0_F0FF_F0F0)
        let expected: (UInt64, UInt64, UInt64) = (0x2D30_302D_3030_3030, 0x3030_3A30_3000_3030, 0x3030_3A30_303A_3030)
        let sixes: (UInt64, UInt64, UInt64) = (0x0006_0600_0606_0606, 0x0606_0006_0600_0606, 0x0606_0006_0600_0606)
        let digitNibbles: (UInt64, UInt64, UInt64) = (0x00F0_F000_F0F0_F0F0, 0xF0F0_00F0_F000_F0F0, 0xF0F0_00F0_F000_F0F0)
        let words = (UInt64(littleEndian: bytes.loadUnaligned(as: UInt64.self)),
                     UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: 8, as: UInt64.self)),
                     UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: 11, as: UInt64.self)))
        // (`^` and `|` share a precedence in Swift: each difference is parenthesised.)
        let separatorsAndNibbles = ((words.0 & masks.0) ^ expected.0) | ((words.1 & masks.1) ^ expected.1)
            | ((words.2 & masks.2) ^ expected.2)
        let digitsOnly = (((words.0 &+ sixes.0) & digitNibbles.0) ^ (expected.0 & digitNibbles.0))
            | (((words.1 &+ sixes.1) & digitNibbles.1) ^ (expected.1 & digitNibbles.1))
            | (((words.2 &+ sixes.2) & digitNibbles.2) ^ (expected.2 & digitNibbles.2))
        return separatorsAndNibbles | digitsOnly == 0
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
    /// `byteClasses` is `HandParsers.byteClasses` (see `ClassScanner`).
    static func match(_ line: UnsafeRawBufferPointer, from start: Int, to limit: Int,
                      byteClasses: UnsafePointer<UInt8> = HandParsers.byteClasses) -> HandMessageMatch {
        let l = ClassScanner(line, byteClasses: byteClasses)
        var i = l.skip(.space, from: start, to: limit)
        guard i < limit, l.isClass(.nameStart, at: i) else { return .undecided }
        // (name): [A-Za-z_][\w.]* — greedy, and nothing after it could be part of a shorter one.
        let nameStart = i
        i = l.skip(.nameBody, from: i + 1, to: limit)
        let name = nameStart..<i
        // `]` (a bracketed form) or `<` (a generic class's arguments): PCRE2 decides.
        if i < limit, l[i] == 0x5D || l[i] == 0x3C { return .undecided }

        // Branch 3: \s*>{2,}\s*(selector)
        var j = l.skip(.space, from: i, to: limit)
        if j + 1 < limit, l[j] == 0x3E, l[j + 1] == 0x3E {
            while j < limit, l[j] == 0x3E { j += 1 }
            j = l.skip(.space, from: j, to: limit)
            guard let end = selector(l, from: j, to: limit) else { return .undecided }
            return .matched(className: name, selector: j..<end, end: end)
        }

        // Branches 4 and 5 both need \s+ then [A-Za-z_]\w*.
        guard i < limit, l.isClass(.space, at: i) else { return .none }
        i = l.skip(.space, from: i, to: limit)
        let selectorStart = i
        guard i < limit, l.isClass(.nameStart, at: i) else { return .none }
        i = l.skip(.word, from: i + 1, to: limit)
        // Branch 4: a Swift function, \([\w:]*\)
        if i < limit, l[i] == 0x28 {
            let k = l.skip(.wordOrColon, from: i + 1, to: limit)
            if k < limit, l[k] == 0x29 {
                return .matched(className: name, selector: selectorStart..<(k + 1), end: k + 1)
            }
        }
        // Branch 5: an Objective-C selector (?::(?:[A-Za-z_]\w*:)*)? and then only white space to the end.
        if i < limit, l[i] == 0x3A { i = segments(l, from: i + 1, to: limit) }
        let selectorEnd = i
        i = l.skip(.space, from: i, to: limit)
        return i == limit ? .matched(className: name, selector: selectorStart..<selectorEnd, end: limit) : .none
    }

    /// `[A-Za-z_]\w*(?:\([\w:]*\)|:(?:[A-Za-z_]\w*:)*)?(?![A-Za-z_(])` on its first (greedy) path: the end, or nil
    /// when that path fails the look-ahead (PCRE2 would backtrack; the caller leaves the line to it).
    private static func selector(_ l: ClassScanner, from start: Int, to limit: Int) -> Int? {
        guard start < limit, l.isClass(.nameStart, at: start) else { return nil }
        var i = l.skip(.word, from: start + 1, to: limit)
        if i < limit, l[i] == 0x28 {
            let k = l.skip(.wordOrColon, from: i + 1, to: limit)
            guard k < limit, l[k] == 0x29 else { return nil }
            i = k + 1
        } else if i < limit, l[i] == 0x3A {
            i = segments(l, from: i + 1, to: limit)
        }
        if i < limit, l.isClass(.nameStart, at: i) || l[i] == 0x28 { return nil }
        return i
    }

    /// (?:[A-Za-z_]\w*:)* from `start`: where the last complete segment ends.
    private static func segments(_ l: ClassScanner, from start: Int, to limit: Int) -> Int {
        var end = start
        while end < limit, l.isClass(.nameStart, at: end) {
            let k = l.skip(.word, from: end + 1, to: limit)
            guard k < limit, l[k] == 0x3A else { break }
            end = k + 1
        }
        return end
    }
}
