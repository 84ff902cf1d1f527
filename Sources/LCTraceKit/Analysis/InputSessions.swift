/// The sessions of one input: each event read goes to the session of its app launch.
///
/// Each app launch is a session. Lines of several processes may be interleaved in one file (an app and its
/// extension, two apps in one system log), so each process id has its own open session: a line of another open
/// process goes to that process's session. A new process id opens a session; it ends the open session of a process
/// of the same name (the app was launched again) or with no name to tell them apart. `main()` ends every open session
/// of the input, which is what lets a long file be cut into sections at its `main()` lines.
///
/// Sessions are numbered across the run in the order they open, after the `sessionsBefore` the run had before this
/// input; each closed session's report goes to the output.
final class InputSessions: EventReceiver {
    /// At most this many sessions are open at once; opening one more ends the one idle longest.
    static let maxOpenSessions = 8

    let name: String
    private let output: any AnalysisOutput
    private let settings: SessionSettings
    /// Sessions of the run before this input, and of this input closed so far.
    private let sessionsBefore: Int
    private var closed = 0
    private let names: NameTable
    /// The ids of controller instances, kept for all the input's sessions.
    private let instanceNames: InstanceNames
    let knowledge: InputKnowledge
    // Which session an event goes to is read and changed on every event (below, to `classFilter`), and is not
    // checked for exclusive access at run time, where each check costs a call into the runtime: only this object's
    // methods touch it, on one thread, and a session they hand an event to cannot reach it.
    /// The open sessions, in the order they opened; `current` is the one the last event went to.
    @exclusivity(unchecked) private var open: [OpenSession] = []
    @exclusivity(unchecked) private var current = 0 {
        didSet {
            currentSession = open[current].analyzer
            currentPid = open[current].analyzer.pid
        }
    }
    /// The current session, its process id and its class filter (the other open sessions keep theirs in `open`).
    @exclusivity(unchecked) private var currentSession: SessionAnalyzer?
    @exclusivity(unchecked) private var currentPid: Int?
    @exclusivity(unchecked) private var classFilter = ControllerClassFilter()
    /// How often time went back in the input's sessions, and the first line where it did.
    private(set) var timeStepsBack = 0
    private(set) var firstTimeStepBack: Int?

    init(name: String, names: NameTable, knowledge: InputKnowledge, settings: SessionSettings, sessionsBefore: Int,
         output: any AnalysisOutput) {
        self.name = name
        self.output = output
        self.settings = settings
        self.sessionsBefore = sessionsBefore
        self.names = names
        self.instanceNames = InstanceNames(names: names)
        self.knowledge = knowledge
    }

    /// Ends every open session: the input ended.
    func finish() {
        closeAll()
    }

    func take(_ event: consuming Event) -> Bool {
        let callback = event.callback
        // The common case first: an event of the current session's process that cannot start a launch.
        let route = event.pid == currentPid && currentSession != nil && callback != .main && callback != .didFinishLaunching
            && callback != .willFinishLaunching
            ? .current
            : currentSession.map { InputSessions.route(from: $0, callback: callback, pid: event.pid) } ?? .open
        let target: Int? = switch route {
        case .current: current
        case .other(let pid): open.firstIndex { $0.analyzer.pid == pid }
        case .open, .openAfterAll, .openAfterCurrent: nil
        }
        let className = event.message.className
        if callback.family == .controller, callback.isSharedWithOtherClasses,
           !(className.map { acceptsShared($0, session: target) } ?? false) {
            return false
        }
        if let target {
            if target != current { switchSession(to: target) }
        } else {
            openSession(route, process: event.process.map { names[$0] }, pid: event.pid, line: event.line, callback: callback)
        }
        if callback.family == .controller, !callback.isSharedWithOtherClasses, let className {
            classFilter.noteControllerCallback(className)
        }
        // Held by `open` while it takes the event (a session cannot reach this object to close it): called without a
        // retain and release of its own, about 28 instructions a line of an app's log.
        Unmanaged.passUnretained(currentSession!)._withUnsafeGuaranteedRef { $0.handle(event) }
        return true
    }

    /// Whether an init or dealloc belongs to a view controller, from what the open session it goes to knows (nil: it
    /// opens a new session, which knows nothing yet).
    private func acceptsShared(_ className: ClassName, session: Int?) -> Bool {
        guard let session else {
            var fresh = ControllerClassFilter()
            return fresh.acceptsShared(className, names: names)
        }
        if session == current { return classFilter.acceptsShared(className, names: names) }
        return open[session].classFilter.acceptsShared(className, names: names)
    }

    /// Makes the open session at `index` the current one, its class filter with it.
    private func switchSession(to index: Int) {
        swap(&classFilter, &open[current].classFilter)
        swap(&classFilter, &open[index].classFilter)
        current = index
    }

