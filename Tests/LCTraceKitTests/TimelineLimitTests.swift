import Foundation
import Testing
@testable import LCTraceKit

/// What the timeline reports (`chrome-trace`, `html`, `mermaid`) keep and draw of a session: its first
/// `SessionLimits.timelineEvents` events, whatever its length, with what they leave out counted in the output; and
/// nothing of the sessions `--session` does not choose.
@Suite struct TimelineLimitTests {
    static let timelineReporters: [ReportKind] = [.chromeTrace, .html, .mermaid]

    /// One line a millisecond, in one process: `2016-03-17 10:00:00.000 Shop[1:1] MESSAGE`.
    static func timed(_ messages: [String]) -> String {
        messages.enumerated().map { line, message in
            let ms = line
            let time = String(format: "%02d:%02d:%02d.%03d", 10 + ms / 3_600_000, ms / 60_000 % 60, ms / 1000 % 60, ms % 1000)
            return "2016-03-17 \(time) Shop[1:1] \(message)\n"
        }.joined()
    }

    /// A pushed onto by V; V hidden and shown again (with layout passes between, which make events but no transition)
    /// past `events` events; then W arrives, A is deallocated and W appears twice (a finding).
    static func longSession(events: Int) -> [String] {
        var messages = ["A viewDidLoad", "A viewWillAppear:", "A viewDidAppear:", "A viewWillDisappear:", "V viewDidLoad",
                        "V viewWillAppear:", "A viewDidDisappear:", "V viewDidAppear:", "V viewDidAppear:"]
        let layout = Array(repeating: ["V viewWillLayoutSubviews", "V viewDidLayoutSubviews"], count: 24).flatMap { $0 }
        while messages.count < events + 1_000 {
            messages += ["V viewWillDisappear:", "V viewDidDisappear:"] + layout + ["V viewWillAppear:", "V viewDidAppear:"]
        }
        return messages + ["W viewDidLoad", "W viewWillAppear:", "V viewWillDisappear:", "V viewDidDisappear:", "W viewDidAppear:",
                           "A dealloc", "W viewDidAppear:"]
    }

    /// Analyses `path` into `reporters` in one pass, the analysis keeping events as the command line has it keep them
    /// for these reporters; returns each report and what the session reports held.
    static func run(_ reporters: [ReportKind], settings: ReportKind.Settings = ReportKind.Settings(),
                    path: String) throws -> (reports: [ReportKind: String], recorded: RecordingSink) {
        var options = AnalysisOptions()
        options.keepEvents = reporters.contains { $0.keepsEvents(settings) }
        let outputs = reporters.map { _ in Output() }
        let recorded = RecordingSink()
        let sinks = zip(reporters, outputs).map { $0.reporter(output: $1, settings: settings) } + [recorded]
        let analyzer = try Analyzer(options: options, reports: ReportDelivery(sinks))
        try analyzer.analyze(.file(path))
        analyzer.finish()
        return (Dictionary(uniqueKeysWithValues: zip(reporters, outputs.map(\.text))), recorded)
    }

    static func keptEvents(_ session: SessionReport) -> Int {
        session.controllers.reduce(session.app.events.count) { $0 + $1.events.count }
    }

