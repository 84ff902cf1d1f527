import CPCRE2

/// A PCRE2 pattern compiled once (JIT-compiled when the library supports it) and shared by matchers.
///
/// Patterns work on bytes (8-bit code units, no UTF mode), so any input — invalid UTF-8, NUL bytes,
/// binary — can be matched without validation or decoding.
public final class PCRE2Pattern: @unchecked Sendable {
    /// Compile-time options, a thin mirror of the PCRE2 flags lctrace needs.
    public struct Options: OptionSet, Sendable {
        public let rawValue: UInt32
        public init(rawValue: UInt32) { self.rawValue = rawValue }

        public static let anchored = Options(rawValue: PCRE2_ANCHORED)
        public static let caseless = Options(rawValue: PCRE2_CASELESS)
        public static let dollarEndOnly = Options(rawValue: PCRE2_DOLLAR_ENDONLY)
        public static let dupNames = Options(rawValue: PCRE2_DUPNAMES)
    }

    /// The pattern text as given.
    public let pattern: String
    /// True when the pattern runs on PCRE2's JIT; false when the library lacks JIT and the interpreter is used.
    public let isJITCompiled: Bool
    /// Named capture groups and their numbers, as the pattern declares them.
    public let groupNumbers: [String: Int]

    let code: OpaquePointer

    /// `jit: false` leaves the pattern to the interpreter: for a pattern compiled only to be asked about (`startBytes`).
    public init(_ pattern: String, options: Options = [], jit: Bool = true) throws(PCRE2CompileError) {
        var errorCode: Int32 = 0
        var errorOffset: Int = 0
        let compiled: OpaquePointer? = pattern.utf8CString.withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: UInt8.self) { bytes in
                pcre2_compile_8(bytes.baseAddress, bytes.count - 1, options.rawValue, &errorCode, &errorOffset, nil)
            }
        }
        guard let compiled else {
            throw PCRE2CompileError(pattern: pattern, offset: errorOffset, message: PCRE2Pattern.message(for: errorCode))
        }
        self.code = compiled
        self.pattern = pattern
        self.isJITCompiled = jit && pcre2_jit_compile_8(compiled, PCRE2_JIT_COMPLETE) == 0
        self.groupNumbers = PCRE2Pattern.readNameTable(compiled)
    }

    deinit { pcre2_code_free_8(code) }

    /// The bytes a match can start with, as PCRE2 worked them out when it compiled the pattern; nil when it knows no
    /// such set (any byte may start a match, or the pattern is anchored: PCRE2 works the set out only for patterns
    /// that are not, so compile an anchored pattern without `anchored` to ask where its matches can start). The set
    /// may hold more bytes than can start a match, never fewer.
    public var startBytes: PCRE2StartBytes? {
        var type: UInt32 = 0
        guard pcre2_pattern_info_8(code, UInt32(PCRE2_INFO_FIRSTCODETYPE), &type) == 0 else { return nil }
        switch type {
        case 1:
            // One first byte; a letter in either case, since the pattern may ignore case there.
            var unit: UInt32 = 0
            guard pcre2_pattern_info_8(code, UInt32(PCRE2_INFO_FIRSTCODEUNIT), &unit) == 0, unit < 256 else { return nil }
            var set = PCRE2StartBytes()
            set.insert(UInt8(unit))
            if (unit | 0x20) >= 0x61, (unit | 0x20) <= 0x7A { set.insert(UInt8(unit) ^ 0x20) }
            return set
        case 0:
            var bitmap: UnsafePointer<UInt8>?
            guard pcre2_pattern_info_8(code, UInt32(PCRE2_INFO_FIRSTBITMAP), &bitmap) == 0, let bitmap else { return nil }
            var set = PCRE2StartBytes()
            for byte in 0..<256 where bitmap[byte / 8] & (1 << (byte % 8)) != 0 { set.insert(UInt8(byte)) }
            return set
        default:
            return nil
        }
    }

    /// The number of a named group, or nil when the pattern has no group of that name.
    public func groupNumber(named name: String) -> Int? { groupNumbers[name] }

    /// Whether this PCRE2 build supports JIT compilation at all.
    public static var jitAvailable: Bool {
        var value: UInt32 = 0
        return pcre2_config_8(UInt32(PCRE2_CONFIG_JIT), &value) >= 0 && value == 1
    }

    /// PCRE2's own text for an error code.
    static func message(for errorCode: Int32) -> String {
        var buffer = [UInt8](repeating: 0, count: 256)
        let length = pcre2_get_error_message_8(errorCode, &buffer, buffer.count)
        guard length > 0 else { return "PCRE2 error \(errorCode)" }
        return String(decoding: buffer[0..<Int(length)], as: UTF8.self)
    }

    private static func readNameTable(_ code: OpaquePointer) -> [String: Int] {
        var count: UInt32 = 0
        var entrySize: UInt32 = 0
        var table: UnsafePointer<UInt8>?
        guard pcre2_pattern_info_8(code, UInt32(PCRE2_INFO_NAMECOUNT), &count) == 0, count > 0,
              pcre2_pattern_info_8(code, UInt32(PCRE2_INFO_NAMEENTRYSIZE), &entrySize) == 0,
              pcre2_pattern_info_8(code, UInt32(PCRE2_INFO_NAMETABLE), &table) == 0, let table
        else { return [:] }
        var names: [String: Int] = [:]
        for index in 0..<Int(count) {
            let entry = table + index * Int(entrySize)
            // Each entry: the group number in two big-endian bytes, then the NUL-terminated name.
            let number = Int(entry[0]) << 8 | Int(entry[1])
            var length = 0
            while 2 + length < Int(entrySize), entry[2 + length] != 0 { length += 1 }
            let name = String(decoding: UnsafeBufferPointer(start: entry + 2, count: length), as: UTF8.self)
            if names[name] == nil { names[name] = number }
        }
        return names
    }
}

