/// Where a session sends what it decides, the moment it decides it.
protocol SessionFeed: AnyObject {
    /// Whether events and transitions are wanted live (streaming output).
    var wantsLiveItems: Bool { get }
    func finding(_ finding: Finding)
    func event(_ event: LiveEvent, subject: String, session: Int, input: String)
    func transition(_ transition: TransitionReport, session: Int, input: String)
}

/// What one input has shown so far, shared by its sessions.
final class InputKnowledge {
    /// Classes that logged dealloc/deinit: their missing deallocs are possible leaks, not unknowns.
    private(set) var classesLoggingDealloc: Set<String>
    /// Classes asked about while not (yet) known to log dealloc. A part of an input analysed before the parts
    /// ahead of it are known is valid only if none of these logged dealloc in those parts.
    private(set) var unknownWhenAsked: Set<String> = []

    init(classesLoggingDealloc: Set<String> = []) {
        self.classesLoggingDealloc = classesLoggingDealloc
    }

    func logsDealloc(_ className: String) -> Bool {
        if classesLoggingDealloc.contains(className) { return true }
        unknownWhenAsked.insert(className)
        return false
    }

    /// Notes that the class logs dealloc (`className` is its text): a class already noted is not hashed again.
    func noteDealloc(_ name: ClassName, className: String) {
        guard !noted[name] else { return }
        noted[name] = true
        classesLoggingDealloc.insert(className)
    }

    /// The classes `noteDealloc` put in `classesLoggingDealloc` already.
    private var noted = ClassTable(empty: false)
}

/// One view-controller instance being tracked through a session (its report is kept beside it, by the same index).
struct ControllerState {
    var phase: ControllerPhase = .unknown
    /// A viewDidLoad was seen in the instance's current view life.
    var hasLoadedView = false
    /// A memory warning or viewDidUnload since the last viewDidLoad: the next viewDidLoad is a reload.
    var viewMayBeUnloaded = false
    /// The first appearance/layout callback seen while no viewDidLoad was (a log that starts late, or a bug).
    var appearanceWithoutLoad: (line: Int, callback: Callback)?
    var loadMicros: Int64?
    var appearedMicros: Int64?
    /// The instance's first callback in the log, and the line of its first appearance callback.
    var firstCallback: Callback?
    var firstAppearanceLine: Int?
    /// Containment (§7): it logged willMove/didMove or begin/endAppearanceTransition, so it is a child.
    var isChild = false
    /// The containment callbacks whose closing partner has not come yet.
    var openContainment: Set<Callback> = []
}

/// Analyses one session: the app and scene state machines, one automaton per controller instance, transitions,
/// and the session-wide rules (leaks, main thread, post-mortem, timing). Findings go to `report` the moment they
/// are decided and are kept in the session's report.
final class SessionAnalyzer: TransitionContext {
    let index: Int
    let input: String
    let keepEvents: Bool
    let rules: RuleSettings
    private let knowledge: InputKnowledge
    /// The names of the events' classes and spellings.
    private let names: NameTable
    /// The analyzer or worker that opened this session and closes it: it outlives the session, so it is held
    /// without the check (an atomic operation) that a safe unowned reference makes on every use.
    private unowned(unsafe) let feed: any SessionFeed
    /// `feed.wantsLiveItems`, read once.
    private let streamsLiveItems: Bool
    /// Event records are built when the report keeps them or the output streams them.
    private let recordsEvents: Bool

    private(set) var process: String?
    private(set) var pid: Int?
    private var startLine: Int
    /// The line of the last event: the session idle longest is ended first when too many are open.
    private(set) var endLine: Int
    private var startMicros: Int64?
    private var startTime: TimeText?
    private var lastMicros: Int64?
    /// The session's time of the event being handled (`sessionTime`).
    private var eventMicros: Int64?
    /// Added to every time read: the sum of the steps back the clock took (two logs pasted out of order, a time of
    /// day past midnight). A session's time never goes back, so durations across a step back count as zero.
    private var clockShift: Int64 = 0
    /// How often the logged time went back, and the line where it first did.
    private(set) var timeStepsBack = 0
    private(set) var firstTimeStepBack: Int?
    /// The last timed event's time (empty before one).
    private var endTime = TimeText()

