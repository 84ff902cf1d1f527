/// A session laid out on tracks, for the reports that draw it (`chrome-trace`, `html`): one track for the app
/// delegate, one for the scenes, one per controller instance and one or more for the transitions; on each, spans
/// that nest strictly (a controller's life holds its appearance states, which never overlap) and marks; the
/// transitions as connectors between tracks; the findings as marks on the track of what they are about.
///
/// Times are ticks from the session's start: microseconds since its first timestamp, or, when the log has no
/// timestamps, lines since its first line.
///
/// A session of more than `SessionLimits.timelineEvents` events is drawn up to the first event past them (its
/// report's `timelineCut`), the first one the analysis does not keep for the timelines, whatever else it keeps (the
/// drawing is the same with or without a report that keeps every event): nothing from that line on is drawn, the
/// timeline ends before it, and what was left out is counted.
public struct SessionTimeline: Sendable {
    public enum Clock: String, Sendable {
        /// Microseconds since the session's first timestamp.
        case microseconds = "us"
        /// Lines since the session's first line: the log has no timestamps.
        case lines
    }

    public enum TrackKind: String, Sendable {
        case app, scene, controller, transitions
    }

    public struct Span: Sendable, Equatable {
        public var name: String
        public var start: Int64
        public var end: Int64
        public var startLine: Int
        public var endLine: Int
        /// 0 for a controller's life and every span of the other tracks; 1 for a controller's appearance states.
        public var depth: Int
        /// Still going when the session ended: it ends with the session.
        public var open: Bool
    }

    /// A callback worth a tick on its track (viewDidLoad, dealloc, main(), a memory warning…).
    public struct Mark: Sendable, Equatable {
        public var name: String
        public var at: Int64
        public var line: Int
    }

    public struct Track: Sendable {
        /// The track's position in `tracks`.
        public var id: Int
        public var name: String
        public var kind: TrackKind
        /// What the track is about, in a few words (class, identity, final phase).
        public var detail: String?
        public var spans: [Span] = []
        public var marks: [Mark] = []
    }

    /// A transition between the tracks of its outgoing and incoming controllers, drawn on a transitions track.
    public struct Connector: Sendable {
        public var transition: TransitionReport
        public var from: Int?
        public var to: Int?
        /// The transitions track it is drawn on.
        public var track: Int
        public var start: Int64
        public var end: Int64
    }

    public struct FindingMark: Sendable {
        public var finding: Finding
        public var track: Int
        public var at: Int64
    }

    /// What a track may hold: the rest is counted in `itemsNotDrawn`.
    public static let spansPerTrack = 3_000
    public static let marksPerTrack = 1_000

    public var index: Int
    public var title: String
    public var clock: Clock
    /// The session's last tick.
    public var end: Int64
    public var tracks: [Track] = []
    public var connectors: [Connector] = []
    public var findings: [FindingMark] = []
    /// Controllers the session report does not list (summed up by class), and transitions and findings after the
    /// ones it lists.
    public var controllersNotDrawn: Int
    public var transitionsNotDrawn: Int
    public var findingsNotDrawn: Int
    /// Spans and marks past a track's caps.
    public var itemsNotDrawn = 0
    /// The line from which on nothing is drawn, and the session's events from there on (`SessionReport.timelineCut`);
    /// nil and 0 when every event is drawn. Controllers first seen, transitions ending and findings made from that line
    /// on are counted in `controllersNotDrawn`, `transitionsNotDrawn` and `findingsNotDrawn`.
    public var cut: Int?
    public var eventsNotDrawn: Int
    /// The last line drawn: the session's last, or the one before `cut`.
    public var endLine: Int

    /// `Process[pid] · session N`, or `session N` when the log names no process.
    public static func title(of session: SessionReport) -> String {
        guard let process = session.process else { return "session \(session.index)" }
        return (session.pid.map { "\(process)[\($0)]" } ?? process) + " · session \(session.index)"
    }

