/// Where a run's analyzer hands what it reports: the run's reports (`ReportDelivery`), or, on a parallel run's
/// worker, a recording replayed in order later (`Recording`).
protocol RunOutput: AnyObject {
    /// Whether events and transitions are wanted as they happen (a streaming reporter is among the reports).
    var wantsLiveItems: Bool { get }
    /// The sessions whose first events the timeline reports draw; nil when none draws events.
    var timelineSessions: SessionSelection? { get }
    /// Whether anything reads the sessions' reports, or the run's durations, beyond the sessions' counts (a reporter,
    /// or the baseline being written).
    var readsSessions: Bool { get }
    func inputBegan(_ name: String)
    func finding(_ finding: Finding)
    func event(_ event: LiveEvent, subject: String, session: Int, input: String)
    func transition(_ transition: TransitionReport, session: Int, input: String)
    func sessionClosed(_ session: SessionReport)
    func inputEnded(_ summary: InputSummary)
}

/// The reports of a run, written in one pass: every value goes to each reporter in turn, the events and transitions
/// as they happen to the streaming ones; the baseline being written records every finding. (The findings a baseline
/// read knows never reach here: `FindingPolicy` left them out.)
///
/// A single reporter that can render ahead of time (`SessionFormatting`, `StreamingReporter.itemFormatter`) has its
/// sessions and items rendered on a parallel run's workers; several reporters are each written by their own
/// function when the recordings are replayed.
public final class ReportDelivery: RunOutput {
    private let reporters: [any Reporter]
    /// The streaming reporters, each with its live-event entry when it has one (no copy of each event's time).
    private let streaming: [(reporter: any StreamingReporter, live: (any LiveEventSink)?)]
    private let recorder: BaselineRecorder?
    let timelineSessions: SessionSelection?
    /// The single reporter's render-ahead, when it has one.
    let itemFormatter: LiveItemLines?
    let sessionFormatter: SessionFormatter?
    /// Whether a reporter, or the baseline being written, reads the session reports.
    let readsSessions: Bool

    /// `recorder`: records every finding of the run (`--write-baseline`).
    public init(_ reporters: [any Reporter], recorder: BaselineRecorder? = nil) {
        self.reporters = reporters
        self.recorder = recorder
        streaming = reporters.compactMap { reporter in
            (reporter as? any StreamingReporter).map { ($0, reporter as? any LiveEventSink) }
        }
        timelineSessions = reporters.compactMap { ($0 as? any TimelineReporter)?.timelineSessions }
            .reduce(nil) { all, drawn in all.map { $0.covering(drawn) } ?? drawn }
        let single = reporters.count == 1 && recorder == nil ? reporters.first : nil
        itemFormatter = (single as? any StreamingReporter)?.itemFormatter
        sessionFormatter = (single as? any SessionFormatting)?.sessionFormatter
        readsSessions = recorder != nil || reporters.contains { $0.readsSessions }
    }

    var wantsLiveItems: Bool { !streaming.isEmpty }

    func inputBegan(_ name: String) { for reporter in reporters { reporter.inputBegan(name) } }

    func finding(_ finding: Finding) {
        recorder?.record(finding)
        for reporter in reporters { reporter.finding(finding) }
    }

    func event(_ event: LiveEvent, subject: String, session: Int, input: String) {
        for (reporter, live) in streaming {
            if let live {
                live.event(event, subject: subject, session: session, input: input)
            } else {
                reporter.event(event.record, subject: subject, session: session, input: input)
            }
        }
    }

    /// A recorded event (a worker kept its record when no reporter renders events ahead).
    func event(_ event: EventRecord, subject: String, session: Int, input: String) {
        for (reporter, _) in streaming { reporter.event(event, subject: subject, session: session, input: input) }
    }

    func transition(_ transition: TransitionReport, session: Int, input: String) {
        for (reporter, _) in streaming { reporter.transition(transition, session: session, input: input) }
    }

    /// Events and transitions rendered ahead by `itemFormatter`, each of the session `sessionOffset` after its own.
    func write(_ items: ArraySlice<RenderedLiveItem>, sessionOffset: Int) {
        for (reporter, _) in streaming { reporter.write(items, sessionOffset: sessionOffset) }
    }

    func sessionClosed(_ session: SessionReport) {
        recorder?.sessionClosed(session.index)
        for reporter in reporters { reporter.sessionClosed(session) }
    }

    /// A session rendered ahead by `sessionFormatter`.
    func write(_ session: RenderedItem, number: Int) {
        for case let reporter as any SessionFormatting in reporters { reporter.write(session, number: number) }
    }

    func inputEnded(_ summary: InputSummary) {
        recorder?.inputEnded()
        for reporter in reporters { reporter.inputEnded(summary) }
    }

    /// Hands the reporters the run's summary, and returns it.
    func finish(_ summary: RunSummary) -> RunSummary {
        for reporter in reporters { reporter.finish(summary) }
        return summary
    }
}
