/// `--reporter html`: one self-contained page (inline style and script, nothing from the network) that draws each
/// session's `SessionTimeline` as swimlanes, with the run's findings in a table. Each session's timeline is
/// embedded as JSON in a script element of its own as it closes, read by the page only when the session is shown,
/// so a page of thousands of sessions opens at once; what is embedded is capped (`embeddedBytes`), and the page says
/// what was left out. Everything from the log is JSON in the page, with `<`, `>` and `&` escaped, and the page puts
/// it in the document as text only.
public final class HTMLTimelineReporter: TimelineReporter {
    /// Bytes of session timelines a page embeds; later sessions are listed in its index only.
    public static let embeddedBytes = 32 << 20
    /// Findings the page's table lists, and sessions its index lists.
    public static let listedFindings = 5_000
    public static let listedSessions = 100_000

    private let output: Output
    private let selection: SessionSelection?
    private let embedLimit: Int
    private var embedded = 0
    private var embeddedSessions = 0
    private var embedding = true
    private var sessionsNotEmbedded = 0
    private var sessionsNotListed = 0
    private var index: [JSONValue] = []
    private var findings: [JSONValue] = []
    private var findingsNotListed = 0
    private var findingCounts: [Int: SeverityCounts] = [:]
    private var writer = JSONWriter(indent: nil, capacity: 1 << 16)

    public init(output: Output, selection: SessionSelection? = nil, embedLimit: Int = HTMLTimelineReporter.embeddedBytes) {
        self.output = output
        self.selection = selection
        self.embedLimit = embedLimit
        output.write("""
            <!DOCTYPE html>
            <html lang="en">
            <head>
            <meta charset="utf-8">
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'; img-src data:">
            <meta name="generator" content="lctrace \(LCTraceVersion.current)">
            <title>lctrace timeline</title>
            <style>
            """)
        output.write(HTMLTimelinePage.style)
        output.write("</style>\n</head>\n<body>\n")
        output.write(HTMLTimelinePage.body)
        output.write("\n")
    }

    public var timelineSessions: SessionSelection? { selection ?? .all }

    public func finding(_ finding: Finding) {
        if finding.session != 0 { findingCounts[finding.session, default: SeverityCounts()][finding.severity] += 1 }
        guard selection?.contains(finding.session) ?? true || finding.session == 0 else { return }
        guard findings.count < HTMLTimelineReporter.listedFindings else { findingsNotListed += 1; return }
        findings.append(.object([
            ("session", .int(finding.session)), ("input", .string(finding.input)), ("line", .int(finding.line)),
            ("severity", .string(finding.severity.rawValue)), ("rule", .string(finding.rule.rawValue)),
            ("message", .string(finding.message)), ("subject", .optional(finding.controller)),
        ]))
    }

    public func sessionClosed(_ session: SessionReport) {
        let counts = findingCounts.removeValue(forKey: session.index) ?? SeverityCounts()
        guard selection?.contains(session.index) ?? true else { return }
        guard index.count < HTMLTimelineReporter.listedSessions else { sessionsNotListed += 1; return }
        let timeline = SessionTimeline(session)
        if embedding {
            writer.reset()
            HTMLTimelineReporter.write(timeline, to: &writer)
            if embedded + writer.buffer.count <= embedLimit {
                embedded += writer.buffer.count
                embeddedSessions += 1
                output.write("<script type=\"application/json\" id=\"lct-session-\(session.index)\">")
                HTMLTimelineReporter.writeScriptSafe(writer.buffer.bytes, to: output)
                output.write("</script>\n")
            } else {
                embedding = false
            }
        }
        if !embedding { sessionsNotEmbedded += 1 }
        index.append(.object([
            ("index", .int(session.index)), ("title", .string(timeline.title)), ("input", .string(session.input)),
            ("lines", .array([.int(session.startLine), .int(session.endLine)])),
            ("startTime", .optional(session.startTime?.string)), ("clock", .string(timeline.clock.rawValue)),
            ("controllers", .int(session.controllerCount)), ("transitions", .int(session.transitionCount)),
            ("errors", .int(counts[.error])), ("warnings", .int(counts[.warning])), ("infos", .int(counts[.info])),
            ("embedded", .bool(embedding)),
        ]))
    }

