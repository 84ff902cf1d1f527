import PCRE2

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
    /// Read each input as `tail -F` does, until SIGINT or SIGTERM: on at its end as it grows, from its start again
    /// when it is truncated, into the new file when it is rotated, and waiting for it while it does not exist
    /// (`FollowedFile`). The analyzer's `notice` is told of each.
    public var follow = false
    /// With more than one job, a single file of at least two sections is cut into sections of about this size
    /// (at app launches) that are analysed in parallel.
    public var sectionBytes = 512 << 10
    /// The hand-written matchers in front of PCRE2, or PCRE2 alone (only to compare the two).
    var matchers = MatcherChoice.fastPath
    /// How much of each session its report keeps (smaller in tests).
    var sessionLimits = SessionLimits()
    /// Keep the events the timeline reports draw (`SessionLimits.timelineEvents` of each session) without
    /// `keepEvents`: set by the analyzer whose reports draw timelines (`TimelineReporter.timelineSessions`), and so handed to
    /// the workers of a parallel run.
    var keepTimelineEvents = false
    /// `--process`/`--pid`: only the lines of these processes are read; nil reads every line.
    public var processFilter: ProcessFilter?
    /// `--baseline`: the findings it knows are left out of the reports, and counted as known.
    public var baseline: Baseline?
    /// Learn the run's model (`Analyzer.model`): `lctrace learn`, `--write-model`.
    public var learnsModel = false
    /// `--against`: the model the run is held against when it ends (`ModelComparison`).
    public var against: LifecycleModel?

    public init() {}
}

/// Drives the whole pipeline for a run: reads each input, recognises its lines, splits them into sessions,
/// analyses each session and hands everything to the run's reporters (`ReportDelivery`), or, on a parallel run's
/// worker, to a recording replayed later. Memory stays bounded by the largest session.
public final class Analyzer: AnalysisOutput {
    public let options: AnalysisOptions
    /// Where the reports go: the run's reporters, or a worker's recording.
    private let target: any RunOutput
    let messageParser: MessageParser
    /// Reads the headers of the inputs read on this analyzer's thread, one after another.
    private let headerRecognizer: LineHeaderRecognizer
    private var summary = RunSummary()
    /// Which findings the run's sessions and inputs report: the rule settings and the baseline.
    private let policy: FindingPolicy
    /// The run's model, learned as its sessions close, when it is asked for or held against one; only the run's own
    /// analyzer, never a worker's, learns it (from the replayed sessions).
    private var modelRecorder: RunModelRecorder?
    /// The model learned from the run's inputs, when `learnsModel` (each input one run).
    public var model: LifecycleModel? { modelRecorder?.model }
    /// Called with the bytes just read, counted once across all inputs. With `--jobs` above one, it is called from
    /// the threads analysing the inputs, possibly at the same time.
    public var progress: (@Sendable (_ bytesRead: Int) -> Void)?
    /// Called with a line for the user about the reading, not part of the report: with `follow`, that the file was
    /// truncated or replaced, or is waited for (`app.log: file truncated; reading from the start`).
    public var notice: (@Sendable (_ message: String) -> Void)?
    // A duration is recorded per transition and per controller's first appearance, from the analysis of this
    // analyzer's own inputs on its one thread, and nothing it calls while recording one reaches the aggregators again:
    // their exclusivity is not checked at run time (two calls into the runtime a duration).
    @exclusivity(unchecked) private var loadToAppear = DurationAggregator()
    @exclusivity(unchecked) private var transitionDurations = DurationAggregator()
    /// The sessions whose timeline events are kept (`AnalysisOptions.keepTimelineEvents`), by their numbers across the
    /// run: the timeline reporters' `timelineSessions`; nil, every session, for a worker, whose sessions are numbered later.
    private let timelineSessions: SessionSelection?
    /// Called with how each line was read (`lctrace lines`); inputs are then read one after another, in one piece.
    public var lineObserver: ((LineReading) -> Void)?
    /// Called, in input order, with each input found in a folder that could not be read (`RunInput`), after what
    /// was read of it is reported; the run goes on. When nil, such a failure ends the run as any other does.
    public var inputFailed: ((InputFailure) -> Void)?

