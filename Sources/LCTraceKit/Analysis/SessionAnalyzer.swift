/// A lifecycle event as the analysis sees it: one recognised message with where and when it was logged.
public struct LifecycleEvent {
    public var line: Int
    public var micros: Int64?
    public var timeText: String?
    public var message: LifecycleMessage
}

/// One view-controller instance being tracked through a session.
struct ControllerState {
    var report: ControllerReport
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
}

/// Analyses one session: the app-delegate automaton, one automaton per controller instance, and transitions.
/// Findings go to `report` the moment they are decided and are kept in the session's report.
final class SessionAnalyzer {
    let index: Int
    let input: String
    let keepEvents: Bool
    private let report: (Finding) -> Void

    private(set) var process: String?
    private(set) var pid: Int?
    private var startLine: Int
    private var endLine: Int
    private var startMicros: Int64?
    private var startTime: String?
    private var lastMicros: Int64?
    private var endTime: String?

    private var app = AppReport(events: [], eventCount: 0, finalPhase: .unknown)
    private var controllers: [ControllerState] = []
    /// Controller key (address, or class name when no address is logged) → instance indices, oldest first.
    private var instancesByKey: [String: [Int]] = [:]
    private lazy var transitions = TransitionTracker { [unowned self] index, line in
        let state = self.controllers[index]
        if let appeared = state.firstAppearanceLine, appeared < line { return false }
        let creation: Set<Callback> = [.initialize, .loadView, .viewDidLoad]
        return state.report.firstLine >= line || state.firstCallback.map(creation.contains) == true
    }
    private var transitionReports: [TransitionReport] = []
    private var findings: [Finding] = []
    private(set) var sawFinishLaunching = false
    private(set) var eventCount = 0

    init(index: Int, input: String, firstLine: Int, process: String?, pid: Int?, keepEvents: Bool,
         report: @escaping (Finding) -> Void) {
        self.index = index
        self.input = input
        self.startLine = firstLine
        self.endLine = firstLine
        self.process = process
        self.pid = pid
        self.keepEvents = keepEvents
        self.report = report
    }

    func handle(_ event: LifecycleEvent) {
        eventCount += 1
        endLine = event.line
        if let micros = event.micros {
            if startMicros == nil { startMicros = micros; startTime = event.timeText }
            lastMicros = micros
            endTime = event.timeText
        }
        let callback = event.message.callback
        switch callback.family {
        case .controller:
            handleController(event)
        case .application, .scene, .marker:
            handleApplication(event)
        case .intent:
            handleApplication(event)
            if let kind = callback.declaredKind {
                var issues: [TransitionIssue] = []
                transitions.declare(kind, line: event.line, names: name(of:), into: &issues, reports: &transitionReports)
                flush(issues)
            }
        }
    }

    func close() -> SessionReport {
        var issues: [TransitionIssue] = []
        transitions.finish(names: name(of:), into: &issues, reports: &transitionReports, phase: { self.controllers[$0].phase })
        flush(issues)
        return SessionReport(
            index: index, input: input, process: process, pid: pid, startLine: startLine, endLine: endLine,
            startTime: startTime, endTime: endTime, durationMs: milliseconds(from: startMicros, to: lastMicros),
            app: app, controllers: controllers.map { state in
                var report = state.report
                report.finalPhase = state.phase
                return report
            },
            transitions: transitionReports, findings: findings)
    }

    // MARK: App delegate and markers

    private func handleApplication(_ event: LifecycleEvent) {
        let callback = event.message.callback
        if callback == .didFinishLaunching { sawFinishLaunching = true }
        app.eventCount += 1
        if keepEvents { app.events.append(record(event)) }
        guard callback.family == .application else { return }
        let step = AppAutomaton.step(callback, from: app.finalPhase)
        if let rule = step.violation {
            emit(rule, line: event.line, controller: event.message.className ?? "AppDelegate",
                 message: "\(callback.rawValue) while the app is \(app.finalPhase.rawValue)",
                 expected: rule == .backgroundWithoutResignActive ? "applicationWillResignActive first" : "applicationWillEnterForeground first",
                 actual: callback.rawValue)
        }
        app.finalPhase = step.next
    }

    // MARK: View controllers

    private func handleController(_ event: LifecycleEvent) {
        let callback = event.message.callback
        var index = route(event)
        var outcome = ControllerAutomaton.outcome(of: callback, in: controllers[index].phase)
        if outcome == .newInstance {
            index = makeInstance(for: event)
            outcome = ControllerAutomaton.outcome(of: callback, in: .unknown)
        }
        var violated = false
        let name = controllers[index].report.id

        if callback == .viewDidLoad {
            violated = checkViewLoad(index, event: event, outcome: outcome, spawned: &index)
        } else {
            switch outcome {
            case .to(let next):
                controllers[index].phase = next
            case .violation(let rule, let next):
                emit(rule, line: event.line, controller: name,
                     message: violationMessage(rule, callback: callback, phase: controllers[index].phase, name: name),
                     expected: expectation(rule, callback: callback), actual: callback.rawValue)
                controllers[index].phase = next
                violated = true
            case .viewLoadedAgain, .newInstance:
                break
            }
        }
        update(index, with: event, flagged: violated)
        if callback.isAppearanceCallback {
            var issues: [TransitionIssue] = []
            let step = ObservedStep(controller: index, callback: callback, line: event.line, micros: event.micros, timeText: event.timeText)
            transitions.observe(step, violated: violated, phase: { self.controllers[$0].phase }, names: name(of:),
                                into: &issues, reports: &transitionReports)
            flush(issues)
        }
    }