    public func finish(_ summary: RunSummary) {
        let run = JSONValue.object([
            ("version", .string(LCTraceVersion.current)),
            ("inputs", .array(summary.inputs.map { .string($0.name) })),
            ("summary", .object([
                ("sessions", .int(summary.sessions)), ("lines", .int(summary.lines)), ("events", .int(summary.events)),
                ("errors", .int(summary.findings(.error))), ("warnings", .int(summary.findings(.warning))),
                ("infos", .int(summary.findings(.info))),
            ])),
            ("limits", .object([
                ("embeddedSessions", .int(embeddedSessions)), ("sessionsNotEmbedded", .int(sessionsNotEmbedded)),
                ("sessionsNotListed", .int(sessionsNotListed)), ("embedBytesLimit", .int(embedLimit)),
                ("findingsListed", .int(findings.count)), ("findingsNotListed", .int(findingsNotListed)),
                ("selection", .optional(selection?.description)),
            ])),
            ("sessions", .array(index)),
            ("findings", .array(findings)),
        ])
        output.write("<script type=\"application/json\" id=\"lct-run\">")
        run.bytes(indent: nil).withUnsafeBytes { HTMLTimelineReporter.writeScriptSafe($0, to: output) }
        output.write("</script>\n<script>\n")
        output.write(HTMLTimelinePage.script)
        output.write("\n</script>\n</body>\n</html>\n")
        output.flush()
    }

    /// JSON inside a script element: `<`, `>` and `&` (which JSON only holds inside strings) as `\u` escapes, so
    /// no text from the log can end the element or open another.
    static func writeScriptSafe(_ json: UnsafeRawBufferPointer, to output: Output) {
        var start = 0
        for (offset, byte) in json.enumerated() {
            let escape: StaticString
            switch byte {
            case UInt8(ascii: "<"): escape = "\\u003c"
            case UInt8(ascii: ">"): escape = "\\u003e"
            case UInt8(ascii: "&"): escape = "\\u0026"
            default: continue
            }
            output.write(UnsafeRawBufferPointer(rebasing: json[start..<offset]))
            output.write(escape.description)
            start = offset + 1
        }
        output.write(UnsafeRawBufferPointer(rebasing: json[start...]))
    }

    /// The session as the page's script reads it.
    static func write(_ timeline: SessionTimeline, to w: inout JSONWriter) {
        w.object { w in
            w.member("index", timeline.index)
            w.member("clock", timeline.clock.rawValue)
            w.member("end", Int(timeline.end))
            w.key("tracks")
            w.objects(timeline.tracks) { track, w in
                w.member("id", track.id)
                w.member("name", track.name)
                w.member("kind", track.kind.rawValue)
                w.member("detail", track.detail)
                w.key("spans")
                w.objects(track.spans) { span, w in
                    w.member("name", span.name)
                    w.member("start", Int(span.start))
                    w.member("end", Int(span.end))
                    w.member("startLine", span.startLine)
                    w.member("endLine", span.endLine)
                    w.member("depth", span.depth)
                    w.key("open")
                    w.value(span.open)
                }
                w.key("marks")
                w.objects(track.marks) { mark, w in
                    w.member("name", mark.name)
                    w.member("at", Int(mark.at))
                    w.member("line", mark.line)
                }
            }
            w.key("transitions")
            w.objects(timeline.connectors) { connector, w in
                let transition = connector.transition
                w.member("kind", transition.kind.rawValue)
                w.member("declared", transition.declared?.rawValue)
                w.member("from", connector.from)
                w.member("to", connector.to)
                w.member("track", connector.track)
                w.member("start", Int(connector.start))
                w.member("end", Int(connector.end))
                w.member("startLine", transition.startLine)
                w.member("endLine", transition.endLine)
                w.member("label", HTMLTimelineReporter.label(of: transition))
            }
            w.key("findings")
            w.objects(timeline.findings) { mark, w in
                w.member("track", mark.track)
                w.member("at", Int(mark.at))
                w.member("severity", mark.finding.severity.rawValue)
                w.member("rule", mark.finding.rule.rawValue)
                w.member("message", mark.finding.message)
                w.member("line", mark.finding.line)
            }
            w.key("notDrawn")
            w.object { w in
                w.member("controllers", timeline.controllersNotDrawn)
                w.member("transitions", timeline.transitionsNotDrawn)
                w.member("findings", timeline.findingsNotDrawn)
                w.member("items", timeline.itemsNotDrawn)
                if let cut = timeline.cut {
                    w.member("events", timeline.eventsNotDrawn)
                    w.member("fromLine", cut)
                }
            }
        }
    }

    /// `push A → B`, `appear B`, `disappear A`.
    static func label(of transition: TransitionReport) -> String {
        let who = [transition.from, transition.to].compactMap { $0 }.joined(separator: " → ")
        return who.isEmpty ? transition.kind.rawValue : "\(transition.kind.rawValue) \(who)"
    }
}
