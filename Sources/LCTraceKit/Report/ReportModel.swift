/// The report: what every reporter writes, built once by the analysis.

/// One callback on a timeline.
public struct EventRecord: Sendable, Equatable {
    public var line: Int
    /// The timestamp as written in the log, when the format has one.
    public var time: TimeText?
    /// Milliseconds since the session's first timestamp.
    public var offsetMs: Double?
    public var callback: Callback
    /// The name exactly as logged.
    public var spelled: String
}

/// An event as it streams out, while its line is being read: an event record's fields; `record` is the copy to keep.
struct LiveEvent {
    var line: Int
    /// The time as logged; empty when the line has none.
    var time: TimeText
    var offsetMs: Double?
    var callback: Callback
    var spelled: String

    var record: EventRecord {
        EventRecord(line: line, time: time.nonEmpty, offsetMs: offsetMs, callback: callback, spelled: spelled)
    }

    /// The record as a live event, for the call to `body`.
    static func of<Result>(_ record: EventRecord, _ body: (LiveEvent) -> Result) -> Result {
        body(LiveEvent(line: record.line, time: record.time ?? TimeText(), offsetMs: record.offsetMs, callback: record.callback,
                       spelled: record.spelled))
    }
}

/// A sink that renders events as they stream, from the live event rather than a record of it (no copy of its time).
protocol LiveEventSink: AnyObject {
    func event(_ event: LiveEvent, subject: String, session: Int, input: String)
}

/// One stretch on screen: viewDidAppear → viewDidDisappear.
public struct AppearanceSpan: Sendable, Equatable {
    public var appearedLine: Int
    public var disappearedLine: Int?
    public var durationMs: Double?
}

/// One view-controller instance in one session.
public struct ControllerReport: Sendable, Equatable {
    /// A name unique in its session: `Class`, `Class#2` for a later instance, `Class@0x…` when addressed.
    public var id: String
    public var className: String
    public var address: String?
    /// How its callbacks were told apart from those of other instances of its class.
    public var identity: InstanceIdentity
    public var firstLine: Int
    public var lastLine: Int
    public var eventCount: Int
    /// Empty when events are not kept (`--no-events`).
    public var events: [EventRecord]
    /// viewDidLoad → first viewDidAppear.
    public var loadToFirstAppearMs: Double?
    /// The first `SessionLimits.appearancesPerController` of its appearances; none when nothing reads the sessions'
    /// reports (`Reporter.readsSessions`), which then counts them all in `appearancesNotListed`.
    public var appearances: [AppearanceSpan]
    public var finalPhase: ControllerPhase
    /// Appearances after the ones listed, counted only.
    public var appearancesNotListed = 0
    /// A UIKit view controller, or a SwiftUI view (its callbacks are `Callback.Family.view`).
    public var kind: InstanceKind = .controller
}

/// What an instance in a session's list of controllers is.
public enum InstanceKind: String, Sendable, Codable {
    case controller
    /// A SwiftUI view, known by its logged onAppear/onDisappear/task.
    case view
}

extension ControllerReport {
    /// An instance's id: its class, then its address when the log names one (`@0x…`), then its ordinal among the
    /// instances of that class and address when it is not the first (`#2`). `FindingKey.className(ofController:)`
    /// reads the class back.
    static func id(className: String, address: String?, ordinal: Int) -> String {
        var id = address.map { "\(className)@\($0)" } ?? className
        if ordinal > 1 { id += "#\(ordinal)" }
        return id
    }
}

/// The deallocated instances of one class that a session does not list, past its first
/// `SessionLimits.listedControllers` controllers, summed up.
public struct UnlistedControllers: Sendable, Equatable {
    public var className: String
    public var instances: Int
    public var eventCount: Int
    /// The first line of the first of them, and the last line of the last.
    public var firstLine: Int
    public var lastLine: Int

    /// Adds one instance's report.
    mutating func add(_ report: ControllerReport) {
        instances += 1
        eventCount += report.eventCount
        firstLine = min(firstLine, report.firstLine)
        lastLine = max(lastLine, report.lastLine)
    }
}

