import Foundation
import Testing
@testable import LCTraceKit
import PCRE2

/// Memory within one session (`log stream | lctrace` is one session without end): a session keeps what
/// `SessionLimits` allows, counts what it leaves out, and the reports say so. Peak memory itself is measured by
/// scripts/benchmark.sh; here the bounds are structural (slots held, lists kept), with small limits.
@Suite struct SessionMemoryTests {
    /// One life: loaded, shown, hidden, deallocated.
    static let life = ["viewDidLoad()", "viewWillAppear(_:)", "viewDidAppear(_:)", "viewWillDisappear(_:)", "viewDidDisappear(_:)", "deinit"]

    /// `count` instances of `className` living one after another, each logged with its address (from `first` on,
    /// 0x10 apart), or by class name alone when `first` is nil.
    static func lives(_ className: String, count: Int, from first: UInt64? = nil) -> [String] {
        (0..<count).flatMap { number in
            let subject = first.map { "<M.\(className): 0x\(String($0 + UInt64(number) * 0x10, radix: 16))>" } ?? className
            return life.map { "\(subject) \($0)" }
        }
    }

    /// One controller loaded once, then shown and hidden `times` times.
    static func appearances(of className: String, times: Int) -> [String] {
        ["\(className) viewDidLoad()"] + (0..<times).flatMap { _ in
            ["viewWillAppear(_:)", "viewDidAppear(_:)", "viewWillDisappear(_:)", "viewDidDisappear(_:)"].map { "\(className) \($0)" }
        }
    }

    static func options(_ change: (inout SessionLimits) -> Void) -> AnalysisOptions {
        var options = AnalysisOptions()
        options.keepEvents = false
        change(&options.sessionLimits)
        return options
    }

    static func log(_ lines: [String]) -> String { lines.joined(separator: "\n") + "\n" }

    /// The text and JSON reports of `text`.
    static func reports(_ text: String, options: AnalysisOptions) throws -> (text: String, json: String) {
        let path = try Fixtures.temporaryFile(text)
        var rendered: [String] = []
        for json in [false, true] {
            let output = Output()
            let sink: any Reporter = json ? JSONReporter(output: output, includeEvents: false)
                : TextReporter(output: output, style: TextStyle(enabled: false), includeEvents: false)
            let analyzer = try Analyzer(options: options, reporter: sink)
            try analyzer.analyze(.file(path))
            analyzer.finish()
            rendered.append(output.text)
        }
        return (rendered[0], rendered[1])
    }

    // MARK: Controllers past the cap