    private var app = AppReport(events: [], eventCount: 0, finalPhase: .unknown)
    private var activity: ActivityTracker
    private var controllers: [ControllerState] = []
    /// Each instance's report, by the same index as its state: handed to the session's report as it is at the end
    /// (a report inside each state would be copied out of it, element by element).
    private var controllerReports: [ControllerReport] = []
    private var instances = InstanceIndex()
    private var transitions = TransitionTracker()
    private var transitionReports: [TransitionReport] = []
    private var leaks: LeakWatch
    private var mainThread = MainThreadCheck()
    private var findings: [Finding] = []
    /// The last few events, for the post-mortem finding.
    private var recentEvents: RecentEvents
    private var mainMicros: Int64?
    private var finishLaunchingMicros: Int64?
    private var sawFirstAppear = false
    private var launch = LaunchTiming()
    private(set) var eventCount = 0
    /// Some controller logged viewDidLoad (or init/loadView) in this session.
    private var logsViewLoading = false

    var sawFinishLaunching: Bool { activity.sawFinishLaunching }

    /// How many controller instances and transitions a session had.
    struct Size {
        var controllers = 0
        var transitions = 0
    }

    var size: Size { Size(controllers: controllers.count, transitions: transitionReports.count) }

    /// `expected`: the size of the session before it, if any. The sessions of one app are alike, so the lists start
    /// with room for as many, rather than growing (and being copied) from nothing.
    init(index: Int, input: String, firstLine: Int, process: String?, pid: Int?, launchLogged: Bool,
         keepEvents: Bool, rules: RuleSettings, knowledge: InputKnowledge, names: NameTable, feed: any SessionFeed,
         expected: Size = Size()) {
        self.index = index
        self.input = input
        self.startLine = firstLine
        self.endLine = firstLine
        self.process = process
        self.pid = pid
        self.keepEvents = keepEvents
        self.rules = rules
        self.knowledge = knowledge
        self.names = names
        self.feed = feed
        self.streamsLiveItems = feed.wantsLiveItems
        self.recordsEvents = keepEvents || streamsLiveItems
        self.activity = ActivityTracker(launchLogged: launchLogged)
        self.leaks = LeakWatch(timeoutSeconds: rules.leakTimeoutSeconds)
        self.recentEvents = RecentEvents(names: names)
        controllers.reserveCapacity(expected.controllers)
        controllerReports.reserveCapacity(expected.controllers)
        transitionReports.reserveCapacity(expected.transitions)
    }

    /// The session's time of an event logged at `micros`: as logged, shifted by the steps back the clock took.
    @inline(__always)
    private func sessionTime(_ micros: Int64, line: Int) -> Int64 {
        let shifted = micros &+ clockShift
        guard let lastMicros, shifted < lastMicros else { return shifted }
        clockShift &+= lastMicros - shifted
        timeStepsBack += 1
        if firstTimeStepBack == nil { firstTimeStepBack = line }
        return lastMicros
    }