    /// Throws when a forced pattern does not compile.
    public convenience init(options: AnalysisOptions, reporter: any Reporter) throws(PCRE2CompileError) {
        try self.init(options: options, reports: ReportDelivery([reporter]))
    }

    /// Several reports written in one pass, with the baseline being written: `reports`.
    public convenience init(options: AnalysisOptions, reports: ReportDelivery) throws(PCRE2CompileError) {
        let recognizer = try LineHeaderRecognizer(options.lineFormat, limits: options.limits, matchers: options.matchers)
        self.init(options: options, target: reports,
                  messageParser: MessageParser(limits: options.limits, matchers: options.matchers, names: NameTable()),
                  headerRecognizer: recognizer)
    }

    /// An analyzer using parsers made already (they are not shared between threads).
    init(options: AnalysisOptions, target: any RunOutput, messageParser: MessageParser, headerRecognizer: LineHeaderRecognizer) {
        var options = options
        timelineSessions = target.timelineSessions
        if timelineSessions != nil { options.keepTimelineEvents = true }
        self.options = options
        self.target = target
        self.messageParser = messageParser
        self.headerRecognizer = headerRecognizer
        self.policy = FindingPolicy(rules: options.rules, baseline: options.baseline)
        self.summary.config = options.configPath
        if options.baseline != nil { summary.findingsInBaseline = 0 }
        if options.learnsModel || options.against != nil, target is ReportDelivery { modelRecorder = RunModelRecorder() }
    }

    /// Analyses one input to its end (with `follow`, until SIGINT or SIGTERM; the file need not exist yet).
    public func analyze(_ source: InputSource) throws {
        try analyze(source, endingInputOnFailure: false)
    }

    /// `endingInputOnFailure`: when reading fails part way, the input ends where it failed (its sessions closed, its
    /// summary handed to the reports, as if the file ended there) before the failure is thrown, so that the run can go on
    /// with the next input (an input found in a folder: `RunInput`).
    func analyze(_ source: InputSource, endingInputOnFailure: Bool) throws {
        if options.follow, let path = source.path {
            target.inputBegan(source.name)
            let file = FollowedFile(path: path, name: source.name, notice: notice)
            endInput(try analyzeLines(of: .followed(file), name: source.name, firstLine: 1, knowledge: InputKnowledge()))
            return
        }
        let fd = try source.openDescriptor()
        defer { if fd != 0 { FileDescriptorIO.close(fd) } }
        try analyze(fileDescriptor: fd, name: source.name, endingInputOnFailure: endingInputOnFailure)
    }

    /// Analyses an already open descriptor (a file, a pipe, standard input).
    public func analyze(fileDescriptor fd: Int32, name: String) throws {
        try analyze(fileDescriptor: fd, name: name, endingInputOnFailure: false)
    }

    private func analyze(fileDescriptor fd: Int32, name: String, endingInputOnFailure: Bool) throws {
        target.inputBegan(name)
        do {
            endInput(try analyzeSection(fileDescriptor: fd, name: name, section: InputSection(), knowledge: InputKnowledge(),
                                        endingOnFailure: endingInputOnFailure))
        } catch let ended as InputEndedEarly {
            endInput(ended.input, failed: true)
            throw ended.error
        }
    }

    /// Analyses the lines of `section` (the whole input by default) without opening or closing the input in the reports.
    /// With `follow`, the descriptor is followed (it is watched for truncation; there is no path to watch).
    /// `text`: the section's bytes, already read into memory (the lines are read from there, not from the descriptor).
    /// `endingOnFailure`: a failure part way closes the sessions read so far and is thrown as `InputEndedEarly`.
    func analyzeSection(fileDescriptor fd: Int32, name: String, section: InputSection, knowledge: InputKnowledge,
                        text: UnsafeRawBufferPointer? = nil, endingOnFailure: Bool = false) throws -> InputSummary {
        let input: LineInput
        if let text {
            input = .memory(text, offset: section.bytes?.lowerBound ?? 0)
        } else if options.follow && section.bytes == nil {
            input = .followed(FollowedFile(fileDescriptor: fd, name: name, notice: notice))
        } else {
            input = .descriptor(fd, range: section.bytes)
        }
        return try analyzeLines(of: input, name: name, firstLine: section.firstLine, knowledge: knowledge, endingOnFailure: endingOnFailure)
    }

