/// Several reports from one pass: every call goes to each sink in turn.
public final class ReportFanOut: ReportSink {
    private let sinks: [any ReportSink]

    public init(_ sinks: [any ReportSink]) {
        self.sinks = sinks
    }

    public func beginInput(_ name: String) { for sink in sinks { sink.beginInput(name) } }
    public func finding(_ finding: Finding) { for sink in sinks { sink.finding(finding) } }
    public var wantsLiveItems: Bool { sinks.contains { $0.wantsLiveItems } }

    public func event(_ event: EventRecord, subject: String, session: Int, input: String) {
        for sink in sinks where sink.wantsLiveItems { sink.event(event, subject: subject, session: session, input: input) }
    }

    public func transition(_ transition: TransitionReport, session: Int, input: String) {
        for sink in sinks where sink.wantsLiveItems { sink.transition(transition, session: session, input: input) }
    }

    /// Items and sessions are rendered by each sink in turn, never ahead of time for one of them.
    public var liveItemLines: LiveItemLines? { nil }
    public var sessionRendering: SessionRendering? { nil }

    public func sessionClosed(_ session: SessionReport) { for sink in sinks { sink.sessionClosed(session) } }
    public func endInput(_ summary: InputSummary) { for sink in sinks { sink.endInput(summary) } }
    public func finish(_ summary: RunSummary) { for sink in sinks { sink.finish(summary) } }
}
