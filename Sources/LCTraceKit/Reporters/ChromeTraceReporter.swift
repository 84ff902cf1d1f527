/// `--reporter chrome-trace`: the Trace Event Format (JSON object form) that ui.perfetto.dev and chrome://tracing
/// open. Each session is a process, each track of its `SessionTimeline` a thread: a controller's life and its
/// appearance states as complete (`X`) events nesting on its thread, the app and scene phases likewise, each
/// transition as a span on a Transitions thread with a flow arrow from its outgoing controller to its incoming
/// one, callbacks worth a tick and findings as instant (`i`) events. Written session by session as sessions close,
/// one event per line.
public final class ChromeTraceReporter: TimelineReporter {
    private let output: Output
    private let selection: SessionSelection?
    private var writer = JSONWriter(indent: nil)
    private var eventsWritten = 0
    private var flows = 0
    private var sessionsDrawn = 0
    private var clocks: Set<SessionTimeline.Clock> = []

    public init(output: Output, selection: SessionSelection? = nil) {
        self.output = output
        self.selection = selection
        output.write("{\"traceEvents\": [")
    }

    public var timelineSessions: SessionSelection? { selection ?? .all }
    /// Findings about a whole input (no lifecycle event in it, say), drawn at the end on a process of their own.
    private var inputFindings: [Finding] = []

    public func finding(_ finding: Finding) {
        if finding.session == 0, inputFindings.count < 1_000 { inputFindings.append(finding) }
    }

    public func sessionClosed(_ session: SessionReport) {
        guard selection?.contains(session.index) ?? true else { return }
        let timeline = SessionTimeline(session)
        sessionsDrawn += 1
        clocks.insert(timeline.clock)
        let pid = session.index
        metadata("process_name", pid: pid, tid: 0) { $0.member("name", timeline.title) }
        metadata("process_sort_index", pid: pid, tid: 0) { $0.member("sort_index", pid) }
        var labels = "\(session.input) lines \(session.startLine)-\(session.endLine)"
        if timeline.clock == .lines { labels += " · no timestamps: 1 µs stands for 1 line" }
        var notDrawn = timeline.cut.map { [TextFormat.plural(timeline.eventsNotDrawn, "event") + " from line \($0) on"] } ?? []
        notDrawn += [(timeline.controllersNotDrawn, "controller"), (timeline.transitionsNotDrawn, "transition"),
                     (timeline.findingsNotDrawn, "finding")]
            .filter { $0.0 > 0 }.map { TextFormat.plural($0.0, $0.1) }
        if timeline.itemsNotDrawn > 0 {
            notDrawn.append("\(timeline.itemsNotDrawn) " + (timeline.itemsNotDrawn == 1 ? "span or mark" : "spans or marks"))
        }
        if !notDrawn.isEmpty { labels += " · not drawn: " + notDrawn.joined(separator: ", ") }
        metadata("process_labels", pid: pid, tid: 0) { $0.member("labels", labels) }
        for track in timeline.tracks {
            let tid = track.id + 1
            metadata("thread_name", pid: pid, tid: tid) { $0.member("name", track.name) }
            metadata("thread_sort_index", pid: pid, tid: tid) { $0.member("sort_index", track.id) }
            // A transitions track's spans are written with their connectors, which say more about them.
            for span in track.spans where track.kind != .transitions {
                complete(span.name, category: track.kind.rawValue, pid: pid, tid: tid, from: span.start, to: span.end) { args in
                    args.member("startLine", span.startLine)
                    args.member("endLine", span.endLine)
                    if span.open { args.key("open"); args.value(true) }
                    if span.depth == 0, let detail = track.detail { args.member("detail", detail) }
                }
            }
            for mark in track.marks {
                instant(mark.name, category: "callback", pid: pid, tid: tid, at: mark.at) { $0.member("line", mark.line) }
            }
        }
        for connector in timeline.connectors { write(connector, pid: pid) }
        for mark in timeline.findings { write(mark.finding, pid: pid, tid: mark.track + 1, at: mark.at) }
    }

