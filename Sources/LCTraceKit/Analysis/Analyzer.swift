import Histogram
import PCRE2

/// How the line format of each input is chosen.
public enum LineFormatChoice: Sendable {
    /// Detected per input from its first lines.
    case automatic
    /// Forced (`--line-format NAME` or `--pattern REGEX`).
    case fixed(LineFormat)
}

public struct AnalysisOptions: Sendable {
    public var lineFormat: LineFormatChoice = .automatic
    /// Keep every event on the timelines (off for `--no-events`: counts, transitions and findings only).
    public var keepEvents = true
    public var maxLineBytes = LineReader.defaultMaxLineBytes
    public var limits = PCRE2Limits()
    /// Severities, thresholds (from flags and the config file).
    public var rules = RuleSettings()
    /// The configuration file these options came from, named in the report.
    public var configPath: String?
    /// Keep reading each input at its end, as `tail -f` does, until SIGINT or SIGTERM.
    public var follow = false
    /// With more than one job, a single file of at least two sections is cut into sections of about this size
    /// (at app launches) that are analysed in parallel.
    public var sectionBytes = 512 << 10
    /// Use the hand-written matchers where they exist (off only to compare them with the plain PCRE2 path).
    var handParsers = true

    public init() {}
}

/// Drives the whole pipeline for a run: reads each input, recognises its lines, splits them into sessions,
/// analyses each session and hands everything to a `ReportSink`. Memory stays bounded by the largest session.
public final class Analyzer: SessionFeed {
    public let options: AnalysisOptions
    private let sink: any ReportSink
    /// The sink, when it renders events from live events (no copy of each event's time into a record).
    private let liveEventSink: (any LiveEventSink)?
    fileprivate let messageParser: MessageParser
    /// Reads the headers of the inputs read on this analyzer's thread, one after another.
    private let headerRecognizer: LineHeaderRecognizer
    private var summary = RunSummary()
    /// Called with the bytes just read, counted once across all inputs. With `--jobs` above one, it is called from
    /// the threads analysing the inputs, possibly at the same time.
    public var progress: (@Sendable (_ bytesRead: Int) -> Void)?
    private var loadToAppear = DurationAggregator()
    private var transitionDurations = DurationAggregator()
    /// Called with how each line was read (`lctrace lines`); inputs are then read one after another, in one piece.
    public var lineObserver: ((LineReading) -> Void)?

    /// Throws when a forced pattern does not compile.
    public convenience init(options: AnalysisOptions, sink: any ReportSink) throws(PCRE2CompileError) {
        let recognizer = try LineHeaderRecognizer(options.lineFormat, limits: options.limits, fastPath: options.handParsers)
        self.init(options: options, sink: sink, messageParser: MessageParser(limits: options.limits, fastPath: options.handParsers),
                  headerRecognizer: recognizer)
    }

    /// An analyzer using parsers made already (they are not shared between threads).
    init(options: AnalysisOptions, sink: any ReportSink, messageParser: MessageParser, headerRecognizer: LineHeaderRecognizer) {
        self.options = options
        self.sink = sink
        self.liveEventSink = sink as? any LiveEventSink
        self.messageParser = messageParser
        self.headerRecognizer = headerRecognizer
        self.summary.config = options.configPath
    }

    /// Analyses one input to its end.
    public func analyze(_ source: InputSource) throws {
        let fd = try source.openDescriptor()
        defer { if fd != 0 { _ = closeDescriptor(fd) } }
        try analyze(fileDescriptor: fd, name: source.name)
    }

    /// Analyses an already open descriptor (a file, a pipe, standard input).
    public func analyze(fileDescriptor fd: Int32, name: String) throws {
        sink.beginInput(name)
        let input = try analyzeSection(fileDescriptor: fd, name: name, section: InputSection(), knowledge: InputKnowledge())
        endInput(input)
    }

    /// Analyses the lines of `section` (the whole input by default) without opening or closing the input in the sink.
    func analyzeSection(fileDescriptor fd: Int32, name: String, section: InputSection,
                        knowledge: InputKnowledge) throws -> InputSummary {
        headerRecognizer.reset()
        let run = InputRun(analyzer: self, name: name, recognizer: headerRecognizer, firstLine: section.firstLine, knowledge: knowledge)
        let reader = LineReader(fileDescriptor: fd, maxLineBytes: options.maxLineBytes, follow: options.follow, range: section.bytes)
        if let progress {
            var reported = 0
            reader.onRead = { total in
                progress(total - reported)
                reported = total
            }
        }
        try reader.forEachLine { line, truncated in run.take(line, truncated: truncated) }
        run.finish()
        run.summary.bytes = reader.bytesRead
        return run.summary
    }