/// How a controller instance's callbacks were told apart from those of other instances of its class.
public enum InstanceIdentity: String, Sendable, CaseIterable {
    /// Its messages carry its address (`<Module.Class: 0x…>`).
    case address
    /// Its messages carry an identifier of the app's own.
    case id
    /// Its class name alone: no other instance of the class was alive beside it.
    case className = "class"
    /// Its class name, shared with other live instances: which one each callback was for was inferred from their
    /// states and their places on the navigation stacks.
    case inferred
}

/// A change of screen between controllers.
public struct TransitionReport: Sendable, Equatable {
    public var kind: TransitionKind
    /// The kind a logged push/pop/present/dismiss call declared, when one did.
    public var declared: TransitionKind?
    public var declaredLine: Int?
    /// The outgoing controller (A), when there is one.
    public var from: String?
    /// The incoming controller (B), when there is one.
    public var to: String?
    /// Every controller that took part, in order of first callback.
    public var controllers: [String]
    public var startLine: Int
    public var endLine: Int
    public var startTime: TimeText?
    public var durationMs: Double?
}

/// The app delegate's callbacks in one session.
public struct AppReport: Sendable, Equatable {
    public var events: [EventRecord]
    public var eventCount: Int
    public var finalPhase: ActivityPhase
}

/// One scene (one scene delegate instance) in one session.
public struct SceneReport: Sendable, Equatable {
    /// `SceneDelegate`, or `SceneDelegate@0x…` when the delegate's address is logged.
    public var id: String
    public var className: String
    public var address: String?
    public var firstLine: Int
    public var eventCount: Int
    public var finalPhase: ActivityPhase
}

/// How long the launch took, where the log has timestamps.
public struct LaunchTiming: Sendable, Equatable {
    /// main() → the first viewDidAppear.
    public var mainToFirstAppearMs: Double?
    /// didFinishLaunching → the first applicationDidBecomeActive or sceneDidBecomeActive.
    public var finishLaunchingToActiveMs: Double?

    public var isEmpty: Bool { mainToFirstAppearMs == nil && finishLaunchingToActiveMs == nil }
}

/// The spread of one kind of duration over the whole run.
public struct DurationStats: Sendable, Equatable {
    /// A controller class, or a transition kind.
    public var name: String
    public var count: Int
    public var p50Ms: Double
    public var p90Ms: Double
    public var maxMs: Double
    /// Durations over an hour, counted as one hour in p50 and p90 once a name has more than a few hundred (the
    /// maximum is exact).
    public var overAnHour = 0
}

/// One app launch: from `main()` (or the first event, or a change of process id) to the next.
public struct SessionReport: Sendable, Equatable {
    public var index: Int
    public var input: String
    public var process: String?
    public var pid: Int?
    public var startLine: Int
    public var endLine: Int
    public var startTime: TimeText?
    public var endTime: TimeText?
    public var durationMs: Double?
    public var launch: LaunchTiming
    public var app: AppReport
    public var scenes: [SceneReport]
    /// The controllers listed (`SessionLimits.listedControllers`), in the order they were created.
    public var controllers: [ControllerReport]
    /// The first `SessionLimits.listedTransitions` transitions; none when they were streamed as they closed.
    public var transitions: [TransitionReport]
    /// The first `SessionLimits.listedFindings` findings.
    public var findings: [Finding]
    /// The deallocated controllers not listed, by class, in the order of their first lines.
    public var unlistedControllers: [UnlistedControllers] = []
    /// Transitions and findings after the ones listed, counted only.
    public var transitionsNotListed = 0
    public var findingsNotListed = 0
    /// The findings the baseline knew (`--baseline`), left out of `findings` and of the count above.
    public var findingsInBaseline = 0
    /// Where the timeline reports stop drawing the session: the line of its first event past its first
    /// `SessionLimits.timelineEvents`, and how many events there are from there on; nil and 0 when it has no more.
    /// The report keeps no events from there on unless every event is kept (`AnalysisOptions.keepEvents`).
    public var timelineCut: Int?
    public var eventsPastTimelineCut = 0

