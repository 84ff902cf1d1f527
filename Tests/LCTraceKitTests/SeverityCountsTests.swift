import Testing
@testable import LCTraceKit

/// The one wording of a count of findings, shared by the run's summary (text, check, Markdown) and a session's (Mermaid).
struct SeverityCountsTests {
    @Test func aCountIsSaidMostSevereFirstWithEachWordInItsNumber() {
        var counts = SeverityCounts()
        #expect(counts.sentence() == "0 errors, 0 warnings, 0 info")
        #expect(counts.sentence(omittingNone: true) == "")
        counts[.warning] += 1
        counts[.info] += 3
        counts[.error] += 2
        #expect(counts.sentence() == "2 errors, 1 warning, 3 info")
        counts[.error] -= 2
        #expect(counts.sentence(omittingNone: true) == "1 warning, 3 info")
        #expect(counts.sentence { severity, text in severity == .warning ? "<\(text)>" : text } == "0 errors, <1 warning>, 3 info")
    }

    @Test func findingsAtLeastASeverityCountThatSeverityAndTheMoreSevere() {
        var counts = SeverityCounts()
        counts[.error] = 1
        counts[.warning] = 2
        counts[.info] = 4
        #expect(counts.atLeast(.error) == 1)
        #expect(counts.atLeast(.warning) == 3)
        #expect(counts.atLeast(.info) == 7)
        #expect(Severity.mostSevereFirst == Severity.allCases.sorted(by: >))
    }
}