    private func write(_ finding: Finding, pid: Int, tid: Int, at: Int64) {
        instant(finding.rule.rawValue, category: "finding," + finding.severity.rawValue, pid: pid, tid: tid, at: at) { args in
            args.member("rule", finding.rule.rawValue)
            args.member("severity", finding.severity.rawValue)
            args.member("message", finding.message)
            args.member("line", finding.line)
            args.member("input", finding.input)
        }
    }

    /// A transition: its span, and a flow arrow from the outgoing controller's track at its start to the incoming
    /// one's at its end.
    private func write(_ connector: SessionTimeline.Connector, pid: Int) {
        let transition = connector.transition
        let name = transition.kind.rawValue
        complete(name, category: "transition", pid: pid, tid: connector.track + 1, from: connector.start, to: connector.end) { args in
            args.member("from", transition.from)
            args.member("to", transition.to)
            args.member("declared", transition.declared?.rawValue)
            args.member("startLine", transition.startLine)
            args.member("endLine", transition.endLine)
            args.member("durationMs", transition.durationMs)
        }
        guard let from = connector.from, let to = connector.to else { return }
        flows += 1
        let id = flows
        for (phase, tid, at) in [("s", from + 1, connector.start), ("f", to + 1, connector.end)] {
            event { w in
                w.member("ph", phase)
                if phase == "f" { w.member("bp", "e") }
                w.member("id", id)
                w.member("name", name)
                w.member("cat", "transition")
                w.member("pid", pid)
                w.member("tid", tid)
                w.member("ts", Int(at))
            }
        }
    }

    private func metadata(_ name: StaticString, pid: Int, tid: Int, _ args: (inout JSONWriter) -> Void) {
        event { w in
            w.member("ph", "M")
            w.member("name", name.description)
            w.member("pid", pid)
            w.member("tid", tid)
            w.key("args")
            w.object(args)
        }
    }

    /// A complete event: a span from `start` to `end`.
    private func complete(_ name: String, category: String, pid: Int, tid: Int, from start: Int64, to end: Int64,
                          _ args: (inout JSONWriter) -> Void) {
        event { w in
            w.member("ph", "X")
            w.member("name", name)
            w.member("cat", category)
            w.member("pid", pid)
            w.member("tid", tid)
            w.member("ts", Int(start))
            w.member("dur", Int(end - start))
            w.key("args")
            w.object(args)
        }
    }

    private func instant(_ name: String, category: String, pid: Int, tid: Int, at: Int64, _ args: (inout JSONWriter) -> Void) {
        event { w in
            w.member("ph", "i")
            w.member("s", "t")
            w.member("name", name)
            w.member("cat", category)
            w.member("pid", pid)
            w.member("tid", tid)
            w.member("ts", Int(at))
            w.key("args")
            w.object(args)
        }
    }

    /// One event, on a line of its own.
    private func event(_ members: (inout JSONWriter) -> Void) {
        writer.reset()
        writer.object(members)
        output.write(eventsWritten == 0 ? "\n" : ",\n")
        output.write(writer.buffer.bytes)
        eventsWritten += 1
    }

    public func finish(_ summary: RunSummary) {
        if !inputFindings.isEmpty {
            metadata("process_name", pid: 0, tid: 0) { $0.member("name", "inputs") }
            metadata("thread_name", pid: 0, tid: 1) { $0.member("name", "findings about a whole input") }
            for finding in inputFindings { write(finding, pid: 0, tid: 1, at: 0) }
        }
        var other = JSONWriter(indent: nil)
        other.object { w in
            w.member("lctraceVersion", LCTraceVersion.current)
            w.member("inputs", summary.inputs.map(\.name).joined(separator: ", "))
            w.member("sessions", summary.sessions)
            w.member("sessionsDrawn", sessionsDrawn)
            if let selection { w.member("selection", selection.description) }
            var clock = "ts: microseconds since each session's first timestamp"
            if clocks.contains(.lines) {
                clock = clocks.contains(.microseconds)
                    ? clock + "; in sessions whose log has no timestamps (labelled so), lines since the session's first line"
                    : "ts: lines since each session's first line (the log has no timestamps): 1 µs stands for 1 line"
            }
            w.member("clock", clock)
        }
        output.write("\n],\n\"displayTimeUnit\": \"ms\",\n\"otherData\": ")
        output.write(other.buffer.bytes)
        output.write("}\n")
        output.flush()
    }
}
