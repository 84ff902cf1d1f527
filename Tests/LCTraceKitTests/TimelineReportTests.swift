import Foundation
import Testing
@testable import LCTraceKit

/// The rules of the Trace Event Format a viewer relies on, checked on a whole trace: what each phase requires, spans
/// nesting strictly on each thread, flow and async events pairing by id. Returns what breaks them.
enum TraceCheck {
    static func problems(_ events: [[String: Any]]) -> [String] {
        var problems: [String] = []
        var spans: [String: [(start: Int, end: Int, name: String)]] = [:]
        var async: [String: Int] = [:]
        var flows: [String: Int] = [:]
        for (number, event) in events.enumerated() {
            let where_ = "event \(number) \(event)"
            guard let phase = event["ph"] as? String, event["name"] is String, event["pid"] is Int, event["tid"] is Int else {
                problems.append("\(where_): ph, name, pid and tid are required")
                continue
            }
            let ts = event["ts"] as? Int
            if phase != "M", (ts ?? -1) < 0 { problems.append("\(where_): ts must be a whole number ≥ 0") }
            let thread = "\(event["pid"]!)/\(event["tid"]!)"
            switch phase {
            case "X":
                guard let dur = event["dur"] as? Int, dur >= 0 else { problems.append("\(where_): X needs dur ≥ 0"); continue }
                spans[thread, default: []].append((ts ?? 0, (ts ?? 0) + dur, event["name"] as! String))
            case "M":
                let args = event["args"] as? [String: Any] ?? [:]
                switch event["name"] as! String {
                case "process_name", "thread_name":
                    if !(args["name"] is String) { problems.append("\(where_): \(event["name"]!) needs args.name") }
                case "process_sort_index", "thread_sort_index":
                    if !(args["sort_index"] is Int) { problems.append("\(where_): needs args.sort_index") }
                case "process_labels":
                    if !(args["labels"] is String) { problems.append("\(where_): needs args.labels") }
                default: problems.append("\(where_): unknown metadata")
                }
            case "i":
                if !["t", "p", "g"].contains(event["s"] as? String ?? "") { problems.append("\(where_): i needs a scope") }
            case "b", "e":
                guard let id = event["id"] else { problems.append("\(where_): \(phase) needs an id"); continue }
                async["\(event["cat"] ?? "")/\(id)", default: 0] += phase == "b" ? 1 : -1
            case "s", "f":
                guard let id = event["id"] else { problems.append("\(where_): \(phase) needs an id"); continue }
                flows["\(id)", default: 0] += phase == "s" ? 1 : -1
            default:
                problems.append("\(where_): phase \(phase) is not used")
            }
        }
        problems += async.filter { $0.value != 0 }.map { "async id \($0.key): b and e do not pair" }
        problems += flows.filter { $0.value != 0 }.map { "flow id \($0.key): s and f do not pair" }
        for (thread, list) in spans {
            // Longest first at the same start: a parent before its children.
            let sorted = list.sorted { ($0.start, -$0.end) < ($1.start, -$1.end) }
            var open: [(start: Int, end: Int, name: String)] = []
            for span in sorted {
                while let top = open.last, top.end <= span.start, !(top.start == span.start && span.end <= top.end) {
                    open.removeLast()
                }
                if let top = open.last, span.end > top.end {
                    problems.append("thread \(thread): \(span.name) \(span.start)–\(span.end) overlaps \(top.name) \(top.start)–\(top.end)")
                }
                open.append(span)
            }
        }
        return problems
    }
}