    /// viewDidLoad: legal the first time, legal again after a memory warning or unload, otherwise a deviation.
    /// Returns whether it was one. Without instance addresses a second load is taken as a second instance.
    private func checkViewLoad(_ index: Int, event: LifecycleEvent, outcome: ControllerStepOutcome, spawned: inout Int) -> Bool {
        let state = controllers[index]
        if let early = state.appearanceWithoutLoad, !state.hasLoadedView {
            emit(.appearanceBeforeViewDidLoad, line: event.line, controller: state.report.id,
                 message: "viewDidLoad came after \(early.callback.rawValue) (line \(early.line)) on \(state.report.id)",
                 expected: "viewDidLoad before \(early.callback.rawValue)", actual: "viewDidLoad after \(early.callback.rawValue)")
            markLoaded(index)
            return true
        }
        guard outcome == .viewLoadedAgain else {
            if case .to(let next) = outcome { controllers[index].phase = next }
            markLoaded(index)
            return false
        }
        if state.viewMayBeUnloaded || !state.hasLoadedView {
            markLoaded(index)  // the view was purged (memory warning, viewDidUnload) and is loaded again: legal
            return false
        }
        if state.report.address != nil {
            emit(.viewLoadedTwice, line: event.line, controller: state.report.id,
                 message: "\(state.report.id) loaded its view again with no memory warning or viewDidUnload in between",
                 expected: "one viewDidLoad per view life", actual: "viewDidLoad again")
            markLoaded(index)
            return true
        }
        // No address: two instances of one class are common (ground truth §11.1). Track a new one, and warn.
        spawned = makeInstance(for: event)
        emit(.viewLoadedTwice, severity: .warning, line: event.line, controller: controllers[spawned].report.id,
             message: "\(state.report.className) loaded a view again with no memory warning in between; without instance addresses this is taken as a second instance, \(controllers[spawned].report.id)",
             expected: "one viewDidLoad per view life", actual: "viewDidLoad again")
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
    private func update(_ index: Int, with event: LifecycleEvent, flagged: Bool) {
        let callback = event.message.callback
        var state = controllers[index]
        if state.firstCallback == nil { state.firstCallback = callback }
        if callback.isAppearanceCallback, state.firstAppearanceLine == nil { state.firstAppearanceLine = event.line }
        state.report.eventCount += 1
        state.report.lastLine = event.line
        if keepEvents { state.report.events.append(record(event)) }
        switch callback {
        case .viewDidLoad:
            state.loadMicros = event.micros
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
            if state.report.loadToFirstAppearMs == nil, state.report.appearances.isEmpty {
                state.report.loadToFirstAppearMs = milliseconds(from: state.loadMicros, to: event.micros)
            }
            state.report.appearances.append(AppearanceSpan(appearedLine: event.line))
            state.appearedMicros = event.micros
        }
        if callback == .viewDidDisappear, let last = state.report.appearances.indices.last,
           state.report.appearances[last].disappearedLine == nil {
            state.report.appearances[last].disappearedLine = event.line
            state.report.appearances[last].durationMs = milliseconds(from: state.appearedMicros, to: event.micros)
        }
        controllers[index] = state
    }

    /// The instance a callback belongs to. By address when logged; by class otherwise, where several live
    /// instances of one class are told apart by which of them the callback is legal for (newest first).
    private func route(_ event: LifecycleEvent) -> Int {
        let key = event.message.address ?? event.message.className ?? "?"
        guard let candidates = instancesByKey[key], let newest = candidates.last else {
            return makeInstance(for: event)
        }
        if candidates.count > 1 {
            for index in candidates.reversed().prefix(8) where controllers[index].phase != .dead {
                if case .to = ControllerAutomaton.outcome(of: event.message.callback, in: controllers[index].phase) {
                    return index
                }
            }
        }
        return newest
    }

    private func makeInstance(for event: LifecycleEvent) -> Int {
        let className = event.message.className ?? "?"
        let key = event.message.address ?? className
        let ordinal = (instancesByKey[key]?.count ?? 0) + 1
        var id = event.message.address.map { "\(className)@\($0)" } ?? className
        if ordinal > 1 { id += "#\(ordinal)" }
        let index = controllers.count
        controllers.append(ControllerState(
            report: ControllerReport(id: id, className: className, address: event.message.address, firstLine: event.line,
                                     lastLine: event.line, eventCount: 0, events: [], loadToFirstAppearMs: nil,
                                     appearances: [], finalPhase: .unknown)))
        instancesByKey[key, default: []].append(index)
        return index
    }

    // MARK: Findings

    private func name(of index: Int) -> String { controllers[index].report.id }

    private func flush(_ issues: [TransitionIssue]) {
        for issue in issues {
            emit(issue.rule, line: issue.line, controller: name(of: issue.controller), message: issue.message,
                 expected: issue.expected, actual: issue.actual)
        }
    }

    private func emit(_ rule: Rule, severity: Severity? = nil, line: Int, controller: String?, message: String,
                      expected: String?, actual: String?) {
        let finding = Finding(rule: rule, severity: severity ?? rule.defaultSeverity, input: input, line: line,
                              session: index, controller: controller, message: message, expected: expected, actual: actual)
        findings.append(finding)
        report(finding)
    }

    private func record(_ event: LifecycleEvent) -> EventRecord {
        EventRecord(line: event.line, time: event.timeText, offsetMs: milliseconds(from: startMicros, to: event.micros),
                    callback: event.message.callback, spelled: event.message.spelled)
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
        default: return nil
        }
    }
}