    func endInput(_ input: InputSummary) {
        if input.events == 0, let severity = options.rules.severity(of: .noLifecycleEvents) {
            let read = LineDisposition.allCases.map { "\(input.lines($0)) \($0.rawValue)" }.joined(separator: ", ")
            finding(Finding(rule: .noLifecycleEvents, severity: severity, input: input.name, line: 1, session: 0, controller: nil,
                            message: "no lifecycle event was read from \(input.name) (\(input.lines) lines: \(read), \(input.skippedLines) blank or skipped); `lctrace lines \(input.name)` shows how each line was read",
                            expected: "view controller, app or scene callbacks", actual: "none"))
        }
        summary.inputs.append(input)
        sink.endInput(input)
    }

    func beginInput(_ name: String) { sink.beginInput(name) }

    /// Ends the run and returns its totals.
    @discardableResult
    public func finish() -> RunSummary {
        summary.loadToAppearByClass = loadToAppear.stats()
        summary.transitionDurations = transitionDurations.stats()
        sink.finish(summary)
        return summary
    }

    // MARK: Shared by the inputs

    /// Opens the next session; the previous one is always closed first, so its number follows the closed count.
    fileprivate func newSession(input: String, line: Int, process: String?, pid: Int?, launchLogged: Bool,
                                knowledge: InputKnowledge, expected: SessionAnalyzer.Size) -> SessionAnalyzer {
        SessionAnalyzer(index: summary.sessions + 1, input: input, firstLine: line, process: process, pid: pid,
                        launchLogged: launchLogged, keepEvents: options.keepEvents, rules: options.rules,
                        knowledge: knowledge, names: messageParser, feed: self, expected: expected)
    }

    // MARK: Parallel inputs

    /// Off for a worker whose recording is replayed: the recording puts the durations aside for the replaying analyzer.
    var aggregatesDurations = true

    /// Feeds what a worker recorded to this run's sink, numbering its sessions after the ones already closed, as a
    /// sequential run would have.
    func replay(_ recording: Recording) {
        let offset = summary.sessions
        func renumber(_ finding: Finding) -> Finding {
            var finding = finding
            if finding.session > 0 { finding.session += offset }
            return finding
        }
        for item in recording.items {
            switch item {
            case .begin(let name):
                sink.beginInput(name)
            case .finding(let finding):
                self.finding(renumber(finding))
            case .event(let event, let subject, let session, let input):
                sink.event(event, subject: subject, session: session + offset, input: input)
            case .transition(let transition, let session, let input):
                sink.transition(transition, session: session + offset, input: input)
            case .rendered(let item, let session):
                sink.write(item, session: session + offset)
            case .session(var report):
                report.index += offset
                report.findings = report.findings.map(renumber)
                count(report.controllers.count, report.transitions.count)
                sink.sessionClosed(report)
            case .renderedSession(let item, let index, let controllers, let transitions):
                count(controllers, transitions)
                sink.writeSession(item, index: index + offset)
            case .end(let input):
                summary.inputs.append(input)
                sink.endInput(input)
            }
        }
        loadToAppear.record(recording.durations.loadToAppear)
        transitionDurations.record(recording.durations.transitions)
        recording.recycle()
    }

    // MARK: SessionFeed

    var wantsLiveItems: Bool { sink.wantsLiveItems }
    /// For the workers of a parallel run: made once per run, so that their texts are shared through its pool.
    private(set) lazy var renderingAhead = RenderingAhead(
        wantsLiveItems: sink.wantsLiveItems, lines: sink.liveItemLines, sessions: sink.sessionRendering)

    func finding(_ finding: Finding) {
        summary.findings[finding.severity, default: 0] += 1
        sink.finding(finding)
    }

    func event(_ event: LiveEvent, subject: String, session: Int, input: String) {
        guard let liveEventSink else { sink.event(event.record, subject: subject, session: session, input: input); return }
        liveEventSink.event(event, subject: subject, session: session, input: input)
    }

    func transition(_ transition: TransitionReport, session: Int, input: String) {
        sink.transition(transition, session: session, input: input)
    }

    fileprivate func closeSession(_ session: SessionAnalyzer) {
        sessionClosed(session.close())
    }

    /// A session's final report: counted, its durations aggregated, and handed to the sink.
    private func sessionClosed(_ report: SessionReport) {
        count(report.controllers.count, report.transitions.count)
        if aggregatesDurations {
            report.forEachDuration(
                loadToAppear: { ms, className in loadToAppear.record(ms, for: className) },
                transition: { ms, kind in transitionDurations.record(ms, for: kind) })
        }
        sink.sessionClosed(report)
    }