    /// Takes the session's next event.
    func handle(_ event: borrowing Event) {
        eventCount += 1
        endLine = event.line
        eventMicros = nil
        if let logged = event.micros { eventMicros = sessionTime(logged, line: event.line) }
        if let micros = eventMicros {
            if startMicros == nil { startMicros = micros; startTime = event.time.nonEmpty }
            lastMicros = micros
            endTime = event.time
            if leaks.isWatching {
                for leak in leaks.expire(now: micros, classLogsDealloc: classLogsDealloc) { emitLeak(leak, confirmed: true) }
            }
        }
        let callback = event.callback
        // Once the main thread is known, a callback logged on it decides nothing: the common case, checked first.
        if let thread = event.thread, !mainThread.isMain(thread) {
            let subject = names.className(of: event.message) ?? callback.rawValue
            let decides = callback == .main || callback == .willFinishLaunching || callback == .didFinishLaunching
            emit(mainThread.take(.init(thread: thread, line: event.line, callback: callback, subject: subject), decides: decides))
        }
        recentEvents.note(line: event.line, message: event.message)
        recordLaunchTiming(callback, micros: eventMicros)

        switch callback.family {
        case .controller:
            handleController(event)
        case .application, .scene, .marker:
            handleApplication(event)
        case .intent:
            handleApplication(event)
            if let kind = callback.declaredKind { transitions.declare(kind, line: event.line, context: self) }
        }
    }

    func close() -> SessionReport {
        let inFlight = transitions.isInFlight(self)
        transitions.finish(self)
        emit(mainThread.finish())
        for leak in leaks.finish() { emitLeak(leak, confirmed: classLogsDealloc(leak.controller)) }
        checkEnding(inFlight: inFlight)
        return SessionReport(
            index: index, input: input, process: process, pid: pid, startLine: startLine, endLine: endLine,
            startTime: startTime, endTime: endTime.nonEmpty, durationMs: milliseconds(from: startMicros, to: lastMicros),
            launch: launch, app: app, scenes: activity.sceneReports,
            controllers: finalControllerReports(),
            transitions: transitionReports, findings: findings)
    }

    /// The controllers' reports with their final states.
    private func finalControllerReports() -> [ControllerReport] {
        for index in controllerReports.indices { controllerReports[index].finalPhase = controllers[index].phase }
        return controllerReports
    }

    // MARK: App delegate, scenes and markers

    private func handleApplication(_ event: borrowing Event) {
        let callback = event.callback
        app.eventCount += 1
        if recordsEvents { keep(event, subject: "App") { app.events.append($0) } }
        emit(activity.take(callback, line: event.line, message: names.lifecycleMessage(event.message, end: 0)))
        app.finalPhase = activity.appPhase
    }

    @inline(__always)
    private func recordLaunchTiming(_ callback: Callback, micros: Int64?) {
        guard let micros else { return }
        switch callback {
        case .main where mainMicros == nil:
            mainMicros = micros
        case .didFinishLaunching where finishLaunchingMicros == nil:
            finishLaunchingMicros = micros
        case .viewDidAppear where !sawFirstAppear:
            sawFirstAppear = true
            launch.mainToFirstAppearMs = milliseconds(from: mainMicros, to: micros)
        case .applicationDidBecomeActive, .sceneDidBecomeActive:
            if launch.finishLaunchingToActiveMs == nil {
                launch.finishLaunchingToActiveMs = milliseconds(from: finishLaunchingMicros, to: micros)
            }
        default:
            break
        }
    }

    /// Post-mortem (§3): a session that stops in the foreground or mid-transition, when the log shows app or
    /// scene state at all, gets the last events as an info finding.
    private func checkEnding(inFlight: Bool) {
        let logsState = app.finalPhase != .unknown || !activity.sceneReports.isEmpty
        guard inFlight || (logsState && !activity.reachedBackgroundOrEnd) else { return }
        let state = activity.sceneReports.last?.finalPhase ?? app.finalPhase
        let why = inFlight ? "in the middle of a transition" : "with the app \(state.rawValue), before any didEnterBackground or willTerminate"
        emit(Deviation(
            rule: .sessionEndedAbruptly, line: endLine, subject: nil,
            message: "the session ends \(why) (a crash or a kill looks like this); last events: "
                + recentEvents.described,
            expected: "applicationDidEnterBackground or applicationWillTerminate", actual: "end of session"))
    }

    // MARK: View controllers

