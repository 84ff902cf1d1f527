/// Several reports from one pass: every call goes to each sink in turn.
///
/// When some of the sinks stream transitions as they are classified (JSON Lines) and others do not, the analysis
/// streams them and leaves them out of the session reports; the fan-out then keeps each open session's transitions
/// (as many as a session report lists) and puts them back into the session reports it hands the other sinks.
public final class ReportFanOut: ReportSink {
    private let sinks: [any ReportSink]
    private let streaming: Bool
    private let listing: Bool
    /// The transitions streamed so far in each open session, by session number, and how many there were.
    private var transitions: [Int: (listed: [TransitionReport], count: Int)] = [:]
    private let listedTransitions = SessionLimits().listedTransitions

    public init(_ sinks: [any ReportSink]) {
        self.sinks = sinks
        streaming = sinks.contains { $0.wantsLiveItems }
        listing = sinks.contains { !$0.wantsLiveItems }
    }

    public func beginInput(_ name: String) { for sink in sinks { sink.beginInput(name) } }
    public func finding(_ finding: Finding) { for sink in sinks { sink.finding(finding) } }
    public var wantsLiveItems: Bool { streaming }
    /// The sessions any of the sinks draws.
    public var timelineSessions: SessionSelection? {
        sinks.compactMap(\.timelineSessions).reduce(nil) { all, drawn in all.map { $0.covering(drawn) } ?? drawn }
    }

    public func event(_ event: EventRecord, subject: String, session: Int, input: String) {
        for sink in sinks where sink.wantsLiveItems { sink.event(event, subject: subject, session: session, input: input) }
    }

    public func transition(_ transition: TransitionReport, session: Int, input: String) {
        for sink in sinks where sink.wantsLiveItems { sink.transition(transition, session: session, input: input) }
        guard listing else { return }
        var kept = transitions[session] ?? ([], 0)
        if kept.listed.count < listedTransitions { kept.listed.append(transition) }
        kept.count += 1
        transitions[session] = kept
    }

    /// Items and sessions are rendered by each sink in turn, never ahead of time for one of them.
    public var liveItemLines: LiveItemLines? { nil }
    public var sessionRendering: SessionRendering? { nil }

    public func sessionClosed(_ session: SessionReport) {
        guard streaming, listing else {
            for sink in sinks { sink.sessionClosed(session) }
            return
        }
        var listed = session
        if let kept = transitions.removeValue(forKey: session.index) {
            listed.transitions = kept.listed
            listed.transitionsNotListed = kept.count - kept.listed.count
        }
        for sink in sinks { sink.sessionClosed(sink.wantsLiveItems ? session : listed) }
    }

    public func endInput(_ summary: InputSummary) { for sink in sinks { sink.endInput(summary) } }
    public func finish(_ summary: RunSummary) { for sink in sinks { sink.finish(summary) } }
}
