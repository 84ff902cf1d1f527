/// `--format ndjson`: one JSON object per line, written and flushed as each item completes — `event`,
/// `transition`, `finding`, `session` (when a session closes) and a final `summary` — each with a `type` field
/// first and otherwise the field names of the JSON report. Memory does not grow with the input.
public final class NDJSONRenderer: ReportSink {
    private let output: Output
    private let includeEvents: Bool
    private let config: String?
    /// Flush after every line (live input) rather than when the buffer fills.
    private let flushEachLine: Bool
    /// Reused for every line, so its buffer is allocated once.
    private var writer = JSONWriter(indent: nil)

    public init(output: Output, includeEvents: Bool, config: String? = nil, flushEachLine: Bool) {
        self.output = output
        self.includeEvents = includeEvents
        self.config = config
        self.flushEachLine = flushEachLine
    }

    public var wantsLiveItems: Bool { true }

    public func beginInput(_ name: String) {}
    public func endInput(_ summary: InputSummary) {}

    public func event(_ event: EventRecord, subject: String, session: Int, input: String) {
        guard includeEvents else { return }
        emit("event") { w in
            w.member("session", session)
            w.member("input", input)
            w.member("subject", subject)
            ReportJSON.eventMembers(event, into: &w)
        }
    }

    public func transition(_ transition: TransitionReport, session: Int, input: String) {
        emit("transition") { w in
            w.member("session", session)
            w.member("input", input)
            ReportJSON.transitionMembers(transition, into: &w)
        }
    }

    public func finding(_ finding: Finding) {
        emit("finding") { ReportJSON.findingMembers(finding, into: &$0) }
    }

    public func sessionClosed(_ session: SessionReport) {
        // Events and transitions were streamed already: the session line carries the rest.
        emit("session") { ReportJSON.sessionMembers(session, events: false, transitions: false, into: &$0) }
    }

    public func finish(_ summary: RunSummary) {
        emit("summary") { w in
            w.member("config", config)
            ReportJSON.summaryMembers(summary, into: &w)
        }
        output.flush()
    }

    /// One line: `{"type":…,` then the item's fields.
    private func emit(_ type: String, _ fields: (inout JSONWriter) -> Void) {
        writer.reset()
        writer.object { w in
            w.member("type", type)
            fields(&w)
        }
        writer.endLine()
        output.write(bytes: writer.bytes)
        if flushEachLine { output.flush() }
    }
}
