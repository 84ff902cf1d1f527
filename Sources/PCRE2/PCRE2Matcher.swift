import CPCRE2

/// Limits that keep a hostile or careless pattern from hanging the tool.
public struct PCRE2Limits: Sendable, Equatable {
    /// How many times PCRE2 may call its internal match function for one match attempt.
    public var matchLimit: UInt32
    /// How deep backtracking may nest (interpreter only; the JIT is bounded by `jitStackBytes`).
    public var depthLimit: UInt32
    /// The JIT's stack; a match that needs more fails instead of crashing.
    public var jitStackBytes: Int

    public init(matchLimit: UInt32 = 1_000_000, depthLimit: UInt32 = 10_000, jitStackBytes: Int = 1 << 20) {
        self.matchLimit = matchLimit
        self.depthLimit = depthLimit
        self.jitStackBytes = jitStackBytes
    }
}

/// Runs one compiled pattern over many subjects, reusing its match data. Not thread-safe: make one per thread.
public final class PCRE2Matcher {
    public let pattern: PCRE2Pattern
    private let matchData: OpaquePointer
    private let context: OpaquePointer
    private let jitStack: OpaquePointer?
    private let ovector: UnsafeMutablePointer<Int>
    private let pairCount: Int

    public init(_ pattern: PCRE2Pattern, limits: PCRE2Limits = PCRE2Limits()) {
        self.pattern = pattern
        matchData = pcre2_match_data_create_from_pattern_8(pattern.code, nil)
        context = pcre2_match_context_create_8(nil)
        pcre2_set_match_limit_8(context, limits.matchLimit)
        pcre2_set_depth_limit_8(context, limits.depthLimit)
        if pattern.isJITCompiled {
            jitStack = pcre2_jit_stack_create_8(32 * 1024, limits.jitStackBytes, nil)
            pcre2_jit_stack_assign_8(context, nil, UnsafeMutableRawPointer(jitStack))
        } else {
            jitStack = nil
        }
        ovector = pcre2_get_ovector_pointer_8(matchData)
        pairCount = Int(pcre2_get_ovector_count_8(matchData))
    }

    deinit {
        pcre2_match_data_free_8(matchData)
        pcre2_match_context_free_8(context)
        if let jitStack { pcre2_jit_stack_free_8(jitStack) }
    }

    /// Matches `subject[start...]`. Returns false when there is no match; throws when PCRE2 gives up (a limit).
    @inline(__always)
    public func matches(_ subject: UnsafeRawBufferPointer, from start: Int = 0) throws(PCRE2MatchError) -> Bool {
        let base = subject.baseAddress?.assumingMemoryBound(to: UInt8.self) ?? PCRE2Matcher.emptySubject
        let rc = pcre2_match_8(pattern.code, base, subject.count, start, 0, matchData, context)
        if rc > 0 { return true }
        if rc == PCRE2_ERROR_NOMATCH { return false }
        throw PCRE2MatchError(code: rc, message: PCRE2Pattern.message(for: rc))
    }

    /// The byte range of group `number` in the last successful match, or nil when the group did not take part.
    @inline(__always)
    public func range(ofGroup number: Int) -> Range<Int>? {
        guard number >= 0, number < pairCount else { return nil }
        let lower = ovector[2 * number]
        let upper = ovector[2 * number + 1]
        guard lower != Int(bitPattern: UInt(PCRE2Matcher.unset)), upper >= lower else { return nil }
        return lower..<upper
    }

    /// The byte range of the whole last match.
    public var matchedRange: Range<Int>? { range(ofGroup: 0) }

    private static let unset: UInt = ~0
    nonisolated(unsafe) private static let emptySubject: UnsafePointer<UInt8> = {
        let pointer = UnsafeMutablePointer<UInt8>.allocate(capacity: 1)
        pointer.initialize(to: 0)
        return UnsafePointer(pointer)
    }()
}

extension PCRE2Matcher {
    /// Convenience for tests and cold paths: match a Swift string and return the named groups' texts.
    public func captures(in text: String) throws -> [String: String]? {
        let utf8 = Array(text.utf8)
        return try utf8.withUnsafeBytes { raw in
            guard try matches(raw) else { return nil }
            var result: [String: String] = [:]
            for (name, number) in pattern.groupNumbers {
                if let range = range(ofGroup: number) {
                    result[name] = String(decoding: raw[range], as: UTF8.self)
                }
            }
            return result
        }
    }
}
