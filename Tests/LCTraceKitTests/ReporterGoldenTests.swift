import Foundation
import Testing
@testable import LCTraceKit

/// The reports that had no golden file, each over the same run as the CI reports' goldens (`CIReports.assertGolden`):
/// an error, a finding about a whole input with no session, and an informational one.
struct ReporterGoldenTests {
    @Test func compilerForm() throws {
        try CIReports.assertGolden("ci.xcode.txt") { XcodeReporter(output: $0) }
    }

    @Test func gitHubAnnotations() throws {
        try CIReports.assertGolden("ci.github-actions.txt") { GitHubActionsReporter(output: $0) }
    }

    @Test func markdownSummary() throws {
        try CIReports.assertGolden("ci.markdown.md") { MarkdownReporter(output: $0) }
    }

    @Test func mermaidDiagrams() throws {
        try CIReports.assertGolden("ci.mermaid.md") { MermaidReporter(output: $0, short: false) }
        try CIReports.assertGolden("ci.mermaid-short.md") { MermaidReporter(output: $0, short: true) }
    }

    @Test func jsonLinesWithoutEvents() throws {
        try CIReports.assertGolden("ci.no-events.ndjson") { NDJSONReporter(output: $0, includeEvents: false, flushEachLine: false) }
    }

    @Test func chromeTrace() throws {
        try CIReports.assertGolden("ci.chrome-trace.json") { ChromeTraceReporter(output: $0) }
    }

    /// The page's data, with its fixed style sheet, skeleton and script (files of their own, tested apart) named rather
    /// than repeated.
    @Test func htmlTimeline() throws {
        try CIReports.assertGolden("ci.html", shown: { page in
            page.replacingOccurrences(of: HTMLTimelinePage.style, with: "/* Resources/timeline.css */")
                .replacingOccurrences(of: HTMLTimelinePage.body, with: "<!-- Resources/timeline.html -->")
                .replacingOccurrences(of: HTMLTimelinePage.script, with: "// Resources/timeline.js")
                .replacingOccurrences(of: "lctrace \(LCTraceVersion.current)", with: "lctrace VERSION")
        }) { HTMLTimelineReporter(output: $0) }
    }
}

/// The commands that print no report: the rule catalogue, one rule explained, and how each line was read.
@Suite(.serialized) struct CommandGoldenTests {
    static func assertGolden(_ arguments: [String], _ name: String) throws {
        let run = try lctrace(arguments)
        #expect(run.status == 0, "\(run.stderr)")
        try RenderingTests().assertGolden(run.stdout.replacingOccurrences(of: LCTraceVersion.current, with: "VERSION"), name)
    }

    @Test func rules() throws {
        try CommandGoldenTests.assertGolden(["rules", "--no-config"], "rules.txt")
    }

    @Test func explain() throws {
        try CommandGoldenTests.assertGolden(["explain", "possible-leak"], "explain.possible-leak.txt")
    }

    @Test func lines() throws {
        try CommandGoldenTests.assertGolden(["lines", "SampleLogs/seed-push-pop.log"], "lines.seed-push-pop.txt")
    }
}