    /// The timeline of session `index` embedded in an HTML page.
    static func embeddedSession(_ index: Int, in page: String) throws -> [String: Any] {
        let json = try #require(page.components(separatedBy: "<script type=\"application/json\" id=\"lct-session-\(index)\">").dropFirst()
            .first?.components(separatedBy: "</script>").first)
        return try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
    }

    /// A session longer than the cap keeps only the events drawn; each format draws it up to the cut, within the
    /// caps of its tracks or diagram, and says what it left out; and the same, byte for byte, when another report
    /// keeps every event.
    @Test func aSessionPastTheCapIsDrawnToItsCutInEveryFormat() throws {
        let cap = SessionLimits().timelineEvents
        let messages = TimelineLimitTests.longSession(events: cap)
        let path = try Fixtures.temporaryFile(TimelineLimitTests.timed(messages))
        let cut = cap + 1, past = messages.count - cap
        let lastDrawnTick = (cut - 2) * 1000

        let (reports, recorded) = try TimelineLimitTests.run(TimelineLimitTests.timelineReporters, path: path)
        let session = try #require(recorded.sessions.first)
        #expect(recorded.sessions.count == 1)
        #expect(TimelineLimitTests.keptEvents(session) == cap)
        let transitionsPast = session.transitions.filter { $0.endLine >= cut }.count
        let findingsPast = session.findings.filter { $0.line >= cut }.count
        #expect(transitionsPast > 0 && transitionsPast < session.transitions.count)
        #expect(findingsPast == 1 && session.findings.count == 2, "\(session.findings.map(\.message))")

        // Chrome trace: nothing at or past the cut, the caps of the tracks kept, what was left out in the labels.
        let traceText = try #require(reports[.chromeTrace])
        let trace = try #require(try JSONSerialization.jsonObject(with: Data(traceText.utf8)) as? [String: Any])
        let events = try #require(trace["traceEvents"] as? [[String: Any]])
        #expect(TraceCheck.problems(events) == [])
        let labels = (events.first { $0["name"] as? String == "process_labels" }?["args"] as? [String: Any])?["labels"] as? String
        #expect(labels?.contains("not drawn: \(past) events from line \(cut) on, 1 controller, \(transitionsPast) transitions, 1 finding") == true,
                "\(labels ?? "")")
        let late = events.filter { event in
            guard event["ph"] as? String == "X" || event["ph"] as? String == "i" else { return false }
            let args = event["args"] as? [String: Any] ?? [:]
            let line = args["endLine"] as? Int ?? args["line"] as? Int ?? 0
            return line >= cut || (event["ts"] as! Int) + (event["dur"] as? Int ?? 0) > lastDrawnTick
        }
        #expect(late.isEmpty, "\(late.count) spans or instants at or past the cut, the first \(late.prefix(2))")
        let spansByThread = Dictionary(grouping: events.filter { $0["ph"] as? String == "X" }) { $0["tid"] as! Int }
        #expect(spansByThread.values.allSatisfy { $0.count <= SessionTimeline.spansPerTrack })

        // HTML: the same, in the page's data, which says where the timeline stops.
        let page = try #require(reports[.html])
        let drawn = try TimelineLimitTests.embeddedSession(1, in: page)
        let notDrawn = try #require(drawn["notDrawn"] as? [String: Any])
        #expect(notDrawn["events"] as? Int == past && notDrawn["fromLine"] as? Int == cut)
        #expect(notDrawn["controllers"] as? Int == 1 && notDrawn["findings"] as? Int == 1)
        #expect(notDrawn["transitions"] as? Int == transitionsPast + session.transitionsNotListed)
        #expect(drawn["end"] as? Int == lastDrawnTick)
        let tracks = try #require(drawn["tracks"] as? [[String: Any]])
        #expect(tracks.map { $0["name"] as! String } == ["A", "V", "Transitions"])
        for track in tracks {
            let spans = track["spans"] as! [[String: Any]], marks = track["marks"] as! [[String: Any]]
            #expect(spans.count <= SessionTimeline.spansPerTrack && marks.count <= SessionTimeline.marksPerTrack)
            #expect(spans.allSatisfy { ($0["endLine"] as! Int) < cut && ($0["end"] as! Int) <= lastDrawnTick })
        }
        // A, deallocated past the cut, lives on to the end of the timeline.
        let life = try #require((tracks[0]["spans"] as? [[String: Any]])?.first)
        #expect(life["open"] as? Bool == true && life["end"] as? Int == lastDrawnTick && life["endLine"] as? Int == cut - 1)
        #expect((drawn["findings"] as? [[String: Any]])?.map { $0["line"] as! Int } == [9])

        // Mermaid: the diagram's first items, and a note that counts the rest.
        let mermaid = try #require(reports[.mermaid])
        let diagram = try #require(mermaid.components(separatedBy: "```mermaid\n").last?.components(separatedBy: "```").first)
        let items = diagram.split(separator: "\n").filter { $0.contains("->>") || $0.contains("Note over") }
        #expect(items.count == MermaidReporter.itemsPerDiagram + 1)
        let note = try #require(items.last)
        #expect(note.hasSuffix(" more not drawn, nor the \(past) events from line \(cut) on (lines to \(messages.count))"), "\(note)")
        #expect(!diagram.contains("participant c3 as W"))

        // The same timelines when the text report keeps every event.
        var settings = ReportKind.Settings()
        settings.includeEvents = true
        let withText = try TimelineLimitTests.run(TimelineLimitTests.timelineReporters + [.text], settings: settings, path: path)
        #expect(TimelineLimitTests.keptEvents(try #require(withText.recorded.sessions.first)) == messages.count)
        for reporter in TimelineLimitTests.timelineReporters {
            #expect(withText.reports[reporter] == reports[reporter], "\(reporter)")
        }
    }

    /// `--session` choosing other sessions: the ones not chosen keep no events, for every timeline report, and the
    /// short Mermaid diagrams, which draw no callbacks, keep none at all.
    @Test func sessionsNotSelectedKeepNoEvents() throws {
        let first = ["V viewDidLoad"] + Array(repeating: ["V viewWillAppear:", "V viewDidAppear:", "V viewWillDisappear:", "V viewDidDisappear:"],
                                               count: 500).flatMap { $0 }
        let path = try Fixtures.temporaryFile(TimelineLimitTests.timed(first + ["main()", "W viewDidLoad", "W viewWillAppear:", "W viewDidAppear:",
                                                                                "main()", "X viewDidLoad", "X viewWillAppear:"]))
        var settings = ReportKind.Settings()
        settings.sessions = SessionSelection("2-")
        for reporter in TimelineLimitTests.timelineReporters + [.mermaidShort] {
            let (reports, recorded) = try TimelineLimitTests.run([reporter], settings: settings, path: path)
            #expect(recorded.sessions.map(\.index) == [1, 2, 3])
            let kept = recorded.sessions.map(TimelineLimitTests.keptEvents)
            #expect(kept == (reporter == .mermaidShort ? [0, 0, 0] : [0, 4, 3]), "\(reporter)")
            #expect(recorded.sessions[0].eventCount(of: "V") == first.count)
            let report = try #require(reports[reporter])
            #expect(!report.contains("lines 1–2001") && !report.contains("lines 1-2001") && !report.contains("lct-session-1\""), "\(reporter)")
        }
    }
}

private extension SessionReport {
    /// The events the session saw for the controller `id`, kept or not.
    func eventCount(of id: String) -> Int? { controllers.first { $0.id == id }?.eventCount }
}