    /// Where an event goes, seen from the current session.
    private enum Route {
        /// The current session (the common case, decided first).
        case current
        /// The open session of another process, if one is open for this id; otherwise a new session.
        case other(pid: Int)
        /// A new session (there is none yet).
        case open
        /// A new session after every open one ends: `main()`.
        case openAfterAll
        /// A new session after the current one ends: a second launch in a log with no process ids.
        case openAfterCurrent
    }

    /// `main()` starts a new app launch, and so does a willFinishLaunching or didFinishLaunching after
    /// didFinishLaunching when the format has no process id to tell launches apart. An event of another process id
    /// belongs to that process's session.
    private static func route(from session: SessionAnalyzer, callback: Callback, pid: Int?) -> Route {
        if callback == .main { return session.eventCount > 0 ? .openAfterAll : .current }
        if let pid, let current = session.pid { return pid == current ? .current : .other(pid: pid) }
        if pid == nil, callback == .didFinishLaunching || callback == .willFinishLaunching {
            return session.sawFinishLaunching ? .openAfterCurrent : .current
        }
        return .current
    }

    /// Opens the session an event starts, first ending the sessions it ends (`route`).
    private func openSession(_ route: Route, process: String?, pid: Int?, line: Int, callback: Callback) {
        // The current session's class filter goes back to it, in case it stays open.
        if !open.isEmpty { swap(&classFilter, &open[current].classFilter) }
        var launchFollows = false
        var expected = open.isEmpty ? SessionAnalyzer.Size() : open[current].analyzer.size
        switch route {
        case .current:
            preconditionFailure("an event for the current session opens none")
        case .open:
            break
        case .openAfterAll:
            launchFollows = true
            closeAll()
        case .openAfterCurrent:
            launchFollows = true
            close(at: current)
        case .other:
            // Another process: the open session of a process with the same name (or no name) was an earlier launch.
            for index in open.indices.reversed() where open[index].analyzer.process == nil || process == nil
                || open[index].analyzer.process == process {
                expected = open[index].analyzer.size
                launchFollows = true
                close(at: index)
            }
            if open.count >= InputSessions.maxOpenSessions, let idle = open.indices.min(by: { open[$0].analyzer.endLine < open[$1].analyzer.endLine }) {
                close(at: idle)
            }
        }
        // The process's start is in the log when main() opens the session, or a launch follows another. The sessions
        // open besides it opened before it: its number comes after theirs and the closed ones'.
        let index = sessionsBefore + closed + open.count + 1
        let session = SessionAnalyzer(index: index, input: name, firstLine: line, process: process, pid: pid,
                                      launchLogged: callback == .main || launchFollows, keepEvents: settings.keepEvents,
                                      timelineEvents: settings.keepsTimelineEvents(ofSession: index),
                                      reportIsRead: settings.reportsAreRead, policy: settings.policy,
                                      limits: settings.limits, knowledge: knowledge, names: names, instanceNames: instanceNames,
                                      output: output,
                                      expected: expected)
        open.append(OpenSession(analyzer: session))
        classFilter = ControllerClassFilter()
        current = open.count - 1
    }

    private func close(at index: Int) {
        let closing = open.remove(at: index)
        end(closing.analyzer)
        if open.isEmpty {
            currentSession = nil
            currentPid = nil
        } else if current >= index {
            current = max(0, current - 1)
        }
    }

    /// Ends every open session, in the order they opened.
    private func closeAll() {
        for session in open { end(session.analyzer) }
        open.removeAll(keepingCapacity: true)
        currentSession = nil
        currentPid = nil
    }

    private func end(_ session: SessionAnalyzer) {
        if session.timeStepsBack > 0 {
            timeStepsBack += session.timeStepsBack
            if firstTimeStepBack.map({ $0 > session.firstTimeStepBack! }) ?? true {
                firstTimeStepBack = session.firstTimeStepBack
            }
        }
        closed += 1
        output.sessionClosed(session.close())
    }
}

/// A session still taking events, with what is known of its classes.
private struct OpenSession {
    let analyzer: SessionAnalyzer
    /// Whether init and dealloc belong to a view controller, from what this launch logged (while the session is not
    /// the current one: the current session's is `InputSessions.classFilter`).
    var classFilter = ControllerClassFilter()
}

/// How the sessions of a run are analysed, the same for each: what their reports keep, and which findings they admit.
struct SessionSettings {
    /// Every event on the timelines.
    var keepEvents: Bool
    /// The events the timeline reports draw (`SessionLimits.timelineEvents` of each session), of the sessions they draw:
    /// nil, all (a worker's, numbered later).
    var keepTimelineEvents: Bool
    var timelineSessions: SessionSelection?
    /// Whether anything reads the sessions' reports and the run's durations beyond the sessions' counts: when nothing
    /// does, a session lists no transitions and keeps no appearances, and no duration is measured.
    var reportsAreRead = true
    var policy: FindingPolicy
    var limits: SessionLimits

    func keepsTimelineEvents(ofSession index: Int) -> Bool {
        keepTimelineEvents && (timelineSessions?.contains(index) ?? true)
    }
}
