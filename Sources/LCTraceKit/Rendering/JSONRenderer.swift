/// `--format json`: one document, written session by session as sessions close, so its memory is bounded by
/// the largest session. Findings are listed after the sessions, then the summary.
public final class JSONRenderer: ReportSink {
    private let output: Output
    private let includeEvents: Bool
    private var sessionsWritten = 0
    private var findings: [Finding] = []

    /// `config` is the configuration file the run used, named in the report.
    public init(output: Output, includeEvents: Bool, config: String? = nil) {
        self.output = output
        self.includeEvents = includeEvents
        output.write("{\n  \"schemaVersion\": \(ReportJSON.schemaVersion),\n  \"config\": \(JSONValue.optional(config).compact()),\n  \"sessions\": [")
    }

    public func beginInput(_ name: String) {}

    public func finding(_ finding: Finding) { findings.append(finding) }

    public func sessionClosed(_ session: SessionReport) {
        output.write(sessionsWritten == 0 ? "\n    " : ",\n    ")
        output.write(bytes: ReportJSON.session(session, events: includeEvents).bytes(indent: 2))
        sessionsWritten += 1
    }

    public func endInput(_ summary: InputSummary) {}

    public func finish(_ summary: RunSummary) {
        output.write(sessionsWritten == 0 ? "],\n" : "\n  ],\n")
        output.write("  \"findings\": " + JSONValue.array(findings.map(ReportJSON.finding)).serialized(indent: 1) + ",\n")
        output.write("  \"summary\": " + ReportJSON.summary(summary).serialized(indent: 1) + "\n}\n")
        output.flush()
    }
}