    private func handleController(_ event: borrowing Event) {
        let callback = event.callback
        var index = route(event)
        var outcome = ControllerAutomaton.outcome(of: callback, in: controllers[index].phase)
        if outcome == .newInstance {
            index = makeInstance(for: event)
            outcome = ControllerAutomaton.outcome(of: callback, in: .unknown)
        }
        var violated = false

        if callback == .viewDidLoad {
            violated = checkViewLoad(index, event: event, outcome: outcome, spawned: &index)
        } else if let rule = callback.noticeRule {
            let name = self.name(of: index)
            let notice = names.spelled(event.message)
            emit(Deviation(rule: rule, line: event.line, subject: name, message: RuleCatalog.noticeMessage(rule, controller: name, notice: notice),
                           expected: RuleCatalog.noticeExpectation(rule), actual: notice))
        } else {
            checkContainment(index, callback: callback, line: event.line)
            switch outcome {
            case .to(let next):
                controllers[index].phase = next
            case .violation(let rule, let next):
                let name = self.name(of: index)
                emit(Deviation(
                    rule: rule, line: event.line, subject: name,
                    message: violationMessage(rule, callback: callback, phase: controllers[index].phase, name: name),
                    expected: expectation(rule, callback: callback), actual: callback.rawValue,
                    cap: identityCap(rule, index)))
                controllers[index].phase = next
                violated = true
            case .viewLoadedAgain, .newInstance:
                break
            }
        }
        if callback.beginsLife { logsViewLoading = true }
        if callback == .dealloc, let className = event.message.className {
            knowledge.noteDealloc(className, className: controllerReports[index].className)
        }
        if callback == .dealloc || callback == .viewWillAppear { leaks.disarm(index) }
        update(index, with: event, flagged: violated)
        if callback.isAppearanceCallback {
            transitions.observe(ObservedStep(controller: index, callback: callback, line: event.line, micros: eventMicros),
                                time: event.time, violated: violated, context: self)
        }
    }

    /// Containment pairs (§7): the closing callback needs an open one; a second opening is legal (for
    /// beginAppearanceTransition it cancels the first).
    private static let containmentPairs: [(open: Callback, close: Callback, rule: Rule)] = [
        (.willMoveToParentViewController, .didMoveToParentViewController, .didMoveWithoutWillMove),
        (.beginAppearanceTransition, .endAppearanceTransition, .unbalancedAppearanceTransition),
    ]

    private func checkContainment(_ index: Int, callback: Callback, line: Int) {
        guard callback.isContainmentCallback else { return }
        controllers[index].isChild = true
        for pair in SessionAnalyzer.containmentPairs {
            if callback == pair.open { controllers[index].openContainment.insert(pair.open) }
            guard callback == pair.close else { continue }
            if controllers[index].openContainment.remove(pair.open) == nil {
                let name = self.name(of: index)
                emit(Deviation(rule: pair.rule, line: line, subject: name,
                               message: "\(pair.close.rawValue) on \(name) with no \(pair.open.rawValue) before it",
                               expected: "\(pair.open.rawValue) first", actual: pair.close.rawValue))
            }
        }
    }