    /// Every controller instance of the session, listed or not.
    public var controllerCount: Int { unlistedControllers.reduce(controllers.count) { $0 + $1.instances } }
    /// The SwiftUI views among `controllers` (views are listed with the controllers, kind `.view`).
    public var viewCount: Int {
        // Each kind read in place: a closure handed every element would copy it (its names and lists retained).
        var views = 0
        for index in controllers.indices where controllers[index].kind == .view { views += 1 }
        return views
    }
    public var transitionCount: Int { transitions.count + transitionsNotListed }
    public var findingCount: Int { findings.count + findingsNotListed }
}

/// Why a line was not parsed.
public enum SkipReason: String, Sendable, CaseIterable, Codable {
    /// Empty or only white space.
    case blank
    /// Not in the input's line format (a stray line, a continuation of a multi-line message).
    case unrecognized
    /// PCRE2 gave up on it (a match or depth limit).
    case regexLimit = "regex-limit"
    /// A line of `log show`/`log stream` JSON output that is not where an entry is read: an entry is read at the line
    /// that closes it, and the lines before it, and brackets and commas between entries, are its structure.
    case jsonStructure = "json-structure"
    /// A record of a process `--process`/`--pid` leave out (`ProcessFilter`).
    case otherProcess = "other-process"
}

/// What a line that was read turned out to be. With the skipped lines (`SkipReason`), every line of an input is
/// counted exactly once.
public enum LineDisposition: String, Sendable, CaseIterable, Codable {
    /// A controller, app or scene callback, or a logged navigation call: an event on a timeline.
    case lifecycle
    /// A marker (`main()`, `Received memory warning.`) or a notice UIKit prints about a controller.
    case notice
    /// Other app logging.
    case other
    /// Names a lifecycle callback, but no controller could be read around it, or os_log redacted the name.
    case unread
    /// A line of a crash report or a backtrace (a stack frame, a thread's heading, the uncaught exception): never a
    /// call, whatever method it names.
    case crash
}

/// A line that names a lifecycle callback but could not be read as one, kept for the report.
public struct UnreadLine: Sendable, Equatable {
    public var input: String
    public var line: Int
    /// The line as logged (decoded lossily, cut at 200 characters).
    public var text: String
    public var reason: UnreadReason
}

/// How one line was read: what `lctrace lines` prints.
public struct LineReading: Sendable, Equatable {
    public var input: String
    public var line: Int
    /// The line as logged (decoded lossily).
    public var text: String
    /// A `LineDisposition` or a `SkipReason`: `lifecycle`, `notice`, `other`, `unread`, `crash`, `blank`, `unrecognized`,
    /// `regex-limit`, `json-structure` or `other-process`.
    public var disposition: String
    /// The line format whose header the line has; nil when it has none (a bare message).
    public var format: String?
    /// The message: the line after its header.
    public var message: String?
    public var time: String?
    public var process: String?
    public var pid: String?
    public var tid: String?
    /// The class the callback was read on (without its module); nil when none.
    public var className: String?
    public var address: String?
    public var callback: Callback?
    /// The callback as logged.
    public var spelled: String?
    /// Why nothing, or not an event, was read from the line.
    public var reason: String?

    public init(input: String, line: Int, text: String, disposition: String) {
        self.input = input
        self.line = line
        self.text = text
        self.disposition = disposition
    }

    /// The disposition a line was counted under: the one count that differs between the summaries before and after it.
    static func disposition(before: InputSummary, after: InputSummary) -> String {
        for disposition in LineDisposition.allCases where after.lines(disposition) != before.lines(disposition) {
            return disposition.rawValue
        }
        for reason in SkipReason.allCases where after.skipped[reason] != before.skipped[reason] { return reason.rawValue }
        return LineDisposition.other.rawValue
    }
}