    private func analyzeLines(of input: LineInput, name: String, firstLine: Int, knowledge: InputKnowledge,
                              endingOnFailure: Bool = false) throws -> InputSummary {
        let settings = SessionSettings(keepEvents: options.keepEvents, keepTimelineEvents: options.keepTimelineEvents,
                                       timelineSessions: timelineSessions, reportsAreRead: readsSessionReports, policy: policy,
                                       limits: options.sessionLimits)
        let sessions = InputSessions(name: name, names: messageParser.names, knowledge: knowledge, settings: settings,
                                     sessionsBefore: self.summary.sessions, output: self)
        var forcedFormat: String?
        if case .fixed(let format) = options.lineFormat { forcedFormat = format.name }
        let events = EventReader(name: name, recognizer: headerRecognizer, messageParser: messageParser, forcedFormat: forcedFormat,
                                 firstLine: firstLine, observer: lineObserver, receiver: sessions, processFilter: options.processFilter)
        func summary() -> InputSummary {
            var summary = events.summary
            summary.timeStepsBack = sessions.timeStepsBack
            summary.firstTimeStepBack = sessions.firstTimeStepBack
            return summary
        }
        do {
            try events.read(input, maxLineBytes: options.maxLineBytes, progress: progress)
        } catch let error where endingOnFailure {
            // What was read before the failure is the input: its sessions end where it stopped.
            sessions.finish()
            throw InputEndedEarly(input: summary(), error: error)
        }
        sessions.finish()
        return summary()
    }

    /// Ends an input in the reports, with its findings about the whole input. `failed`: reading it failed part way.
    func endInput(_ input: InputSummary, failed: Bool = false) {
        var input = input
        var known = FindingPolicy.KnownFindings()
        for deviation in InputChecks.deviations(of: input, failed: failed) {
            guard let finding = policy.admit(deviation, input: input.name, session: 0) else { continue }
            if !policy.isKnown(finding, in: &known) { self.finding(finding) }
        }
        input.findingsInBaseline = known.count
        countKnown(input.findingsInBaseline)
        modelRecorder?.inputEnded(input.name)
        summary.inputs.append(input)
        target.inputEnded(input)
    }

    func beginInput(_ name: String) { target.inputBegan(name) }

    /// Ends the run and returns its totals.
    @discardableResult
    public func finish() -> RunSummary {
        if let model = options.against, let recorder = modelRecorder { compare(recorder, with: model) }
        summary.loadToAppearByClass = loadToAppear.stats()
        summary.transitionDurations = transitionDurations.stats()
        return reports.finish(summary)
    }

    // MARK: Parallel inputs

    /// The run's reports: only the run's own analyzer, never a worker's, finishes the run and replays recordings.
    private var reports: ReportDelivery {
        guard let reports = target as? ReportDelivery else { preconditionFailure("a worker's analyzer writes no reports") }
        return reports
    }

    /// Set for a worker whose recording is replayed: the durations are put aside here, for the replaying analyzer,
    /// instead of being aggregated.
    @exclusivity(unchecked) var durationsPutAside: DurationSamples?

