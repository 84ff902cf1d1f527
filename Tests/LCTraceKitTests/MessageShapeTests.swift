import Foundation
import Testing
import PCRE2
@testable import LCTraceKit

/// Logs shaped like what loggers and crash reports print (`Fixtures/message-shapes`): the class read from a source
/// file's name, a logger's function field on every line logged inside one call, crash reports and backtraces pasted
/// into a log, and os_log's redaction. Every line must be read as its `.expect` file says, with its reason.
@Suite struct MessageShapeFixtureTests {
    static let directory = Fixtures.repositoryRoot.appendingPathComponent("Tests/LCTraceKitTests/Fixtures/message-shapes")

    static var fixtures: [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? [])
            .filter { $0.hasSuffix(".log") }.map { String($0.dropLast(4)) }.sorted()
    }

    static func path(_ name: String) -> String { directory.appendingPathComponent(name + ".log").path }

    /// A row of an `.expect` file: `LINE<TAB>DISPOSITION<TAB>CLASS<TAB>CALLBACK<TAB>REASON`, `-` for none.
    struct Expected: Equatable, CustomStringConvertible {
        var line: Int, disposition: String, className: String, callback: String, reason: String
        var description: String { "\(line) \(disposition) \(className) \(callback) «\(reason)»" }
    }

    static func expected(_ name: String) throws -> [Expected] {
        let text = try String(contentsOf: directory.appendingPathComponent(name + ".expect"), encoding: .utf8)
        return text.split(separator: "\n").filter { !$0.hasPrefix("#") }.map { row in
            let cells = row.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            return Expected(line: Int(cells[0]) ?? -1, disposition: cells[1], className: cells[2], callback: cells[3],
                            reason: cells.count > 4 ? cells[4] : "-")
        }
    }

    /// What was read of each line of `path`, in the `.expect` shape, and the report's sessions and summary.
    static func read(_ path: String, options: AnalysisOptions = AnalysisOptions()) throws -> ([Expected], RecordingSink) {
        var readings: [Expected] = []
        let sink = RecordingSink()
        let analyzer = try Analyzer(options: options, reporter: sink)
        analyzer.lineObserver = { reading in
            var className = reading.className ?? "-"
            if className == MessageParser.anonymousClass { className = "-" }
            var callback = reading.callback?.rawValue ?? "-"
            if reading.disposition != "lifecycle", reading.disposition != "notice" { (className, callback) = ("-", "-") }
            if reading.callback?.family == .marker { className = "-" }
            readings.append(Expected(line: reading.line, disposition: reading.disposition, className: className, callback: callback,
                                     reason: reading.reason ?? "-"))
        }
        try analyzer.analyze(.file(path))
        analyzer.finish()
        return (readings, sink)
    }

    @Test func thereAreFixtures() {
        #expect(Self.fixtures.count >= 7)
    }

    @Test(arguments: Self.fixtures)
    func everyLineIsReadAsExpected(_ name: String) throws {
        let expected = try Self.expected(name)
        let (read, _) = try Self.read(Self.path(name))
        #expect(read.count == expected.count, "\(name): \(read.count) lines read, \(expected.count) expected")
        for (got, want) in zip(read, expected) where got != want {
            Issue.record("\(name).log:\(want.line): read \(got), expected \(want)")
        }
    }

    /// What each fixture amounts to: its events, the controllers (by class) with their events, and the lines that
    /// are crash context or redacted.
    struct Outcome: Equatable, CustomStringConvertible {
        var events: Int
        var controllers: [String: Int]
        var crashLines: Int
        var redactedLines: Int
        var description: String {
            "\(events) events, \(controllers.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }), \(crashLines) crash, \(redactedLines) redacted"
        }
    }

    static let outcomes: [String: Outcome] = [
        // Context lines (inside viewDidLoad, didFinishLaunching, deinit) are no events; a child's viewDidLoad between
        // two lines of its parent's is one; the same source line again is a new call.
        "xcglogger-calls": Outcome(events: 17, controllers: ["FeedViewController": 9, "BannerViewController": 1, "DetailViewController": 6],
                                   crashLines: 0, redactedLines: 0),
        "swiftybeaver-calls": Outcome(events: 10, controllers: ["FeedViewController": 5, "DetailViewController": 4],
                                      crashLines: 0, redactedLines: 0),
        "source-file-names": Outcome(events: 8, controllers: ["NavigationViewController": 3, "ProfileViewController": 2,
                                                             "CartViewController": 1, "SettingsViewController": 1, "OrderViewController": 1],
                                     crashLines: 0, redactedLines: 0),
        // The frames name -[UIViewController presentViewController:animated:completion:] and the app's viewDidAppear:
        // no UIViewController, and no second viewDidAppear.
        // (The logged present(_:animated:completion:) is an event, not one of the controller's callbacks.)
        "crash-report": Outcome(events: 6, controllers: ["CartViewController": 3], crashLines: 47, redactedLines: 0),
        "crash-console": Outcome(events: 6, controllers: ["CartViewController": 3, "CheckoutViewController": 1], crashLines: 25, redactedLines: 0),
        "crash-ips": Outcome(events: 2, controllers: ["CartViewController": 2], crashLines: 3, redactedLines: 0),
        // No controller named "private".
        "os-log-redacted": Outcome(events: 3, controllers: ["CheckoutViewController": 2], crashLines: 0, redactedLines: 8),
    ]

    @Test(arguments: Self.fixtures)
    func eventsAndControllers(_ name: String) throws {
        let (read, sink) = try Self.read(Self.path(name))
        let summary = try #require(sink.summary)
        var controllers: [String: Int] = [:]
        for session in sink.sessions {
            for controller in session.controllers { controllers[controller.className, default: 0] += controller.eventCount }
        }
        let outcome = Outcome(events: summary.events, controllers: controllers,
                              crashLines: read.filter { $0.disposition == "crash" }.count,
                              redactedLines: read.filter { $0.reason == UnreadReason.redacted.rawValue }.count)
        #expect(outcome == Self.outcomes[name], "\(name)")
        #expect(summary.lines(.crash) == outcome.crashLines, "\(name)")
        #expect(summary.redactedLines == outcome.redactedLines, "\(name)")
    }

    /// Crash frames, a logger's lines from inside a call and redacted lines give no event: the events are exactly
    /// the lines read as lifecycle or notice.
    @Test(arguments: Self.fixtures)
    func onlyLifecycleAndNoticeLinesAreEvents(_ name: String) throws {
        let (read, sink) = try Self.read(Self.path(name))
        var eventLines: [Int] = []
        for session in sink.sessions {
            eventLines += session.app.events.map(\.line)
            for controller in session.controllers { eventLines += controller.events.map(\.line) }
        }
        let readAsEvents = read.filter { $0.disposition == "lifecycle" || $0.disposition == "notice" }.map(\.line)
        #expect(eventLines.sorted() == readAsEvents, "\(name)")
        for reading in read where reading.disposition == "crash" || reading.reason.hasPrefix("logged from inside")
            || reading.reason == UnreadReason.redacted.rawValue {
            #expect(!eventLines.contains(reading.line), "\(name).log:\(reading.line) gave an event")
        }
    }

    /// Every fixture gives the same report with PCRE2 alone as with the hand-written matchers and remembered messages.
    @Test(arguments: Self.fixtures)
    func theFastPathChangesNothing(_ name: String) throws {
        #expect(try analysisReport(of: Self.path(name)) == (try analysisReport(of: Self.path(name), handParsers: false)))
    }

    /// All the fixtures in one file, twice, each opened by a launch (where the file is cut into sections): the same
    /// report on one thread as in sections on two. A logger's call does not reach across a launch.
    @Test func sectionsOfTheFixturesChangeNothing() throws {
        var text = ""
        for (index, name) in Self.fixtures.enumerated() {
            text += "2024-02-09 08:00:00.000 Fixture\(index)[\(100 + index):1] main()\n"
            text += try String(contentsOfFile: Self.path(name), encoding: .utf8)
        }
        let path = try Fixtures.temporaryFile(text + text)
        let one = try analysisReport(of: path)
        #expect(one == (try analysisReport(of: path, jobs: 2)))
        #expect(one == (try analysisReport(of: path, handParsers: false, jobs: 2)))
    }

    /// The summary counts crash lines and redacted lines, in the text report (only when there are some) and in JSON.
    @Test func theSummaryCountsCrashAndRedactedLines() throws {
        func render(_ names: [String], json: Bool) throws -> String {
            let output = Output()
            let sink: any Reporter = json ? JSONReporter(output: output, includeEvents: false)
                : TextReporter(output: output, style: TextStyle(enabled: false), includeEvents: false)
            let analyzer = try Analyzer(options: AnalysisOptions(), reporter: sink)
            for name in names { try analyzer.analyze(.file(Self.path(name))) }
            analyzer.finish()
            return output.text
        }
        let text = try render(["crash-console", "os-log-redacted"], json: false)
        #expect(text.contains("(7 lifecycle, 2 notice, 5 other, 8 unread (8 redacted by os_log), 25 crash, 0 blank)"), "\(text)")
        let plain = try render(["xcglogger-calls"], json: false).split(separator: "\n").filter { $0.hasPrefix("Summary:") }
        #expect(plain == ["Summary: 26 lines (17 lifecycle, 0 notice, 9 other, 0 unread, 0 blank), 17 events, 1 session, 3 controllers, 3 transitions; 0 errors, 0 warnings, 1 info"])

        let json = try render(["crash-console", "os-log-redacted"], json: true)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        let summary = try #require(object["summary"] as? [String: Any])
        #expect(summary["redactedLines"] as? Int == 8)
        #expect((summary["lineDispositions"] as? [String: Any])?["crash"] as? Int == 25)
        let inputs = try #require(summary["perInput"] as? [[String: Any]])
        #expect(inputs.map { $0["redactedLines"] as? Int } == [0, 8])
        #expect(inputs.map { ($0["lineDispositions"] as? [String: Any])?["crash"] as? Int } == [25, 0])
    }

    // MARK: - The shape tables and the rule for a logger's calls

    /// What a reading is, as text (`MessageReading` is not equatable): to compare two parsers.
    static func describe(_ reading: MessageReading, _ line: UnsafeRawBufferPointer, _ names: NameTable) -> String {
        switch reading {
        case .message(let message, let end):
            let lifecycle = names.lifecycleMessage(message, end: end)
            return "message \(lifecycle.className ?? "-") \(lifecycle.callback.rawValue) \(lifecycle.address ?? "-") \(lifecycle.spelled) \(end)"
        case .other(let reason): return "other \(reason.rawValue)"
        case .unread(let reason): return "unread \(reason.rawValue)"
        case .crash(let crash): return "crash \(crash.shape) \(crash.description(line))"
        }
    }

    /// Every sample of the new shapes, every line of the fixtures, and seeded mutations of them: the fast path and
    /// PCRE2 alone read each the same, message by message, in the same order (a logger's calls depend on the lines
    /// before).
    @Test func messagesReadTheSameWithoutTheFastPath() throws {
        var lines: [[UInt8]] = []
        for shape in IdentityShape.all { lines += shape.samples.map { Array($0.message.utf8) } }
        for shape in CrashShape.all { lines += shape.samples.map { Array($0.utf8) } }
        for shape in RedactionShape.all { lines += shape.samples.map { Array($0.utf8) } }
        for name in Self.fixtures {
            lines += try Data(contentsOf: URL(fileURLWithPath: Self.path(name))).split(separator: 0x0A).map(Array.init)
        }
        lines += MutationRandom.mutations(of: lines, count: 4000, seed: 53, specials: Array("[]>:() .`<-0x9Z_a\t*#\"{".utf8))
        let fast = MessageParser()
        let plain = MessageParser(fastPath: false)
        var kinds: [String: Int] = [:]
        for line in lines + lines {
            try line.withUnsafeBytes { bytes in
                let expected = Self.describe(try plain.read(bytes, message: 0..<bytes.count), bytes, plain.names)
                let got = Self.describe(try fast.read(bytes, message: 0..<bytes.count), bytes, fast.names)
                #expect(got == expected, "\(String(decoding: line, as: UTF8.self))")
                kinds[String(expected.prefix { $0 != " " }), default: 0] += 1
            }
        }
        #expect(kinds["crash", default: 0] > 500 && kinds["message", default: 0] > 500 && kinds["unread", default: 0] > 50, "\(kinds)")
    }

    /// Each row of the crash table reads its samples, and is the first row that does; the uncaught exception keeps
    /// its class and reason.
    @Test func crashShapesReadTheirSamples() throws {
        let parser = MessageParser()
        for (index, shape) in CrashShape.all.enumerated() {
            for sample in shape.samples {
                let bytes = Array(sample.utf8)
                try bytes.withUnsafeBytes { line in
                    guard case .crash(let crash) = try parser.read(line, message: 0..<line.count) else {
                        Issue.record("\(shape.name): \(sample) is not read as a crash line")
                        return
                    }
                    #expect(crash.shape == index, "\(shape.name): \(sample) is read by \(CrashShape.all[crash.shape].name)")
                }
            }
        }
        let exception = Array(CrashShape.all.first { $0.name == "uncaught-exception" }!.samples[0].utf8)
        try exception.withUnsafeBytes { line in
            guard case .crash(let crash) = try parser.read(line, message: 0..<line.count) else {
                Issue.record("the uncaught exception is not read")
                return
            }
            #expect(crash.exception.map { String(decoding: line[$0], as: UTF8.self) } == "NSRangeException")
            #expect(crash.reason.map { String(decoding: line[$0], as: UTF8.self) }
                    == "*** -[__NSArrayM objectAtIndexedSubscript:]: index 5 beyond bounds [0 .. 2]")
        }
    }

    /// Lines that only look a little like a crash report's are read as before.
    @Test func ordinaryLinesAreNotCrashLines() throws {
        let parser = MessageParser()
        let cases: [(String, String)] = [
            ("14: A_ViewController viewWillDisappear:", "message A_ViewController viewWillDisappear"),
            ("111-[ViewController viewDidLoad]", "message ViewController viewDidLoad"),
            ("3 items in cart", "other"), ("2 retries 0x1F4 failed", "other"), ("Thread pool drained", "other"),
            ("Exception handler installed", "other"), ("frame rate 60", "other"), ("thread started", "other"),
            ("(lldb) po self", "other"), ("\"symbol\" : \"AAPL\",", "other"), ("0x1F4 is the status", "other"),
            ("Binary Images loaded: 3", "other"), ("libc++ version 17", "other"), ("*** note: cache cold", "other"),
        ]
        for (text, kind) in cases {
            let bytes = Array(text.utf8)
            let read = try bytes.withUnsafeBytes { Self.describe(try parser.read($0, message: 0..<$0.count), $0, parser.names) }
            #expect(read.hasPrefix(kind), "\(text): \(read)")
        }
    }

    /// Each redaction row's samples are unread for redaction; a marker among other words is an ordinary value, and
    /// a class or callback logged in the open is read.
    @Test func redactionShapesReadTheirSamples() throws {
        let parser = MessageParser()
        for shape in RedactionShape.all {
            for sample in shape.samples {
                let bytes = Array(sample.utf8)
                let read = try bytes.withUnsafeBytes { Self.describe(try parser.read($0, message: 0..<$0.count), $0, parser.names) }
                #expect(read == "unread " + UnreadReason.redacted.rawValue, "\(shape.name): \(sample): \(read)")
            }
        }
        for (text, kind) in [("Loaded <private> items", "other"), ("Presenter <private>", "other"), ("<privateer> viewDidLoad()", "message"),
                             ("CartViewController viewDidLoad() <private>", "message"), ("<private> refreshed", "other")] {
            let bytes = Array(text.utf8)
            let read = try bytes.withUnsafeBytes { Self.describe(try parser.read($0, message: 0..<$0.count), $0, parser.names) }
            #expect(read.hasPrefix(kind), "\(text): \(read)")
        }
    }

    /// The rule for a logger's calls, line by line: `new` is a call (an event), `inside` a line logged from inside
    /// the call an earlier line began.
    @Test func aLoggersLinesInsideACallAreOneCall() throws {
        let steps: [(String, String)] = [
            ("[FeedViewController.swift:34] viewDidLoad() > a", "new"),
            ("[FeedViewController.swift:36] viewDidLoad() > b", "inside"),
            // A helper of the same file names no callback: it does not count.
            ("[FeedViewController.swift:90] configure() > c", "other"),
            ("[FeedViewController.swift:38] viewDidLoad() > d", "inside"),
            // Another file between: a child loaded from inside the call.
            ("[BannerViewController.swift:12] viewDidLoad() > e", "new"),
            ("[FeedViewController.swift:40] viewDidLoad() > f", "inside"),
            // The same line again, or an earlier one: a new call.
            ("[FeedViewController.swift:40] viewDidLoad() > g", "new"),
            ("[FeedViewController.swift:35] viewDidLoad() > h", "new"),
            // Another function of the file in between: a new call.
            ("[FeedViewController.swift:52] viewWillAppear(_:) > i", "new"),
            ("[FeedViewController.swift:60] viewDidLoad() > j", "new"),
            // Another spelling of the file (SwiftyBeaver's name without extension) is another file.
            ("FeedViewController.viewDidLoad():61 - k", "new"),
            ("FeedViewController.viewDidLoad():62 - l", "inside"),
            // The line number's logger forms: `(line: N) :: function ::` and `File.m (N): -[C sel]:`.
            ("DetailViewController.swift (line: 88) :: deinit :: m", "new"),
            ("DetailViewController.swift (line: 90) :: deinit :: n", "inside"),
            ("INFO: CheckoutVC.m (41): -[CheckoutVC viewDidLoad]: o", "new"),
            ("INFO: CheckoutVC.m (45): -[CheckoutVC viewDidLoad]: p", "inside"),
            ("CheckoutVC.m:46 -[CheckoutVC viewDidLoad] p2", "inside"),
            ("[CheckoutVC.m:41] -[CheckoutVC viewDidLoad] p3", "new"),
            // A new launch starts afresh.
            ("main()", "marker"),
            ("[FeedViewController.swift:41] viewDidLoad() > q", "new"),
            // Logged with no line number, each line is a call.
            ("NavigationViewController.swift - `viewDidLoad`", "new"),
            ("NavigationViewController.swift - `viewDidLoad`", "new"),
        ]
        for fastPath in [true, false] {
            let parser = MessageParser(fastPath: fastPath)
            for (text, expected) in steps {
                let bytes = Array(text.utf8)
                let reading = try bytes.withUnsafeBytes { try parser.read($0, message: 0..<$0.count) }
                let kind: String
                switch reading {
                case .message(let message, _): kind = message.callback.family == .marker ? "marker" : "new"
                case .other(.insideCall): kind = "inside"
                default: kind = "other"
                }
                #expect(kind == expected, "\(text) (fast path: \(fastPath))")
            }
            // A new input starts afresh too.
            let again = Array("[FeedViewController.swift:42] viewDidLoad() > r".utf8)
            parser.startInput()
            let reading = try again.withUnsafeBytes { try parser.read($0, message: 0..<$0.count) }
            guard case .message = reading else {
                Issue.record("a new input continues a call of the one before")
                continue
            }
        }
        let parser = MessageParser()
        for text in ["[FeedViewController.swift:34] viewDidLoad() > a", "[FeedViewController.swift:36] viewDidLoad() > b"] {
            _ = try Array(text.utf8).withUnsafeBytes { try parser.read($0, message: 0..<$0.count) }
        }
        #expect(parser.reasonText(.insideCall) == "logged from inside viewDidLoad() (line 34 of FeedViewController.swift), not a new call")
    }

    /// Long runs of what the new shapes look for, before a callback or in a crash line's place: each is read within
    /// PCRE2's limits (none is given up as `regex-limit`), and quickly.
    @Test func longRunsStayWithinTheMatchLimits() throws {
        let parser = MessageParser()
        let runs = ["-", "1", ".", " ", "a", "[a] ", "a/", "(", "\t", "<private>", "1 a", "a.m ", "`", "+", "0x1 - "]
        // Before a callback's name, tens of thousands of tag characters (punctuation, digits) are more than the
        // identity shapes' `tags` takes, as they were before these shapes: such lines are left out here.
        let tagCharacters = Set(["-", "1", ".", "`", "+"])
        var lines: [String] = []
        for run in runs {
            let long = String(repeating: run, count: 60_000 / run.utf8.count)
            lines += ["[" + long + "viewDidLoad()", "1 " + long + "x", long + ": 0x1", "\"" + long,
                      "*** Terminating app due to uncaught exception 'X', reason: '" + long + "x",
                      long + " <private>x", "CartViewController " + long + "<private>", long + "<private>" + long]
            if !tagCharacters.contains(run) {
                lines += [long + "`viewDidLoad`", long + " viewDidLoad()", long + ".viewDidLoad():3", "<private> " + long + "viewDidLoad()"]
            }
        }
        let clock = ContinuousClock()
        for text in lines {
            let bytes = Array(text.utf8)
            let start = clock.now
            do {
                _ = try bytes.withUnsafeBytes { try parser.read($0, message: 0..<$0.count) }
            } catch {
                Issue.record("\(error): \(text.prefix(40))… (\(bytes.count) bytes)")
            }
            #expect(clock.now - start < .seconds(2), "\(text.prefix(40))…")
        }
    }

    /// Every pattern of the new tables compiles (they are compiled with `try!` when first needed).
    @Test func theTablesCompile() throws {
        for shape in CrashShape.all { _ = try PCRE2Pattern(shape.pattern, options: [.anchored]) }
        for shape in RedactionShape.all { _ = try PCRE2Pattern(shape.pattern) }
        for shape in IdentityShape.all {
            _ = try PCRE2Pattern(shape.pattern)
            if let followedBy = shape.followedBy { _ = try PCRE2Pattern(followedBy) }
        }
        #expect(CrashShape.all.count <= 32)
    }
}