    public init(_ session: SessionReport) {
        index = session.index
        title = SessionTimeline.title(of: session)
        controllersNotDrawn = session.controllerCount - session.controllers.count
        transitionsNotDrawn = session.transitionsNotListed
        findingsNotDrawn = session.findingsNotListed
        cut = session.timelineCut
        eventsNotDrawn = session.eventsPastTimelineCut
        endLine = session.timelineCut.map { $0 - 1 } ?? session.endLine
        let ticks = Ticks(session)
        clock = ticks.clock
        end = ticks.end
        var controllers = session.controllers, drawnFindings = session.findings
        if let cut {
            controllers.removeAll { $0.firstLine >= cut }
            drawnFindings.removeAll { $0.line >= cut }
            controllersNotDrawn += session.controllers.count - controllers.count
            findingsNotDrawn += session.findings.count - drawnFindings.count
        }
        let listed = Set(controllers.map(\.id))
        // A finding about no controller drawn is drawn on the App track, which it needs even if the app logged nothing.
        let findingNeedsApp = drawnFindings.contains { finding in finding.controller.map { !listed.contains($0) } ?? true }
        layOutApp(session, ticks, evenWithoutEvents: findingNeedsApp)
        var trackOfController: [String: Int] = [:]
        for controller in controllers {
            trackOfController[controller.id] = tracks.count
            layOut(controller, ticks)
        }
        layOutTransitions(session.transitions, ticks, trackOfController)
        for finding in drawnFindings {
            let track = finding.controller.flatMap { trackOfController[$0] } ?? 0
            findings.append(FindingMark(finding: finding, track: track, at: ticks.tick(atLine: finding.line)))
        }
    }

    /// The events of `events` (in the order of their lines) that are drawn: those before the cut.
    static func drawn(_ events: [EventRecord], before cut: Int?) -> ArraySlice<EventRecord> {
        guard let cut else { return events[...] }
        return events.prefix { $0.line < cut }
    }

    // MARK: Layout

    /// The app's phases on the App track, the scenes' on the Scene track (all scenes on one: their callbacks do not
    /// say which scene they were for), the markers as marks on the App track.
    private mutating func layOutApp(_ session: SessionReport, _ ticks: Ticks, evenWithoutEvents: Bool) {
        let events = SessionTimeline.drawn(session.app.events, before: cut)
        guard !events.isEmpty || evenWithoutEvents else { return }
        var app = PhaseLane(), scene = PhaseLane()
        var marks: [Mark] = []
        for event in events {
            let at = ticks.tick(atLine: event.line)
            if let step = ActivityStep(event.callback) {
                if event.callback.family == .scene {
                    scene.enter(step.implied, at: at, line: event.line)
                } else {
                    app.enter(step.implied, at: at, line: event.line)
                }
            } else if TimelineMarks.marked.contains(event.callback) {
                marks.append(Mark(name: event.spelled, at: at, line: event.line))
            }
        }
        let appTrack = Track(id: tracks.count, name: "App", kind: .app, detail: "final phase \(session.app.finalPhase.rawValue)")
        tracks.append(appTrack)
        add(app.spans(end: end, endLine: endLine), marks: marks, to: appTrack.id)
        guard !scene.isEmpty else { return }
        let names = session.scenes.map(\.id)
        let detail = names.count > 1 ? "\(names.count) scenes: " + names.joined(separator: ", ") : names.first
        tracks.append(Track(id: tracks.count, name: names.count > 1 ? "Scenes" : "Scene", kind: .scene, detail: detail))
        add(scene.spans(end: end, endLine: endLine), marks: [], to: tracks.count - 1)
    }