    /// viewDidLoad: legal the first time, legal again after a memory warning or unload, otherwise a deviation.
    /// Returns whether it was one. Without instance addresses a second load is taken as a second instance.
    private func checkViewLoad(_ index: Int, event: borrowing Event, outcome: ControllerStepOutcome, spawned: inout Int) -> Bool {
        let state = controllers[index]
        if let early = state.appearanceWithoutLoad, !state.hasLoadedView {
            emit(Deviation(rule: .appearanceBeforeViewDidLoad, line: event.line, subject: name(of: index),
                           message: "viewDidLoad came after \(early.callback.rawValue) (line \(early.line)) on \(name(of: index))",
                           expected: "viewDidLoad before \(early.callback.rawValue)", actual: "viewDidLoad after \(early.callback.rawValue)"))
            markLoaded(index)
            return true
        }
        guard outcome == .viewLoadedAgain else {
            if case .to(let next) = outcome { controllers[index].phase = next }
            markLoaded(index)
            return false
        }
        if state.viewMayBeUnloaded || !state.hasLoadedView {
            // The view was purged (memory warning, viewDidUnload) and is loaded again: legal while hidden (§8).
            if state.phase == .visible {
                emit(Deviation(rule: .viewReloadedWhileVisible, line: event.line, subject: name(of: index),
                               message: "\(name(of: index)) reloaded its view while on screen, after a memory warning",
                               expected: "purge only the views of controllers not on screen", actual: "viewDidLoad while visible"))
            }
            markLoaded(index)
            return false
        }
        if controllerReports[index].address != nil {
            emit(Deviation(rule: .viewLoadedTwice, line: event.line, subject: name(of: index),
                           message: "\(name(of: index)) loaded its view again with no memory warning or viewDidUnload in between",
                           expected: "one viewDidLoad per view life", actual: "viewDidLoad again"))
            markLoaded(index)
            return true
        }
        // No address: two instances of one class are common (ground truth §11.1). Track a new one, and warn.
        spawned = makeInstance(for: event)
        emit(Deviation(rule: .viewLoadedTwice, line: event.line, subject: name(of: spawned),
                       message: "\(controllerReports[index].className) loaded a view again with no memory warning in between; without instance addresses this is taken as a second instance, \(name(of: spawned))",
                       expected: "one viewDidLoad per view life", actual: "viewDidLoad again", cap: .warning))
        controllers[spawned].phase = .hidden
        markLoaded(spawned)
        return false
    }

    private func markLoaded(_ index: Int) {
        if controllers[index].phase == .unknown || controllers[index].phase == .loading || controllers[index].phase == .unloaded {
            controllers[index].phase = .hidden
        }
        controllers[index].hasLoadedView = true
        controllers[index].viewMayBeUnloaded = false
        controllers[index].appearanceWithoutLoad = nil
    }

    /// Book-keeping after the automaton step: timeline, durations, view-life flags.
    @inline(__always)
    private func update(_ index: Int, with event: borrowing Event, flagged: Bool) {
        if recordsEvents { keep(event, subject: name(of: index)) { controllerReports[index].events.append($0) } }
        // In place (inout on the elements): a copy of the state would duplicate its arrays on every callback.
        SessionAnalyzer.update(&controllers[index], &controllerReports[index], with: event, micros: eventMicros, flagged: flagged)
    }

    private static func update(_ state: inout ControllerState, _ report: inout ControllerReport, with event: borrowing Event,
                               micros: Int64?, flagged: Bool) {
        let callback = event.callback
        if state.firstCallback == nil { state.firstCallback = callback }
        if callback.isAppearanceCallback, state.firstAppearanceLine == nil { state.firstAppearanceLine = event.line }
        report.eventCount += 1
        report.lastLine = event.line
        switch callback {
        case .viewDidLoad:
            state.loadMicros = micros
        case .didReceiveMemoryWarning, .viewDidUnload:
            state.viewMayBeUnloaded = true
            state.appearanceWithoutLoad = nil
            if callback == .viewDidUnload { state.hasLoadedView = false }
        case .viewWillAppear, .viewIsAppearing, .viewDidAppear, .viewWillDisappear, .viewDidDisappear,
             .viewWillLayoutSubviews, .viewDidLayoutSubviews:
            if !flagged, !state.hasLoadedView, !state.viewMayBeUnloaded, state.appearanceWithoutLoad == nil {
                state.appearanceWithoutLoad = (event.line, callback)
            }
        default:
            break
        }
        if callback == .viewDidAppear, state.phase == .visible {
            if report.loadToFirstAppearMs == nil, report.appearances.isEmpty {
                report.loadToFirstAppearMs = milliseconds(from: state.loadMicros, to: micros)
            }
            report.appearances.append(AppearanceSpan(appearedLine: event.line))
            state.appearedMicros = micros
        }
        if callback == .viewDidDisappear, let last = report.appearances.indices.last,
           report.appearances[last].disappearedLine == nil {
            report.appearances[last].disappearedLine = event.line
            report.appearances[last].durationMs = milliseconds(from: state.appearedMicros, to: micros)
        }
    }