    private func count(_ controllers: Int, _ transitions: Int) {
        summary.sessions += 1
        summary.controllers += controllers
        summary.transitions += transitions
    }
}

extension SessionReport {
    /// The durations the run's percentiles are made of: each controller's viewDidLoad → first viewDidAppear by its
    /// class, and each transition's by its kind.
    func forEachDuration(loadToAppear: (Double, String) -> Void, transition: (Double, String) -> Void) {
        for controller in controllers {
            if let ms = controller.loadToFirstAppearMs { loadToAppear(ms, controller.className) }
        }
        for report in transitions {
            if let ms = report.durationMs { transition(ms, report.kind.rawValue) }
        }
    }
}

/// Durations of closed sessions put aside on a worker's thread for the replaying analyzer, grouped by name: replaying
/// them costs one lookup per name, not one per controller, and the reports stay on the worker.
struct DurationSamples {
    private(set) var loadToAppear: [String: [UInt64]] = [:]
    private(set) var transitions: [String: [UInt64]] = [:]

    mutating func record(_ report: SessionReport) {
        report.forEachDuration(
            loadToAppear: { ms, className in loadToAppear[className, default: []].append(DurationAggregator.micros(ms)) },
            transition: { ms, kind in transitions[kind, default: []].append(DurationAggregator.micros(ms)) })
    }
}

/// Percentiles of durations per name (controller class, transition kind) over the whole run, in bounded memory.
struct DurationAggregator {
    private struct Series {
        var histogram = Histogram<UInt32>(highestTrackableValue: DurationAggregator.ceilingMicros, numberOfSignificantValueDigits: .three)
        var maxMicros: UInt64 = 0

        mutating func record(_ micros: UInt64) {
            histogram.record(micros)
            maxMicros = max(maxMicros, micros)
        }

        mutating func record(contentsOf samples: [UInt64]) {
            for micros in samples { record(micros) }
        }
    }

    /// One hour: longer durations are counted as one hour.
    static let ceilingMicros: UInt64 = 3_600_000_000
    private var series: [String: Series] = [:]

    /// A duration in whole microseconds, at most the ceiling.
    static func micros(_ ms: Double) -> UInt64 {
        UInt64(max(0, min(ms * 1000, Double(DurationAggregator.ceilingMicros))).rounded())
    }

    mutating func record(_ ms: Double, for name: String) {
        series[name, default: Series()].record(DurationAggregator.micros(ms))
    }

    /// Samples put aside elsewhere, in microseconds by name.
    mutating func record(_ samples: [String: [UInt64]]) {
        for (name, micros) in samples {
            series[name, default: Series()].record(contentsOf: micros)
        }
    }

    func stats() -> [DurationStats] {
        series.keys.sorted().map { name in
            let entry = series[name]!
            func ms(_ micros: UInt64) -> Double { (Double(min(micros, entry.maxMicros)) / 100).rounded() / 10 }
            return DurationStats(name: name, count: Int(entry.histogram.totalCount),
                                 p50Ms: ms(entry.histogram.valueAtPercentile(50)), p90Ms: ms(entry.histogram.valueAtPercentile(90)),
                                 maxMs: ms(entry.maxMicros))
        }
    }
}

/// The state of one input being read: its line count, its open session.
private final class InputRun {
    unowned let analyzer: Analyzer
    /// The analyzer's, held here so that each line does not go through the unowned reference to reach it.
    let messageParser: MessageParser
    let recognizer: LineHeaderRecognizer
    let name: String
    var summary: InputSummary
    var lineNumber: Int
    var session: SessionAnalyzer? {
        didSet { sessionReference = session.map { Unmanaged.passUnretained($0) } }
    }
    /// `session` as the per-line path reads it: without retaining and releasing it on every line. (It is owned by the
    /// property above, which is never changed while a line is being handled.)
    private var sessionReference: Unmanaged<SessionAnalyzer>?
    let knowledge: InputKnowledge
    var timestamps = TimestampReader()
    /// The process and thread ids of the last event, and the bytes they were read from.
    private var ids = IDReader()
    /// Whether init and dealloc belong to a view controller.
    private var classFilter = ControllerClassFilter()
    /// The analyzer's line observer, and what it is told of the line being read.
    private let observer: ((LineReading) -> Void)?
    private var observed = LineReading(input: "", line: 0, text: "", disposition: "")
    /// The format named in the summary when the choice is forced; nil for automatic (the first format recognised).
    private let forcedFormat: String?