    /// A controller's life (first callback to dealloc, or to the end of the session while it lives; to the end of the
    /// timeline when it goes on past the cut) and, inside it, its appearance states.
    private mutating func layOut(_ controller: ControllerReport, _ ticks: Ticks) {
        let id = tracks.count
        let detail = (controller.kind == .view ? "SwiftUI view " : "") + "\(controller.className) · identity \(controller.identity.rawValue) · final phase \(controller.finalPhase.rawValue)"
        tracks.append(Track(id: id, name: controller.id, kind: .controller, detail: detail))
        let events = SessionTimeline.drawn(controller.events, before: cut)
        guard let first = events.first, let last = events.last else { return }
        let alive = controller.finalPhase != .dead || controller.lastLine > endLine
        let lifeEnd = alive ? end : ticks.tick(atLine: last.line)
        let lifeEndLine = alive ? min(max(last.line, controller.lastLine), endLine) : last.line
        var spans = [Span(name: controller.id, start: ticks.tick(atLine: first.line), end: lifeEnd, startLine: first.line,
                          endLine: lifeEndLine, depth: 0, open: alive)]
        var marks: [Mark] = []
        var state: (name: String, start: Int64, line: Int)?
        for event in events {
            let at = ticks.tick(atLine: event.line)
            if let next = TimelineMarks.appearanceState[event.callback] {
                if let open = state {
                    spans.append(Span(name: open.name, start: open.start, end: at, startLine: open.line, endLine: event.line, depth: 1, open: false))
                }
                state = next.map { ($0, at, event.line) }
            }
            if TimelineMarks.marked.contains(event.callback) {
                marks.append(Mark(name: event.spelled, at: at, line: event.line))
            }
        }
        if let open = state {
            spans.append(Span(name: open.name, start: open.start, end: lifeEnd, startLine: open.line, endLine: lifeEndLine, depth: 1, open: true))
        }
        add(spans, marks: marks, to: id)
    }

    /// Each transition as a span on the first transitions track where it does not overlap the one before, and as
    /// a connector from its outgoing controller's track to its incoming one's.
    private mutating func layOutTransitions(_ transitions: [TransitionReport], _ ticks: Ticks, _ trackOfController: [String: Int]) {
        var lanes: [(track: Int, end: Int64)] = []
        for transition in transitions {
            if let cut, transition.endLine >= cut {
                transitionsNotDrawn += 1
                continue
            }
            let start = ticks.tick(atLine: transition.startLine), end = max(start, ticks.tick(atLine: transition.endLine))
            let lane: Int
            if let free = lanes.firstIndex(where: { $0.end <= start }) {
                lane = free
            } else {
                lane = lanes.count
                let name = lane == 0 ? "Transitions" : "Transitions \(lane + 1)"
                tracks.append(Track(id: tracks.count, name: name, kind: .transitions, detail: nil))
                lanes.append((tracks.count - 1, end))
            }
            lanes[lane].end = end
            let track = lanes[lane].track
            let span = Span(name: transition.kind.rawValue, start: start, end: end, startLine: transition.startLine,
                            endLine: transition.endLine, depth: 0, open: false)
            if tracks[track].spans.count < SessionTimeline.spansPerTrack {
                tracks[track].spans.append(span)
                connectors.append(Connector(transition: transition, from: transition.from.flatMap { trackOfController[$0] },
                                            to: transition.to.flatMap { trackOfController[$0] }, track: track, start: start, end: end))
            } else {
                transitionsNotDrawn += 1
            }
        }
    }

    private mutating func add(_ spans: [Span], marks: [Mark], to track: Int) {
        tracks[track].spans = Array(spans.prefix(SessionTimeline.spansPerTrack))
        tracks[track].marks = Array(marks.prefix(SessionTimeline.marksPerTrack))
        itemsNotDrawn += max(0, spans.count - SessionTimeline.spansPerTrack) + max(0, marks.count - SessionTimeline.marksPerTrack)
    }

    /// One lane of app or scene phases: each phase from the callback that led to it to the next one.
    private struct PhaseLane {
        private var entered: [(phase: ActivityPhase, at: Int64, line: Int)] = []

        var isEmpty: Bool { entered.isEmpty }

        mutating func enter(_ phase: ActivityPhase, at: Int64, line: Int) {
            entered.append((phase, at, line))
        }

