/// `--format json`: one document, written session by session as sessions close, so its memory is bounded by
/// the largest session. Findings are listed after the sessions, then the summary; until then they wait in an
/// unlinked temporary file, so their number does not grow the memory either.
public final class JSONReporter: SessionFormatting {
    private let output: Output
    private var sessionsWritten = 0
    private var findingsWritten = 0
    private let findings: Spool
    /// Reused for every item, so its buffer is allocated once.
    private var writer = JSONWriter(indent: 2)

    /// `config` is the configuration file the run used, named in the report.
    public convenience init(output: Output, includeEvents: Bool, config: String? = nil) {
        self.init(output: output, includeEvents: includeEvents, config: config, findings: Spool())
    }

    /// `findings`: where findings wait for the end of the run.
    init(output: Output, includeEvents: Bool, config: String? = nil, findings: Spool) {
        self.output = output
        self.findings = findings
        sessionFormatter = SessionFormatter(numberAfter: "\"index\": ") { session, text in
            var writer = JSONWriter(appendingTo: text, indent: 2)
            writer.object { ReportJSON.sessionMembers(session, events: includeEvents, into: &$0) }
        }
        var configValue = JSONWriter(indent: nil)
        configValue.value(config)
        output.write("{\n  \"schemaVersion\": \(ReportJSON.schemaVersion),\n  \"lctraceVersion\": \"\(LCTraceVersion.current)\",\n  \"config\": ")
        output.write(configValue.buffer.bytes)
        output.write(",\n  \"sessions\": [")
    }

    public func finding(_ finding: Finding) {
        writer.reset()
        writer.object { ReportJSON.findingMembers(finding, into: &$0) }
        findings.append(findingsWritten == 0 ? "\n    " : ",\n    ")
        findings.append(writer.buffer.bytes)
        findingsWritten += 1
    }

    public func sessionClosed(_ session: SessionReport) {
        writer.reset()
        sessionFormatter.render(session, writer.buffer)
        separateSession()
        output.write(writer.buffer.bytes)
    }

    /// A session is an element of the `sessions` array, indented under it.
    public let sessionFormatter: SessionFormatter

    public func write(_ session: RenderedItem, number: Int) {
        separateSession()
        session.write(number: number, to: output)
    }

    private func separateSession() {
        output.write(sessionsWritten == 0 ? "\n    " : ",\n    ")
        sessionsWritten += 1
    }

    public func finish(_ summary: RunSummary) {
        output.write(sessionsWritten == 0 ? "],\n" : "\n  ],\n")
        output.write("  \"findings\": [")
        findings.drain(into: output)
        output.write(findingsWritten == 0 ? "],\n" : "\n  ],\n")
        var summaryWriter = JSONWriter(indent: 1)
        summaryWriter.object { ReportJSON.summaryMembers(summary, into: &$0) }
        output.write("  \"summary\": ")
        output.write(summaryWriter.buffer.bytes)
        output.write("\n}\n")
        output.flush()
    }
}