/// What happened to the lines of one input.
public struct InputSummary: Sendable, Equatable {
    /// How many unread lines a summary keeps, for the report.
    public static let unreadLinesKept = 20

    public var name: String
    /// The first line format recognised in the input (`bare` when no line had a header), or the forced one.
    public var format: String
    public var bytes: Int = 0
    public var lines: Int = 0
    /// Lines read (lifecycle or not): the sum of the dispositions.
    public var parsedLines: Int = 0
    public var lifecycleLines = 0
    public var noticeLines = 0
    public var otherLines = 0
    public var unreadLines = 0
    public var crashLines = 0
    /// Unread lines where os_log printed `<private>` (or a hash) in place of a class or callback (`UnreadReason.redacted`).
    public var redactedLines = 0
    /// The first `unreadLinesKept` unread lines.
    public var unread: [UnreadLine] = []
    public var skipped: [SkipReason: Int] = [:]
    /// Lines cut at the line-length cap (they are still parsed).
    public var truncatedLines: Int = 0
    /// Extra records found glued to the end of another line (a missing newline).
    public var gluedRecords: Int = 0
    /// How often the logged time went back within a session, and the first line where it did.
    public var timeStepsBack = 0
    public var firstTimeStepBack: Int?
    /// The findings about the whole input the baseline knew (`--baseline`), left out of the reports.
    public var findingsInBaseline = 0
    /// Events whose logged time could not be read (an impossible date or time of day, or a shape no parser knows):
    /// their time is unknown.
    public var unreadTimes = 0
    public var events: Int = 0

    public var skippedLines: Int { skipped.values.reduce(0, +) }

    /// The lines read as `disposition`.
    public func lines(_ disposition: LineDisposition) -> Int {
        switch disposition {
        case .lifecycle: return lifecycleLines
        case .notice: return noticeLines
        case .other: return otherLines
        case .unread: return unreadLines
        case .crash: return crashLines
        }
    }
}

/// Totals over the whole run.
public struct RunSummary: Sendable, Equatable {
    public var inputs: [InputSummary] = []
    public var sessions = 0
    /// View controllers, and SwiftUI views apart.
    public var controllers = 0
    public var views = 0
    public var transitions = 0
    public var findings = SeverityCounts()
    /// viewDidLoad → first viewDidAppear per controller class, and durations per transition kind; empty when nothing
    /// reads them (`Reporter.readsSessions`).
    public var loadToAppearByClass: [DurationStats] = []
    public var transitionDurations: [DurationStats] = []
    /// The configuration file the run used, if any.
    public var config: String?
    /// With a baseline: the findings it already knew, left out of `findings` and of the reports; nil without one.
    public var findingsInBaseline: Int?

    public var lines: Int { inputs.reduce(0) { $0 + $1.lines } }
    public var parsedLines: Int { inputs.reduce(0) { $0 + $1.parsedLines } }
    public var skippedLines: Int { inputs.reduce(0) { $0 + $1.skippedLines } }
    public var truncatedLines: Int { inputs.reduce(0) { $0 + $1.truncatedLines } }
    public var redactedLines: Int { inputs.reduce(0) { $0 + $1.redactedLines } }
    public var timeStepsBack: Int { inputs.reduce(0) { $0 + $1.timeStepsBack } }
    public var unreadTimes: Int { inputs.reduce(0) { $0 + $1.unreadTimes } }
    public var events: Int { inputs.reduce(0) { $0 + $1.events } }
    public func lines(_ disposition: LineDisposition) -> Int { inputs.reduce(0) { $0 + $1.lines(disposition) } }
    /// The first unread lines of the run, in input order.
    public var unread: [UnreadLine] { Array(inputs.lazy.flatMap(\.unread).prefix(InputSummary.unreadLinesKept)) }
    public func skipped(_ reason: SkipReason) -> Int { inputs.reduce(0) { $0 + ($1.skipped[reason] ?? 0) } }
    public func findings(_ severity: Severity) -> Int { findings[severity] }
}