        func spans(end: Int64, endLine: Int) -> [Span] {
            entered.indices.map { index in
                let phase = entered[index]
                let next = index + 1 < entered.count ? entered[index + 1] : nil
                let ends = phase.phase == .terminated || phase.phase == .disconnected
                return Span(name: phase.phase.rawValue, start: phase.at, end: next?.at ?? (ends ? phase.at : end),
                            startLine: phase.line, endLine: next?.line ?? (ends ? phase.line : endLine), depth: 0,
                            open: next == nil && !ends)
            }
        }
    }
}

/// The session's clock: the tick of each line, from the times of the events at or before it.
struct Ticks {
    let clock: SessionTimeline.Clock
    /// Event lines in order, and their ticks (never going back).
    private var lines: [Int] = []
    private var ticks: [Int64] = []
    private let startLine: Int
    let end: Int64

    /// The clock of the events drawn: those before the session's `timelineCut`.
    init(_ session: SessionReport) {
        startLine = session.startLine
        let cut = session.timelineCut
        var timed: [(line: Int, offsetMs: Double?)] = SessionTimeline.drawn(session.app.events, before: cut).map { ($0.line, $0.offsetMs) }
        for controller in session.controllers {
            timed += SessionTimeline.drawn(controller.events, before: cut).lazy.map { ($0.line, $0.offsetMs) }
        }
        timed.sort { $0.line < $1.line }
        clock = timed.contains { $0.offsetMs != nil } ? .microseconds : .lines
        var last: Int64 = 0
        lines.reserveCapacity(timed.count)
        ticks.reserveCapacity(timed.count)
        for event in timed {
            let tick: Int64
            switch clock {
            case .microseconds: tick = event.offsetMs.map { Int64(($0 * 1000).rounded()) } ?? last
            case .lines: tick = Int64(event.line - session.startLine)
            }
            last = max(last, tick)
            lines.append(event.line)
            ticks.append(last)
        }
        switch clock {
        case .microseconds: end = cut == nil ? max(last, session.durationMs.map { Int64(($0 * 1000).rounded()) } ?? 0) : last
        case .lines: end = Int64((cut.map { $0 - 1 } ?? session.endLine) - session.startLine)
        }
    }

    /// The tick of `line`: the tick of the last event at or before it (line ticks count every line).
    func tick(atLine line: Int) -> Int64 {
        if clock == .lines { return Int64(max(0, line - startLine)) }
        var low = 0, high = lines.count
        while low < high {
            let middle = (low + high) / 2
            if lines[middle] <= line { low = middle + 1 } else { high = middle }
        }
        return low == 0 ? 0 : ticks[low - 1]
    }
}

/// What the pictures draw of each callback.
enum TimelineMarks {
    /// The appearance callbacks, and the state a controller's track shows from each on (nil: none).
    static let appearanceState: [Callback: String?] = [
        .viewWillAppear: "appearing",
        .viewDidAppear: "visible",
        .viewWillDisappear: "disappearing",
        .viewDidDisappear: nil,
        .dealloc: nil,
    ]

    /// Callbacks drawn as a tick on their track; the others (layout, the appearance callbacks, which draw the states)
    /// are not.
    static let marked: Set<Callback> = [
        .initialize, .loadView, .viewDidLoad, .viewIsAppearing, .didReceiveMemoryWarning, .viewWillUnload, .viewDidUnload,
        .willMoveToParentViewController, .didMoveToParentViewController, .beginAppearanceTransition,
        .endAppearanceTransition, .dealloc, .unbalancedAppearanceNotice, .appearanceCalledDirectlyNotice,
        .presentNotInWindowNotice, .presentWhilePresentingNotice, .presentWhileTransitioningNotice,
        .dismissWhileTransitioningNotice, .presentOnDetachedNotice, .presentAlreadyPresentedNotice,
        .applicationDidReceiveMemoryWarning, .configurationForConnecting,
        .didDiscardSceneSessions, .main, .receivedMemoryWarning,
    ]
}