    @Test func deadInstancesPastTheCapAreSummedUpByClass() throws {
        // 25 C, then 15 D, all deallocated; then a C that is still alive when the log ends.
        let lines = SessionMemoryTests.lives("C", count: 25, from: 0x6000_0000_0000)
            + SessionMemoryTests.lives("D", count: 15, from: 0x6000_1000_0000)
            + ["<M.C: 0x600000009990> viewDidLoad()"]
        let options = SessionMemoryTests.options { $0.listedControllers = 10; $0.rememberedDeadInstances = 4 }
        let result = try analyze(text: SessionMemoryTests.log(lines), options: options)
        let session = try #require(result.sessions.first)
        // The first ten, and the one alive at the end.
        #expect(session.controllers.count == 11)
        #expect(session.controllers.first?.id == "C@0x600000000000")
        #expect(session.controllers[9].id == "C@0x600000000090")
        #expect(session.controllers.last?.id == "C@0x600000009990")
        #expect(session.controllers.last?.finalPhase == .hidden)
        #expect(session.controllers.dropLast().allSatisfy { $0.finalPhase == .dead && $0.eventCount == 6 })
        #expect(session.unlistedControllers == [
            UnlistedControllers(className: "C", instances: 15, eventCount: 90, firstLine: 61, lastLine: 150),
            UnlistedControllers(className: "D", instances: 15, eventCount: 90, firstLine: 151, lastLine: 240),
        ])
        #expect(session.controllerCount == 41)
        #expect(result.summary?.controllers == 41)
        #expect(result.problems.isEmpty, "\(result.problems.map(\.message))")

        let reports = try SessionMemoryTests.reports(SessionMemoryTests.log(lines), options: options)
        #expect(reports.text.contains("  C: 15 more instances, all deallocated, not listed  90 events, lines 61–150\n"))
        #expect(reports.text.contains("  D: 15 more instances, all deallocated, not listed  90 events, lines 151–240\n"))
        #expect(reports.text.contains(", 41 controllers, "))
        let json = try #require(try JSONSerialization.jsonObject(with: Data(reports.json.utf8)) as? [String: Any])
        let sessionJSON = try #require((json["sessions"] as? [[String: Any]])?.first)
        let unlistedJSON = try #require(sessionJSON["unlistedControllers"] as? [[String: Any]])
        #expect(unlistedJSON.map { $0["class"] as? String } == ["C", "D"])
        #expect(unlistedJSON.map { $0["instances"] as? Int } == [15, 15])
        #expect(unlistedJSON.map { $0["eventCount"] as? Int } == [90, 90])
        #expect(unlistedJSON.map { $0["firstLine"] as? Int } == [61, 151])
        #expect(unlistedJSON.map { $0["lastLine"] as? Int } == [150, 240])
        #expect(unlistedJSON.map { $0["finalState"] as? String } == ["dead", "dead"])
        #expect((sessionJSON["controllers"] as? [Any])?.count == 11)
        #expect(reports.json.contains("\"controllers\": 41,"))
    }

    @Test func instancesByClassNameKeepTheirNumbersPastTheCap() throws {
        let lines = SessionMemoryTests.lives("C", count: 30) + ["C viewDidLoad()"]
        let options = SessionMemoryTests.options { $0.listedControllers = 10; $0.rememberedDeadInstances = 4 }
        let session = try #require(try analyze(text: SessionMemoryTests.log(lines), options: options).sessions.first)
        #expect(session.controllers.map(\.id) == ["C"] + (2...10).map { "C#\($0)" } + ["C#31"])
        #expect(session.unlistedControllers == [UnlistedControllers(className: "C", instances: 20, eventCount: 120, firstLine: 61, lastLine: 180)])
    }

    @Test func withinTheLimitsNothingIsLeftOut() throws {
        let lines = SessionMemoryTests.lives("C", count: 30, from: 0x6000_0000_0000)
        let options = SessionMemoryTests.options { $0.rememberedDeadInstances = 4 }
        let session = try #require(try analyze(text: SessionMemoryTests.log(lines), options: options).sessions.first)
        #expect(session.controllers.count == 30)
        #expect(session.controllers.map(\.firstLine) == Array(stride(from: 1, through: 175, by: 6)))
        #expect(session.unlistedControllers.isEmpty)
        #expect(session.transitionsNotListed == 0 && session.findingsNotListed == 0)
        let reports = try SessionMemoryTests.reports(SessionMemoryTests.log(lines), options: options)
        #expect(!reports.json.contains("NotListed") && !reports.json.contains("unlisted"))
        #expect(!reports.text.contains("not listed"))
    }

    // MARK: Lists past their caps

    @Test func appearancesPastTheCapAreCounted() throws {
        let lines = SessionMemoryTests.appearances(of: "V", times: 7)
        let options = SessionMemoryTests.options { $0.appearancesPerController = 3 }
        let session = try #require(try analyze(text: SessionMemoryTests.log(lines), options: options).sessions.first)
        let controller = try #require(session.controllers.first)
        #expect(controller.appearances == [
            AppearanceSpan(appearedLine: 3, disappearedLine: 5), AppearanceSpan(appearedLine: 7, disappearedLine: 9),
            AppearanceSpan(appearedLine: 11, disappearedLine: 13),
        ])
        #expect(controller.appearancesNotListed == 4)
        #expect(controller.eventCount == 29)
        let reports = try SessionMemoryTests.reports(SessionMemoryTests.log(lines), options: options)
        #expect(reports.text.contains("  V  29 events, ends hidden, 4 more appearances not listed\n"))
        #expect(reports.json.contains("\"appearancesNotListed\": 4"))
    }

    @Test func transitionsPastTheCapAreCounted() throws {
        // Seven appearances: fourteen transitions, an appear and a disappear each.
        let lines = SessionMemoryTests.appearances(of: "V", times: 7)
        let options = SessionMemoryTests.options { $0.listedTransitions = 5 }
        let result = try analyze(text: SessionMemoryTests.log(lines), options: options)
        let session = try #require(result.sessions.first)
        #expect(session.transitions.map(\.kind) == [.appear, .disappear, .appear, .disappear, .appear])
        #expect(session.transitionsNotListed == 9)
        #expect(session.transitionCount == 14)
        #expect(result.summary?.transitions == 14)
        let reports = try SessionMemoryTests.reports(SessionMemoryTests.log(lines), options: options)
        #expect(reports.text.contains("    9 more transitions, not listed\n"))
        #expect(reports.json.contains("\"transitionsNotListed\": 9,"))
        #expect(reports.json.contains("\"transitions\": 14,"))
    }

    @Test func streamedTransitionsAreNotKept() throws {
        let lines = SessionMemoryTests.appearances(of: "V", times: 7)
        let options = SessionMemoryTests.options { $0.listedTransitions = 5 }
        let output = Output()
        let analyzer = try Analyzer(options: options, reporter: NDJSONReporter(output: output, includeEvents: false, flushEachLine: false))
        try analyzer.analyze(.file(try Fixtures.temporaryFile(SessionMemoryTests.log(lines))))
        let summary = analyzer.finish()
        let items = output.text.split(separator: "\n")
        #expect(items.filter { $0.hasPrefix(#"{"type":"transition""#) }.count == 14)
        #expect(summary.transitions == 14)
        // The session line names no transition, and says nothing of a list it does not have.
        let sessionLine = try #require(items.first { $0.hasPrefix(#"{"type":"session""#) })
        #expect(!sessionLine.contains("transitions"))
    }

    @Test func findingsPastTheCapAreCountedAndAllStreamed() throws {
        // Five viewDidAppear in a row on a visible controller: five `did-appear-twice`.
        let lines = ["V viewDidLoad()", "V viewWillAppear(_:)"] + Array(repeating: "V viewDidAppear(_:)", count: 6)
        let options = SessionMemoryTests.options { $0.listedFindings = 2 }
        let result = try analyze(text: SessionMemoryTests.log(lines), options: options)
        let session = try #require(result.sessions.first)
        #expect(session.findings.map(\.line) == [4, 5])
        #expect(session.findingsNotListed == 3)
        #expect(session.findingCount == 5)
        #expect(result.findings.filter { $0.rule == .didAppearTwice }.map(\.line) == [4, 5, 6, 7, 8])
        #expect(result.summary?.findings(.warning) == 5)
        let reports = try SessionMemoryTests.reports(SessionMemoryTests.log(lines), options: options)
        #expect(reports.text.contains("    3 more findings, not listed (the summary counts them)\n"))
        #expect(reports.json.components(separatedBy: "\"rule\": \"did-appear-twice\"").count - 1 == 5)
        #expect(reports.json.contains("\"findings\": 5\n"))
    }

    // MARK: What a session holds

    /// A session fed one line at a time, watched as it goes.
    final class WatchedSession: EventReceiver, AnalysisOutput {
        var session: SessionAnalyzer!
        var most = SessionAnalyzer.Footprint(instances: 0, instanceSlots: 0, transitions: 0, findings: 0)
        var findings = 0

        func take(_ event: consuming Event) -> Bool {
            session.handle(event)
            let now = session.footprint
            most = .init(instances: max(most.instances, now.instances), instanceSlots: max(most.instanceSlots, now.instanceSlots),
                         transitions: max(most.transitions, now.transitions), findings: max(most.findings, now.findings))
            return true
        }

        var wantsLiveItems: Bool { false }
        func finding(_ finding: Finding) { findings += 1 }
        func event(_ event: LiveEvent, subject: String, session: Int, input: String) {}
        func transition(_ transition: TransitionReport, session: Int, input: String) {}
        func duration(_ ms: Double, of kind: DurationKind, name: String) {}
        func sessionClosed(_ report: SessionReport) {}

        /// Reads `text` into one session with `limits`, and closes it.
        static func read(_ text: String, limits: SessionLimits) throws -> (watched: WatchedSession, report: SessionReport) {
            let watched = WatchedSession()
            let names = NameTable()
            watched.session = SessionAnalyzer(index: 1, input: "memory.log", firstLine: 1, process: nil, pid: nil, launchLogged: false,
                                              keepEvents: false, policy: FindingPolicy(rules: RuleSettings()), limits: limits, knowledge: InputKnowledge(),
                                              names: names, output: watched)
            let reader = EventReader(name: "memory.log", recognizer: try LineHeaderRecognizer(.automatic),
                                     messageParser: MessageParser(limits: PCRE2Limits(), matchers: .fastPath, names: names),
                                     forcedFormat: nil, firstLine: 1, observer: nil, receiver: watched)
            let fd = try InputSource.file(try Fixtures.temporaryFile(text)).openDescriptor()
            defer { close(fd) }
            try reader.read(.descriptor(fd, range: nil), maxLineBytes: LineReader.defaultMaxLineBytes, progress: nil)
            return (watched, watched.session.close())
        }
    }

    static let smallLimits: SessionLimits = {
        var limits = SessionLimits()
        limits.listedControllers = 10
        limits.listedTransitions = 20
        limits.listedFindings = 20
        limits.appearancesPerController = 5
        limits.rememberedDeadInstances = 16
        return limits
    }()

    @Test func instancesHeldFollowTheLiveOnesNotTheDead() throws {
        // 3,000 instances lived, one after another: at most one alive at a time.
        let limits = SessionMemoryTests.smallLimits
        for first in [UInt64(0x6000_0000_0000), nil] {
            let (watched, report) = try WatchedSession.read(SessionMemoryTests.log(SessionMemoryTests.lives("C", count: 3_000, from: first)),
                                                            limits: limits)
            // The remembered dead, the deaths between two looks at them (at least 64, or as many as are held), and
            // the live one.
            #expect(watched.most.instances <= 2 * (limits.rememberedDeadInstances + 64) + 1, "\(watched.most)")
            #expect(watched.most.instanceSlots <= 2 * (limits.rememberedDeadInstances + 64) + 1, "\(watched.most)")
            #expect(watched.most.transitions <= limits.listedTransitions)
            // The first ten, in order, though they were released (and their slots reused) long before the end.
            #expect(report.controllers.map(\.firstLine) == Array(stride(from: 1, through: 55, by: 6)))
            #expect(report.controllers.allSatisfy { $0.finalPhase == .dead && $0.eventCount == 6 })
            #expect(report.unlistedControllers.map(\.instances) == [2_990])
            #expect(report.unlistedControllers.map(\.firstLine) == [61])
            #expect(report.unlistedControllers.map(\.lastLine) == [18_000])
            #expect(report.unlistedControllers.map(\.eventCount) == [6 * 2_990])
            #expect(report.transitionCount == 6_000)
            #expect(watched.findings == 0)
        }
    }

    @Test func oneControllerShownForeverHoldsOneSlot() throws {
        let limits = SessionMemoryTests.smallLimits
        let (watched, report) = try WatchedSession.read(SessionMemoryTests.log(SessionMemoryTests.appearances(of: "V", times: 2_000)),
                                                        limits: limits)
        #expect(watched.most.instanceSlots == 1)
        #expect(watched.most.transitions == limits.listedTransitions)
        let controller = try #require(report.controllers.first)
        #expect(controller.appearances.count == limits.appearancesPerController)
        #expect(controller.appearancesNotListed == 2_000 - limits.appearancesPerController)
        #expect(report.transitionsNotListed == 4_000 - limits.listedTransitions)
    }

    // MARK: Dead instances remembered

    @Test func aDeadInstanceIsRememberedForTheCallbacksAfterItsDealloc() throws {
        // C@0x…0 dies; 0x…0 logs a callback after dealloc, then is reused: within memory, both are known.
        let recent = SessionMemoryTests.lives("C", count: 1, from: 0x6000_0000_0000)
            + ["<M.C: 0x600000000000> viewWillAppear(_:)"]
            + SessionMemoryTests.lives("C", count: 3, from: 0x6000_1000_0000)
            + SessionMemoryTests.lives("C", count: 1, from: 0x6000_0000_0000)
        let options = SessionMemoryTests.options { $0.rememberedDeadInstances = 4 }
        let result = try analyze(text: SessionMemoryTests.log(recent), options: options)
        #expect(result.findings.map(\.rule) == [.callbackAfterDealloc])
        #expect(result.sessions.first?.controllers.last?.id == "C@0x600000000000#2")
    }

    @Test func aDeadInstanceIsForgottenAfterTheRememberedDeaths() throws {
        // Five deaths later (four are remembered), 0x…0 is not known any more: the callback is a new instance's.
        let late = SessionMemoryTests.lives("C", count: 1, from: 0x6000_0000_0000)
            + SessionMemoryTests.lives("C", count: 5, from: 0x6000_1000_0000)
            + ["<M.C: 0x600000000000> viewWillAppear(_:)"]
        let options = SessionMemoryTests.options { $0.rememberedDeadInstances = 4 }
        let result = try analyze(text: SessionMemoryTests.log(late), options: options)
        #expect(result.findings.filter { $0.rule == .callbackAfterDealloc }.isEmpty)
        #expect(result.sessions.first?.controllers.count == 7)
    }

    // MARK: Timing

    @Test func unlistedControllersAndTransitionsStillMakeTheTiming() throws {
        // Three launches of 20 timed lives each (10 ms apart), cut into sections: each duration counts once, listed
        // or not, whichever thread measured it.
        var lines: [String] = []
        var tick = 0
        for launch in 0..<3 {
            lines.append(String(format: "2016-03-17 15:46:%02d.000 App[%d:2] main()", launch * 10, launch + 1))
            for line in SessionMemoryTests.lives("C", count: 20, from: 0x6000_0000_0000) {
                tick += 1
                lines.append(String(format: "2016-03-17 15:%02d:%02d.%03d App[%d:2] ", 46 + launch, (tick / 100) % 60, (tick % 100) * 10, launch + 1) + line)
            }
        }
        var options = SessionMemoryTests.options { $0.listedControllers = 2; $0.listedTransitions = 3 }
        options.sectionBytes = 1024
        let path = try Fixtures.temporaryFile(SessionMemoryTests.log(lines))
        var summaries: [RunSummary] = []
        for jobs in [1, 2] {
            let sink = RecordingSink()
            let analyzer = try Analyzer(options: options, reporter: sink)
            try analyzer.analyze([.file(path)], jobs: jobs)
            summaries.append(analyzer.finish())
            #expect(sink.sessions.map(\.controllers.count) == [2, 2, 2])
        }
        #expect(summaries[0].loadToAppearByClass.map(\.count) == [60])
        #expect(summaries[0].transitionDurations.map(\.count) == [60, 60])
        #expect(summaries[0].controllers == 60 && summaries[0].transitions == 120)
        #expect(summaries[0] == summaries[1])
    }
}
