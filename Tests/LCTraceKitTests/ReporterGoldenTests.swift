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
}
