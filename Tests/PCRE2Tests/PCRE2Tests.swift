import Testing
@testable import PCRE2

@Suite struct PCRE2PatternTests {
    @Test func compilesWithJITAndNamedGroups() throws {
        let pattern = try PCRE2Pattern(#"(?<process>\w+)\[(?<pid>\d+)\]"#)
        #expect(!pattern.isJITCompiled || PCRE2Pattern.jitAvailable)
        #if os(Linux)
        // On macOS a test host under the hardened runtime may be refused the MAP_JIT memory that JIT needs, and the
        // pattern then runs interpreted; on Linux nothing stands in the way.
        #expect(pattern.isJITCompiled == PCRE2Pattern.jitAvailable)
        #endif
        #expect(pattern.groupNumber(named: "process") == 1)
        #expect(pattern.groupNumber(named: "pid") == 2)
        #expect(pattern.groupNumber(named: "tid") == nil)
        let captures = try PCRE2Matcher(pattern).captures(in: "LifeCycle[2148] x")
        #expect(captures == ["process": "LifeCycle", "pid": "2148"])
    }

    @Test func compileErrorNamesOffsetAndPattern() {
        do {
            _ = try PCRE2Pattern("abc(def")
            Issue.record("expected a compile error")
        } catch {
            #expect(error.offset == 7)
            #expect(error.pattern == "abc(def")
            #expect(error.message.contains("missing closing parenthesis"))
            #expect(error.description.contains("offset 7"))
        }
    }

    @Test func matcherIsReusableAndReportsRanges() throws {
        let matcher = PCRE2Matcher(try PCRE2Pattern(#"b(c)?"#))
        for subject in ["abc", "xb", "zzz"] {
            let bytes = Array(subject.utf8)
            let matched = try bytes.withUnsafeBytes { try matcher.matches($0) }
            #expect(matched == (subject != "zzz"))
            if subject == "abc" { #expect(matcher.range(ofGroup: 1) == 2..<3) }
            if subject == "xb" { #expect(matcher.range(ofGroup: 1) == nil) }
        }
    }

    @Test func anchoredMatchStartsAtTheOffset() throws {
        let matcher = PCRE2Matcher(try PCRE2Pattern(#"\d+"#, options: [.anchored]))
        let bytes = Array("ab12".utf8)
        let atStart = try bytes.withUnsafeBytes { raw throws -> Bool in try matcher.matches(raw, from: 0) }
        #expect(atStart == false)
        let atDigits = try bytes.withUnsafeBytes { raw throws -> Bool in try matcher.matches(raw, from: 2) }
        #expect(atDigits)
        #expect(matcher.matchedRange == 2..<4)
    }

    @Test func matchesBinarySubjectsWithNULAndInvalidUTF8() throws {
        let matcher = PCRE2Matcher(try PCRE2Pattern(#"main\(\)"#))
        let bytes: [UInt8] = [0xFF, 0x00, 0xC3] + Array("main()".utf8) + [0x00]
        #expect(try bytes.withUnsafeBytes { try matcher.matches($0) })
        #expect(matcher.matchedRange == 3..<9)
    }

    @Test func matchLimitStopsCatastrophicBacktracking() throws {
        let matcher = PCRE2Matcher(try PCRE2Pattern(#"^(a+)+$"#), limits: PCRE2Limits(matchLimit: 10_000))
        let subject = Array((String(repeating: "a", count: 40) + "b").utf8)
        #expect(throws: PCRE2MatchError.self) {
            try subject.withUnsafeBytes { try matcher.matches($0) }
        }
    }
}