    /// The instance a callback belongs to. By address when logged; by class otherwise, where several live
    /// instances of one class are told apart by which of them the callback is legal for (newest first).
    private func route(_ event: borrowing Event) -> Int {
        guard let list = instances.list(InstanceKey(event.message)) else { return makeInstance(for: event) }
        if list.count > 1 {
            // The newest eight, newest first.
            var candidate: Int? = list.newest
            for _ in 0..<8 {
                guard let index = candidate else { break }
                if controllers[index].phase != .dead,
                   case .to = ControllerAutomaton.outcome(of: event.callback, in: controllers[index].phase) {
                    return index
                }
                candidate = instances.instance(before: index)
            }
        }
        return list.newest
    }

    private func makeInstance(for event: borrowing Event) -> Int {
        let className = names.className(of: event.message) ?? "?"
        let key = InstanceKey(event.message)
        let ordinal = (instances.list(key)?.count ?? 0) + 1
        let address = names.instanceText(event.message)
        var id = address.map { "\(className)@\($0)" } ?? className
        if ordinal > 1 { id += "#\(ordinal)" }
        let index = controllers.count
        controllers.append(ControllerState())
        controllerReports.append(ControllerReport(id: id, className: className, address: address, firstLine: event.line,
                                                  lastLine: event.line, eventCount: 0, events: [], loadToFirstAppearMs: nil,
                                                  appearances: [], finalPhase: .unknown))
        instances.add(index, key)
        return index
    }

    // MARK: TransitionContext

    /// The instance's report id, read in place.
    func name(of controller: Int) -> String { controllerReports[controller].id }

    func phase(of controller: Int) -> ControllerPhase { controllers[controller].phase }

    /// New means its life began with its view loading. When the app logs no viewDidLoad at all, a controller first
    /// seen in the transition counts as new instead.
    func isNew(_ controller: Int, at line: Int) -> Bool {
        // Read in place: a copy of the state would retain its arrays and strings.
        if let appeared = controllers[controller].firstAppearanceLine, appeared < line { return false }
        if controllers[controller].firstCallback?.beginsLife == true { return true }
        return !logsViewLoading && controllerReports[controller].firstLine >= line
    }

    func isChild(_ controller: Int) -> Bool { controllers[controller].isChild }

    func isAnyOtherVisible(excluding excluded: [Int]) -> Bool {
        controllers.indices.contains { !excluded.contains($0) && controllers[$0].phase == .visible && !controllers[$0].isChild }
    }

    func transitionClosed(_ report: consuming TransitionReport, removed: [Int], endMicros: Int64?) {
        if streamsLiveItems { feed.transition(report, session: index, input: input) }
        if let threshold = rules.slowTransitionMs, let duration = report.durationMs, duration > threshold {
            emit(Deviation(
                rule: .slowTransition, line: report.endLine, subject: report.to ?? report.from,
                message: "\(report.kind.rawValue) \(report.controllers.joined(separator: " → ")) took \(JSONValue.format(duration)) ms (threshold \(JSONValue.format(threshold)) ms)",
                expected: "at most \(JSONValue.format(threshold)) ms", actual: "\(JSONValue.format(duration)) ms"))
        }
        for controller in removed where controllers[controller].phase != .dead {
            leaks.arm(LeakWatch.Armed(controller: controller, line: report.endLine, micros: endMicros, kind: report.kind))
        }
        // Last, moved in: a copy would retain the names it holds.
        transitionReports.append(report)
    }