    /// Feeds what a worker recorded to this run's reports, numbering its sessions after the ones already closed, as a
    /// sequential run would have.
    func replay(_ recording: Recording) {
        let offset = summary.sessions
        func renumber(_ finding: Finding) -> Finding {
            var finding = finding
            if finding.session > 0 { finding.session += offset }
            return finding
        }
        // The events and transitions rendered ahead are written a run at a time, before the item they came before.
        var rendered = 0
        func writeRendered(upTo end: Int) {
            guard end > rendered else { return }
            reports.write(recording.renderedItems[rendered..<end], sessionOffset: offset)
            rendered = end
        }
        for (index, item) in recording.items.enumerated() {
            writeRendered(upTo: recording.renderedBefore[index])
            switch item {
            case .begin(let name):
                reports.inputBegan(name)
            case .finding(let finding):
                self.finding(renumber(finding))
            case .event(let event, let subject, let session, let input):
                reports.event(event, subject: subject, session: session + offset, input: input)
            case .transition(let transition, let session, let input):
                reports.transition(transition, session: session + offset, input: input)
            case .session(var report):
                report.index += offset
                report.findings = report.findings.map(renumber)
                count(report)
                reports.sessionClosed(report)
            case .renderedSession(let item, let index, let counts):
                count(counts)
                reports.write(item, number: index + offset)
            case .countedSession(let counts):
                count(counts)
            case .end(let input):
                countKnown(input.findingsInBaseline)
                modelRecorder?.inputEnded(input.name)
                summary.inputs.append(input)
                reports.inputEnded(input)
            }
        }
        writeRendered(upTo: recording.renderedItems.count)
        loadToAppear.record(recording.durations.loadToAppear)
        transitionDurations.record(recording.durations.transitions)
        recording.recycle()
    }

    // MARK: AnalysisOutput

    var wantsLiveItems: Bool { target.wantsLiveItems }
    /// Whether anything reads the sessions' reports, and the run's durations, beyond their counts: a reporter, the
    /// baseline being written, or the model being learned.
    private var readsSessionReports: Bool { modelRecorder != nil || target.readsSessions }
    /// For the workers of a parallel run: made once per run, so that their texts are shared through its pool.
    private(set) lazy var renderingAhead = RenderingAhead(
        wantsLiveItems: target.wantsLiveItems, items: reports.itemFormatter,
        // A run that learns its model reads each session's report when it is replayed: none is rendered ahead.
        sessions: modelRecorder == nil ? reports.sessionFormatter : nil,
        countsSessionsOnly: !readsSessionReports)

    func finding(_ finding: Finding) {
        summary.findings[finding.severity] += 1
        target.finding(finding)
    }

    func event(_ event: LiveEvent, subject: String, session: Int, input: String) {
        target.event(event, subject: subject, session: session, input: input)
    }

    func transition(_ transition: TransitionReport, session: Int, input: String) {
        target.transition(transition, session: session, input: input)
    }

    func duration(_ ms: Double, of kind: DurationKind, name: String) {
        if durationsPutAside != nil {
            durationsPutAside!.record(ms, of: kind, name: name)
            return
        }
        switch kind {
        case .loadToFirstAppear: loadToAppear.record(ms, for: name)
        case .transition: transitionDurations.record(ms, for: name)
        }
    }

    /// A session's final report: counted, and handed to the reports. (Its durations were taken as they were measured.)
    func sessionClosed(_ report: SessionReport) {
        count(report)
        target.sessionClosed(report)
    }

    private func count(_ report: SessionReport) {
        modelRecorder?.record(report)
        count(SessionCounts(report))
    }

    /// Reports how the run differs from `model` (`--against`), as findings about its inputs.
    private func compare(_ recorder: RunModelRecorder, with model: LifecycleModel) {
        let comparison = ModelComparison(model: model, slowerByPercent: options.rules.slowerThanModelPercent)
        var known = FindingPolicy.KnownFindings()
        for located in comparison.deviations(of: recorder.model, firstTransitions: recorder.firstTransitions,
                                             firstControllers: recorder.firstControllers, firstInput: recorder.firstInput) {
            guard let finding = policy.admit(located.deviation, input: located.input, session: 0) else { continue }
            if policy.isKnown(finding, in: &known) { continue }
            self.finding(finding)
        }
        countKnown(known.count)
    }

    /// Counts findings the baseline knew, when the run has one.
    private func countKnown(_ known: Int) {
        summary.findingsInBaseline? += known
    }

    private func count(_ counts: SessionCounts) {
        countKnown(counts.findingsInBaseline)
        summary.sessions += 1
        summary.controllers += counts.controllers
        summary.views += counts.views
        summary.transitions += counts.transitions
    }
}