@Suite(.serialized) struct TimelineReportTests {
    private func temporaryDirectory() throws -> URL {
        let directory = TestFiles.root.appendingPathComponent("lctrace-timeline-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return directory
    }

    private func samples() throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: Fixtures.sampleLogs.path).filter { $0.hasSuffix(".log") }.sorted()
    }

    /// The trace of each sample log is valid, and holds what the JSON report of the same run says: a `visible`
    /// span per viewDidAppear of each controller, a span per transition, an instant per finding.
    @Test func chromeTraceOfEverySampleIsValidAndMatchesTheReport() throws {
        let directory = try temporaryDirectory()
        for sample in try samples() + ["generated"] {
            let input = sample == "generated" ? try generatedLog(bytes: "300K", seed: 22, format: "nslog-modern") : Fixtures.sample(sample)
            let trace = directory.appendingPathComponent("trace.json"), json = directory.appendingPathComponent("report.json")
            let run = try lctrace(["analyze", "--reporter", "chrome-trace=\(trace.path)", "--reporter", "json=\(json.path)", input])
            #expect(run.status <= 1, "\(sample): \(run.stderr)")
            let document = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: trace)) as? [String: Any], "\(sample)")
            let events = try #require(document["traceEvents"] as? [[String: Any]])
            #expect(TraceCheck.problems(events) == [], "\(sample)")
            #expect(document["displayTimeUnit"] as? String == "ms")
            #expect(((document["otherData"] as? [String: Any])?["clock"] as? String)?.hasPrefix("ts: ") == true)

            let report = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: json)) as? [String: Any])
            let sessions = try #require(report["sessions"] as? [[String: Any]])
            let findings = try #require(report["findings"] as? [[String: Any]])
            for session in sessions {
                let pid = try #require(session["index"] as? Int)
                let ofSession = events.filter { $0["pid"] as? Int == pid }
                let names = ofSession.filter { $0["name"] as? String == "process_name" }
                #expect(names.count == 1, "\(sample) session \(pid)")
                var threads: [String: Int] = [:]
                for event in ofSession where event["name"] as? String == "thread_name" {
                    threads[(event["args"] as! [String: Any])["name"] as! String] = event["tid"] as? Int
                }
                for controller in session["controllers"] as? [[String: Any]] ?? [] {
                    let id = controller["id"] as! String
                    let tid = try #require(threads[id], "\(sample): a track for \(id)")
                    let appeared = (controller["events"] as! [[String: Any]]).filter { $0["callback"] as? String == "viewDidAppear" }.count
                    let visible = ofSession.filter { $0["tid"] as? Int == tid && $0["ph"] as? String == "X" && $0["name"] as? String == "visible" }
                    #expect(visible.count == appeared, "\(sample): \(id)")
                }
                let transitions = ofSession.filter { $0["ph"] as? String == "X" && $0["cat"] as? String == "transition" }
                #expect(transitions.count == (session["transitions"] as? [Any])?.count ?? 0, "\(sample) session \(pid)")
                let instants = ofSession.filter { ($0["cat"] as? String)?.hasPrefix("finding,") == true }
                #expect(instants.count == findings.filter { $0["session"] as? Int == pid }.count, "\(sample) session \(pid)")
            }
        }
    }

    /// A log cut into sections analysed in parallel draws the same timelines, byte for byte.
    @Test func timelinesAreTheSameWithOneJobOrTwo() throws {
        let log = try generatedLog(bytes: "1500K", seed: 12, format: "nslog-classic")
        let directory = try temporaryDirectory()
        let names = ["chrome-trace", "html", "mermaid"]
        for jobs in ["1", "2"] {
            let run = try lctrace(["analyze", "--jobs", jobs] + names.flatMap { ["--reporter", "\($0)=\(directory.path)/\($0).\(jobs)"] } + [log])
            #expect(run.status == 0, "\(run.stderr)")
        }
        for name in names {
            let one = try Data(contentsOf: directory.appendingPathComponent("\(name).1"))
            #expect(one.count > 100_000 || name == "mermaid", "\(name)")
            #expect(one == (try Data(contentsOf: directory.appendingPathComponent("\(name).2"))), "\(name)")
        }
    }

    /// A transition between two controllers is a flow from the one leaving to the one arriving.
    @Test func transitionsAreFlowsBetweenTheControllersTracks() throws {
        let run = try lctrace(["analyze", "--reporter", "chrome-trace", Fixtures.sample("seed-push-pop.log")])
        let document = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])
        let events = try #require(document["traceEvents"] as? [[String: Any]])
        let threads = Dictionary(uniqueKeysWithValues: events.filter { $0["name"] as? String == "thread_name" }
            .map { ($0["tid"] as! Int, ($0["args"] as! [String: Any])["name"] as! String) })
        let starts = events.filter { $0["ph"] as? String == "s" }, ends = events.filter { $0["ph"] as? String == "f" }
        #expect(starts.map { "\($0["name"]!) \(threads[$0["tid"] as! Int]!)" } == ["push ViewController", "pop SecondViewController"])
        #expect(ends.map { "\($0["name"]!) \(threads[$0["tid"] as! Int]!)" } == ["push SecondViewController", "pop ViewController"])
        #expect(Set(threads.values) == ["App", "ViewController", "SecondViewController", "Transitions"])
    }

    /// A finding about no controller is drawn on the App track, made for it when the app logged nothing; the
    /// findings about a controller stay on its track.
    @Test func findingsGoToTheTrackOfWhatTheyAreAbout() throws {
        let recorded = try analyze(text: """
            2016-03-17 15:46:20.789 Shop[1:1] ViewController viewDidLoad
            2016-03-17 15:46:20.790 Shop[1:1] ViewController viewWillAppear:
            2016-03-17 15:46:20.700 Shop[1:1] ViewController viewDidAppear:
            2016-03-17 15:46:20.800 Shop[1:1] ViewController viewDidAppear:

            """)
        let session = try #require(recorded.sessions.first)
        #expect(session.app.events.isEmpty)
        let timeline = SessionTimeline(session)
        #expect(timeline.tracks.map(\.name) == ["App", "ViewController", "Transitions"])
        let placed = timeline.findings.map { "\($0.finding.rule.rawValue) \(timeline.tracks[$0.track].name)" }
        #expect(placed == ["clock-went-back App", "did-appear-twice ViewController"], "\(placed)")
        #expect(timeline.findings.allSatisfy { $0.at >= 0 && $0.at <= timeline.end })
    }

    /// A log without timestamps is drawn on line numbers, and the trace says so.
    @Test func aLogWithoutTimestampsIsDrawnOnLines() throws {
        let log = try Fixtures.temporaryFile("""
            ViewController viewDidLoad
            ViewController viewWillAppear:
            something else
            ViewController viewDidAppear:

            """)
        let run = try lctrace(["analyze", "--reporter", "chrome-trace", log])
        let document = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])
        #expect(((document["otherData"] as? [String: Any])?["clock"] as? String)?.contains("lines since each session's first line") == true)
        let events = try #require(document["traceEvents"] as? [[String: Any]])
        let appearing = try #require(events.first { $0["name"] as? String == "appearing" })
        #expect(appearing["ts"] as? Int == 1 && appearing["dur"] as? Int == 2)
        let labels = events.first { $0["name"] as? String == "process_labels" }?["args"] as? [String: Any]
        #expect((labels?["labels"] as? String)?.contains("no timestamps") == true)
    }

    /// `--session` draws only the sessions asked for, and is refused without a report that draws sessions.
    @Test func sessionSelection() throws {
        let log = try generatedLog(bytes: "20K", seed: 5, format: "nslog-classic")
        let all = try lctrace(["analyze", "--reporter", "chrome-trace", log])
        let document = try #require(try JSONSerialization.jsonObject(with: Data(all.stdout.utf8)) as? [String: Any])
        let pids = Set((document["traceEvents"] as! [[String: Any]]).map { $0["pid"] as! Int })
        #expect(pids.count >= 2)
        let second = try lctrace(["analyze", "--reporter", "chrome-trace", "--session", "2", log])
        let selected = try #require(try JSONSerialization.jsonObject(with: Data(second.stdout.utf8)) as? [String: Any])
        #expect(Set((selected["traceEvents"] as! [[String: Any]]).map { $0["pid"] as! Int }) == [2])
        #expect((selected["otherData"] as? [String: Any])?["selection"] as? String == "2")

        let refused = try lctrace(["analyze", "--session", "2", log])
        #expect(refused.status == 2)
        #expect(refused.stderr.contains("--session 2 chooses what the timeline reports draw"))
        #expect(try lctrace(["analyze", "--reporter", "html", "--session", "3-1", log]).status == 2)
        #expect(SessionSelection("4-")?.contains(400) == true && SessionSelection("4-")?.contains(3) == false)
        #expect(SessionSelection("0") == nil && SessionSelection("x") == nil && SessionSelection("2-3")?.contains(3) == true)
    }

    /// The seed's push and pop as a short diagram: the controllers, the transitions between them, the finding.
    @Test func mermaidShortDiagramOfTheSeedPushPop() throws {
        let run = try lctrace(["analyze", "--reporter", "mermaid-short", "SampleLogs/seed-push-pop.log"])
        #expect(run.stdout == """
            ### LifeCycle\\[2044\\] · session 1

            `SampleLogs/seed-push-pop.log` lines 1–17: 2 controllers, 3 transitions, 1 info.

            ```mermaid
            sequenceDiagram
                participant UIKit
                participant c1 as ViewController
                participant c2 as SecondViewController
                UIKit->>c1: appear (lines 6–7)
                c1->>c2: push (lines 8–13)
                c2->>c1: pop (lines 14–17)
                Note over UIKit: info [session-ended-abruptly] the session ends with the app active, before any didEnterBackground or willTerminate (a crash or a kill looks like this)#59; last events: line 15 ViewController viewWillAppear:, line 16 SecondViewController viewDidDisappear:, line 17 ViewController viewDidAppear: (line 17)
            ```

            """)
    }

    /// The full diagram has a message per callback (layout left out) and keeps names from the log from being read
    /// as Mermaid or HTML.
    @Test func mermaidDiagramEscapesNamesAndListsCallbacks() throws {
        let log = try Fixtures.temporaryFile("""
            2016-03-17 15:46:20.789 Shop<i>App[2044:108959] Weird_Controller viewDidLoad
            2016-03-17 15:46:20.790 Shop<i>App[2044:108959] Weird_Controller viewWillAppear:
            2016-03-17 15:46:20.791 Shop<i>App[2044:108959] Weird_Controller viewWillLayoutSubviews
            2016-03-17 15:46:20.800 Shop<i>App[2044:108959] Weird_Controller viewDidAppear:

            """)
        let run = try lctrace(["analyze", "--reporter", "mermaid", log])
        #expect(run.stdout.hasPrefix("### Shop&lt;i&gt;App\\[2044\\] · session 1\n"), "\(run.stdout)")
        let diagram = try #require(run.stdout.components(separatedBy: "```mermaid\n").last)
        #expect(!diagram.contains("<"))
        #expect(MermaidText.escape("A;B#C<i>\"x\"\n%%") == "A#59;B#35;C#lt;i#gt;#quot;x#quot; #37;#37;")
        #expect(diagram.contains("participant c1 as Weird_Controller"))
        let messages = diagram.split(separator: "\n").filter { $0.contains("->>") }
        #expect(messages.count == 3)
        #expect(!diagram.contains("viewWillLayoutSubviews"))
    }

    /// Text from the log cannot end the script element it is embedded in.
    @Test func htmlEmbedsLogTextAsScriptSafeJSON() throws {
        let output = Output()
        let json = Array(#"{"name":"</script><script>alert(1)</script>","b":"a&b>c"}"#.utf8)
        json.withUnsafeBytes { HTMLTimelineReporter.writeScriptSafe($0, to: output) }
        #expect(output.text == #"{"name":"\u003c/script\u003e\u003cscript\u003ealert(1)\u003c/script\u003e","b":"a\u0026b\u003ec"}"#)
        let decoded = try JSONSerialization.jsonObject(with: Data(output.text.utf8)) as? [String: String]
        #expect(decoded?["name"] == "</script><script>alert(1)</script>")
    }

    /// Past its cap a page stops embedding timelines, lists the later sessions in its index and says how many.
    @Test func htmlCapsWhatItEmbeds() throws {
        let recorded = try analyze(paths: [try generatedLog(bytes: "20K", seed: 5, format: "nslog-classic")])
        #expect(recorded.sessions.count >= 2)
        let output = Output()
        let renderer = HTMLTimelineReporter(output: output, embedLimit: 1)
        for session in recorded.sessions { renderer.sessionClosed(session) }
        renderer.finish(try #require(recorded.summary))
        #expect(!output.text.contains("id=\"lct-session-"))
        let run = try #require(output.text.components(separatedBy: "<script type=\"application/json\" id=\"lct-run\">").last?
            .components(separatedBy: "</script>").first)
        let limits = try #require((try JSONSerialization.jsonObject(with: Data(run.utf8)) as? [String: Any])?["limits"] as? [String: Any])
        #expect(limits["sessionsNotEmbedded"] as? Int == recorded.sessions.count)
        #expect(limits["embeddedSessions"] as? Int == 0)
    }
}