    init(analyzer: Analyzer, name: String, recognizer: LineHeaderRecognizer, firstLine: Int, knowledge: InputKnowledge) {
        self.analyzer = analyzer
        self.messageParser = analyzer.messageParser
        self.recognizer = recognizer
        self.name = name
        self.lineNumber = firstLine - 1
        self.knowledge = knowledge
        self.observer = analyzer.lineObserver
        if case .fixed(let format) = analyzer.options.lineFormat { forcedFormat = format.name } else { forcedFormat = nil }
        self.summary = InputSummary(name: name, format: forcedFormat ?? LineFormat.bare.name)
    }

    func take(_ line: UnsafeRawBufferPointer, truncated: Bool) {
        lineNumber += 1
        process(line, truncated: truncated)
    }

    func finish() {
        if forcedFormat == nil, let first = recognizer.firstFormat { summary.format = first.name }
        if let session { analyzer.closeSession(session) }
        session = nil
    }

    private func process(_ line: UnsafeRawBufferPointer, truncated: Bool) {
        guard let observer else { return read(line, truncated: truncated) }
        let before = summary
        observed = LineReading(input: name, line: lineNumber, text: String(decoding: line, as: UTF8.self), disposition: "")
        read(line, truncated: truncated)
        observed.disposition = LineReading.disposition(before: before, after: summary)
        observer(observed)
    }

    private func read(_ line: UnsafeRawBufferPointer, truncated: Bool) {
        summary.lines += 1
        if truncated { summary.truncatedLines += 1 }
        if MessageParser.isBlank(line) {
            summary.skipped[.blank, default: 0] += 1
            return
        }
        do {
            guard try parseRecord(line, from: 0) else {
                summary.skipped[.unrecognized, default: 0] += 1
                return
            }
            summary.parsedLines += 1
        } catch {
            summary.skipped[.regexLimit, default: 0] += 1
        }
    }

    /// Parses the record starting at `start`; returns false when it is not in the input's format.
    private func parseRecord(_ line: UnsafeRawBufferPointer, from start: Int) throws -> Bool {
        guard let header = try recognizer.parse(line, from: start) else { return false }
        let message: KeyedMessage
        let reading = try messageParser.parseKeyed(line, message: header.message)
        if observer != nil, start == 0 { observe(header, reading, line) }
        switch reading {
        case .message(let read): message = read
        case .other:
            if start == 0 { summary.otherLines += 1 }
            return true
        case .unread(let reason):
            if start == 0 { noteUnread(line, reason: reason) }
            return true
        }
        // A second record glued to this one (a lost newline): cut this message where the recognised text ends.
        let rest = MessageParser.trimmed(line, message.end..<header.message.upperBound)
        let glued = !rest.isEmpty && recognizer.headerStarts(in: line, at: rest.lowerBound)
        let callback = message.callback
        let isEvent = handle(consume message, header: header, line: line)
        if start == 0 {
            if !isEvent {
                summary.otherLines += 1
            } else if callback.family == .marker || callback.noticeRule != nil {
                summary.noticeLines += 1
            } else {
                summary.lifecycleLines += 1
            }
        }
        if glued, try parseRecord(line, from: rest.lowerBound) {
            summary.gluedRecords += 1
        }
        return true
    }

    /// Notes what the line observer is told of the line's header and message.
    private func observe(_ header: LineHeader, _ reading: MessageReading, _ line: UnsafeRawBufferPointer) {
        func text(_ range: Range<Int>?) -> String? { range.map { String(decoding: line[$0], as: UTF8.self) } }
        observed.format = header.time == nil && header.pid == nil && header.process == nil ? nil : recognizer.lastFormat.name
        observed.message = text(header.message)
        observed.time = text(header.time)
        observed.process = text(header.process)
        observed.pid = text(header.pid)
        observed.tid = text(header.tid)
        switch reading {
        case .message(let message):
            observed.className = messageParser.className(of: message)
            observed.address = messageParser.address(of: message)
            observed.callback = message.callback
            observed.spelled = messageParser.spelling(of: message)
        case .other(let reason): observed.reason = reason.rawValue
        case .unread(let reason): observed.reason = reason.rawValue
        }
    }

    private func noteUnread(_ line: UnsafeRawBufferPointer, reason: UnreadReason) {
        summary.unreadLines += 1
        guard summary.unread.count < InputSummary.unreadLinesKept else { return }
        var text = String(decoding: line, as: UTF8.self)
        if text.count > 200 { text = String(text.prefix(200)) + "…" }
        summary.unread.append(UnreadLine(input: name, line: lineNumber, text: text, reason: reason))
    }