    func transitionDeviation(_ deviation: Deviation) { emit(deviation) }

    // MARK: Findings

    private func classLogsDealloc(_ controller: Int) -> Bool {
        knowledge.logsDealloc(controllerReports[controller].className)
    }

    private func emitLeak(_ leak: LeakWatch.Armed, confirmed: Bool) {
        let name = self.name(of: leak.controller)
        let within = leak.micros == nil ? "before the session ended" : "within \(JSONValue.format(rules.leakTimeoutSeconds)) s"
        emit(Deviation(
            rule: .possibleLeak, line: leak.line, subject: name,
            message: "\(name) left with the \(leak.kind.rawValue) ending here and was not deallocated \(within)"
                + (confirmed ? "" : "; its class never logs dealloc/deinit, so this cannot be confirmed"),
            expected: "dealloc/deinit \(within)", actual: "no dealloc/deinit", cap: confirmed ? nil : .info))
    }

    /// Rules about repeats on one instance are warnings at most when the instance has no address.
    private func identityCap(_ rule: Rule, _ index: Int) -> Severity? {
        controllerReports[index].address == nil && ControllerAutomaton.rulesNeedingIdentity.contains(rule) ? .warning : nil
    }

    private func emit(_ deviations: [Deviation]) {
        for deviation in deviations { emit(deviation) }
    }

    private func emit(_ deviation: Deviation) {
        guard let severity = rules.severity(of: deviation.rule, cappedAt: deviation.cap) else { return }
        let finding = Finding(rule: deviation.rule, severity: severity, input: input, line: deviation.line, session: index,
                              controller: deviation.subject, message: deviation.message,
                              expected: deviation.expected, actual: deviation.actual)
        findings.append(finding)
        feed.finding(finding)
    }

    /// Streams the event when the output wants it live, and keeps its record on `timeline` when the report lists
    /// events.
    private func keep(_ event: borrowing Event, subject: String, on timeline: (EventRecord) -> Void) {
        let live = LiveEvent(line: event.line, time: event.time, offsetMs: milliseconds(from: startMicros, to: eventMicros),
                             callback: event.callback, spelled: names.spelled(event.message))
        if streamsLiveItems { feed.event(live, subject: subject, session: index, input: input) }
        if keepEvents { timeline(live.record) }
    }

    private func violationMessage(_ rule: Rule, callback: Callback, phase: ControllerPhase, name: String) -> String {
        switch rule {
        case .didAppearWithoutWillAppear: return "viewDidAppear on \(name) without a viewWillAppear before it (controller was \(phase.rawValue))"
        case .didDisappearWithoutWillDisappear: return "viewDidDisappear on \(name) without a viewWillDisappear before it (controller was \(phase.rawValue))"
        case .didAppearTwice: return "viewDidAppear on \(name), which is already visible"
        case .unbalancedWillCallback: return "\(callback.rawValue) on \(name), which is already \(phase.rawValue)"
        case .isAppearingOutsideAppearance: return "viewIsAppearing on \(name) outside viewWillAppear … viewDidAppear (controller was \(phase.rawValue))"
        case .appearanceBeforeViewDidLoad: return "\(callback.rawValue) on \(name) before its view was loaded (controller was \(phase.rawValue))"
        case .callbackAfterDealloc: return "\(callback.rawValue) on \(name) after its dealloc/deinit"
        case .viewUnloadedWhileVisible: return "\(callback.rawValue) on \(name) while it is \(phase.rawValue)"
        case .deallocWhileOnScreen: return "\(name) was deallocated while \(phase.rawValue), before its viewDidDisappear"
        default: return "\(callback.rawValue) on \(name): \(rule.summary)"
        }
    }

