/// `--format ndjson`: one JSON object per line, written and flushed as each item completes — `event`,
/// `transition`, `finding`, `session` (when a session closes) and a final `summary` — each with a `type` field
/// first and otherwise the field names of the JSON report. Memory does not grow with the input.
public final class NDJSONRenderer: ReportSink {
    private let output: Output
    private let includeEvents: Bool
    private let config: String?
    /// Flush after every line (live input) rather than when the buffer fills.
    private let flushEachLine: Bool

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
        guard includeEvents, case .object(let fields) = ReportJSON.event(event) else { return }
        emit("event", [("session", .int(session)), ("input", .string(input)), ("subject", .string(subject))] + fields)
    }

    public func transition(_ transition: TransitionReport, session: Int, input: String) {
        guard case .object(let fields) = ReportJSON.transition(transition) else { return }
        emit("transition", [("session", .int(session)), ("input", .string(input))] + fields)
    }

    public func finding(_ finding: Finding) {
        guard case .object(let fields) = ReportJSON.finding(finding) else { return }
        emit("finding", fields)
    }

    public func sessionClosed(_ session: SessionReport) {
        // Events and transitions were streamed already: the session line carries the rest.
        guard case .object(let fields) = ReportJSON.session(session, events: false) else { return }
        emit("session", fields.filter { $0.0 != "transitions" })
    }

    public func finish(_ summary: RunSummary) {
        guard case .object(let fields) = ReportJSON.summary(summary) else { return }
        emit("summary", [("config", JSONValue.optional(config))] + fields)
        output.flush()
    }

    private func emit(_ type: String, _ fields: [(String, JSONValue)]) {
        var line = JSONValue.object([("type", .string(type))] + fields).bytes(indent: nil)
        line.append(0x0A)
        output.write(bytes: line)
        if flushEachLine { output.flush() }
    }
}