    /// Takes the message (consuming it: it moves into the event rather than being copied). Returns false when it is
    /// not an event after all: init or dealloc of a class that is not a view controller (`ControllerClassFilter`).
    private func handle(_ message: consuming KeyedMessage, header: LineHeader, line: UnsafeRawBufferPointer) -> Bool {
        let (pid, thread) = ids.read(line, pid: header.pid, tid: header.tid)
        let callback = message.callback
        let startsNew = sessionReference?._withUnsafeGuaranteedRef({ InputRun.startsNewSession($0, with: callback, pid: pid) }) ?? true
        if callback.family == .controller, callback.isSharedWithOtherClasses,
           !classFilter.acceptsShared(message, names: messageParser, newLaunch: startsNew) {
            if observer != nil { observed.reason = OtherReason.notAController.rawValue }
            return false
        }
        summary.events += 1
        let micros = header.time.flatMap { timestamps.microseconds(UnsafeRawBufferPointer(rebasing: line[$0])) }
        if startsNew {
            // The process's start is in the log when main() opens the session, or a launch follows another.
            let launchLogged = callback == .main || session != nil
            let expected = session?.size ?? SessionAnalyzer.Size()
            if let session { analyzer.closeSession(session) }
            let process = header.process.map { String(decoding: line[$0], as: UTF8.self) }
            session = analyzer.newSession(input: name, line: lineNumber, process: process, pid: pid,
                                          launchLogged: launchLogged, knowledge: knowledge, expected: expected)
            classFilter.startLaunch()
        }
        if callback.family == .controller, !callback.isSharedWithOtherClasses {
            classFilter.noteControllerCallback(message, names: messageParser)
        }
        let event = LifecycleEvent(line: lineNumber, micros: micros,
                                   time: header.time.map { UnsafeRawBufferPointer(rebasing: line[$0]) } ?? UnsafeRawBufferPointer(start: nil, count: 0),
                                   thread: thread, message: message)
        sessionReference!._withUnsafeGuaranteedRef { $0.handle(event) }
        return true
    }

    /// `main()` or a change of process id starts a new app launch; so does a willFinishLaunching or
    /// didFinishLaunching after didFinishLaunching when the format has no process id to tell launches apart.
    private static func startsNewSession(_ session: SessionAnalyzer, with callback: Callback, pid: Int?) -> Bool {
        if callback == .main { return session.eventCount > 0 }
        if let pid, let current = session.pid { return pid != current }
        if pid == nil, callback == .didFinishLaunching || callback == .willFinishLaunching {
            return session.sawFinishLaunching
        }
        return false
    }
}

/// Reads a line's process and thread ids, remembering the last bytes read: consecutive lines nearly always come from
/// one process and thread, so their ids are compared with the last line's instead of read again.
struct IDReader {
    /// The bytes from the pid's start to the tid's end, and where in them the pid ends and the tid starts.
    private var lastBytes = RememberedBytes()
    private var lastFields = (pidEnd: 0, tidStart: 0)
    private var lastPid: Int?
    private var lastThread: ThreadID?

    mutating func read(_ line: UnsafeRawBufferPointer, pid: Range<Int>?, tid: Range<Int>?) -> (pid: Int?, thread: ThreadID?) {
        guard let pid, let tid, pid.lowerBound <= tid.lowerBound, let base = line.baseAddress else {
            lastBytes.forget()
            return (pid.flatMap { Int(decoding: line[$0]) }, tid.flatMap { ThreadID(UnsafeRawBufferPointer(rebasing: line[$0])) })
        }
        let start = base + pid.lowerBound
        let count = tid.upperBound - pid.lowerBound
        let fields = (pidEnd: pid.upperBound - pid.lowerBound, tidStart: tid.lowerBound - pid.lowerBound)
        if lastFields == fields, lastBytes.equals(start, count: count) { return (lastPid, lastThread) }
        lastBytes.remember(start, count: count)
        lastFields = fields
        lastPid = Int(decoding: line[pid])
        lastThread = ThreadID(UnsafeRawBufferPointer(rebasing: line[tid]))
        return (lastPid, lastThread)
    }
}

extension Int {
    /// Parses ASCII decimal digits.
    init?(decoding bytes: UnsafeRawBufferPointer.SubSequence) {
        guard !bytes.isEmpty, bytes.count <= 18 else { return nil }
        var value = 0
        for byte in bytes {
            guard byte >= 0x30, byte <= 0x39 else { return nil }
            value = value * 10 + Int(byte - 0x30)
        }
        self = value
    }
}

#if canImport(Glibc)
import Glibc
private func closeDescriptor(_ fd: Int32) -> Int32 { Glibc.close(fd) }
#endif