    private func expectation(_ rule: Rule, callback: Callback) -> String? {
        switch rule {
        case .didAppearWithoutWillAppear, .isAppearingOutsideAppearance: return "viewWillAppear first"
        case .didDisappearWithoutWillDisappear: return "viewWillDisappear first"
        case .didAppearTwice: return "viewWillDisappear before appearing again"
        case .unbalancedWillCallback: return callback == .viewWillAppear ? "viewWillDisappear/viewDidDisappear first" : "viewWillAppear/viewDidAppear first"
        case .appearanceBeforeViewDidLoad: return "viewDidLoad first"
        case .callbackAfterDealloc: return "no callback after dealloc"
        case .viewUnloadedWhileVisible: return "views unloaded only while not on screen"
        case .deallocWhileOnScreen: return "viewWillDisappear and viewDidDisappear before dealloc"
        default: return nil
        }
    }
}

/// What an instance is found by: its class, and what names it in the messages when they do (an address or an id).
private struct InstanceKey: Hashable {
    var className: ClassName?
    var label: InstanceLabel?

    init(_ message: CallbackMessage) {
        className = message.className
        label = message.instance
    }
}

/// Controller instances by what they are found by, as lists linked newest first. Instances found by class alone (the
/// common case) are in a table by class, found without hashing. Everything in it is a plain value: finding an
/// instance copies no storage.
private struct InstanceIndex {
    /// The newest instance with a key, and how many it has.
    struct List {
        var newest: Int
        var count: Int
    }

    private var byClass = ClassTable<List?>(empty: nil)
    private var byKey: [InstanceKey: List] = [:]
    /// By instance: the instance before it with the same key; -1 for the oldest.
    private var previous: [Int] = []

    /// The instances with the key; nil for none.
    @inline(__always)
    func list(_ key: InstanceKey) -> List? {
        if key.label == nil, let className = key.className { return byClass[className] }
        return byKey[key]
    }

    /// The instance before `instance` in its list; nil for the oldest.
    func instance(before instance: Int) -> Int? {
        let before = previous[instance]
        return before >= 0 ? before : nil
    }

    /// Adds an instance, the next number there is.
    mutating func add(_ instance: Int, _ key: InstanceKey) {
        precondition(instance == previous.count, "instances are added in order")
        let list = self.list(key)
        previous.append(list?.newest ?? -1)
        let longer = List(newest: instance, count: (list?.count ?? 0) + 1)
        if key.label == nil, let className = key.className {
            byClass[className] = longer
        } else {
            byKey[key] = longer
        }
    }
}

/// The last three events of a session, for the post-mortem, kept without allocating per event: each as its line and
/// its message, whose names are written only if the post-mortem is. Held as three values, not an array: an array's
/// uniqueness and bounds checks would come with every event.
private struct RecentEvents {
    private typealias Entry = (line: Int, message: CallbackMessage)

    private static let capacity = 3
    private let names: NameTable
    /// Oldest first once full; `next` is where the next entry goes.
    private var entries: (Entry, Entry, Entry)
    private var count = 0
    private var next = 0

    init(names: NameTable) {
        self.names = names
        let empty: Entry = (0, CallbackMessage(callback: .main))
        entries = (empty, empty, empty)
    }

    mutating func note(line: Int, message: CallbackMessage) {
        switch next {
        case 0: entries.0 = (line, message)
        case 1: entries.1 = (line, message)
        default: entries.2 = (line, message)
        }
        if count < RecentEvents.capacity { count += 1 }
        next = next == RecentEvents.capacity - 1 ? 0 : next + 1
    }

    private func entry(at position: Int) -> Entry {
        switch position {
        case 0: entries.0
        case 1: entries.1
        default: entries.2
        }
    }

    var described: String {
        let positions = count < RecentEvents.capacity ? Array(0..<count) : Array(next..<count) + Array(0..<next)
        return positions.map { position in
            let (line, message) = entry(at: position)
            return "line \(line) \(names.className(of: message).map { $0 + " " } ?? "")\(names.spelled(message))"
        }
        .joined(separator: ", ")
    }
}