/// A set of bytes, one bit each: where the matches of a pattern can start (`PCRE2Pattern.startBytes`).
public struct PCRE2StartBytes: Sendable, Equatable {
    private var words: (UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0)

    public init() {}

    /// Every byte.
    public static let all: PCRE2StartBytes = {
        var set = PCRE2StartBytes()
        set.words = (~0, ~0, ~0, ~0)
        return set
    }()

    @inline(__always)
    public func contains(_ byte: UInt8) -> Bool {
        let word: UInt64
        switch byte >> 6 {
        case 0: word = words.0
        case 1: word = words.1
        case 2: word = words.2
        default: word = words.3
        }
        return word >> UInt64(byte & 63) & 1 != 0
    }

    public mutating func insert(_ byte: UInt8) {
        let bit = UInt64(1) << UInt64(byte & 63)
        switch byte >> 6 {
        case 0: words.0 |= bit
        case 1: words.1 |= bit
        case 2: words.2 |= bit
        default: words.3 |= bit
        }
    }

    public static func == (lhs: PCRE2StartBytes, rhs: PCRE2StartBytes) -> Bool {
        lhs.words.0 == rhs.words.0 && lhs.words.1 == rhs.words.1 && lhs.words.2 == rhs.words.2 && lhs.words.3 == rhs.words.3
    }
}

/// A pattern that failed to compile: PCRE2's message and the offset in the pattern where it stopped.
public struct PCRE2CompileError: Error, CustomStringConvertible, Sendable {
    public let pattern: String
    public let offset: Int
    public let message: String

    /// What is wrong and where, in one line (without the pattern).
    public var summary: String { "invalid regular expression at offset \(offset): \(message)" }

    public var description: String {
        "\(summary)\n  \(pattern)\n  \(String(repeating: " ", count: offset))^"
    }
}

/// A match that PCRE2 abandoned, typically because a limit was reached (a pattern that backtracks too much).
public struct PCRE2MatchError: Error, CustomStringConvertible, Sendable {
    public let code: Int32
    public let message: String
    public var description: String { message }
}
