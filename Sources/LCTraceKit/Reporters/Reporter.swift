/// A report, written from values the run hands it as they are decided: each finding as soon as it is admitted, each
/// session's final report when it closes (its transitions, its findings and their counts), the run's summary at the
/// end, and the beginning and end of each input. A reporter decides what to write and where; when the values come,
/// in which order and on which thread is the run's business (`Run/`), so every reporter is written the same way
/// whether the run is sequential or parallel, live or not.
///
/// Only `finding` and `finish` must be written: most reports are made of the findings and the run's summary, and a
/// reporter has nothing to do by default when an input begins or ends or a session closes.
public protocol Reporter: AnyObject {
    /// A finding, as soon as it is admitted (its severity set, and not known to a baseline).
    func finding(_ finding: Finding)
    /// The run is over.
    func finish(_ summary: RunSummary)
    /// An input is about to be read.
    func inputBegan(_ name: String)
    /// A session ended (the next one began, or its input ended); its report is final.
    func sessionClosed(_ session: SessionReport)
    /// An input was read to its end.
    func inputEnded(_ summary: InputSummary)
    /// Whether it reads the session reports handed to `sessionClosed`, or the run's durations (`RunSummary`'s
    /// percentiles). When no reporter of a run does (and no baseline is written, no model learned), the sessions list
    /// no transitions and keep no appearances, no duration is measured, and a parallel run's workers hand on only
    /// what the summary counts of each session.
    var readsSessions: Bool { get }
}

extension Reporter {
    public func inputBegan(_ name: String) {}
    public func sessionClosed(_ session: SessionReport) {}
    public func inputEnded(_ summary: InputSummary) {}
    public var readsSessions: Bool { true }
}

/// A reporter that also writes each event and transition as it happens (JSON Lines). The session reports it is
/// handed list their transitions as every reporter's do; it leaves out what it streamed already.
public protocol StreamingReporter: Reporter {
    /// One event, as it is read; `subject` is the controller, scene or `App` it belongs to.
    func event(_ event: EventRecord, subject: String, session: Int, input: String)
    /// A transition, as soon as it is classified.
    func transition(_ transition: TransitionReport, session: Int, input: String)
    /// How its events and transitions are rendered ahead of time on a parallel run's workers, but for their
    /// session number, which the ordered replay writes (`write(_:session:)`).
    var itemFormatter: LiveItemLines { get }
    /// An event or transition rendered ahead by `itemFormatter`, now that its session number is known.
    func write(_ item: RenderedItem, session: Int)
    /// Events and transitions rendered ahead by `itemFormatter`, in order, each of the session `sessionOffset` after
    /// its own number (`RenderedLiveItem.session`): a parallel run's replay hands over each run of them a worker
    /// rendered between two other items.
    func write(_ items: ArraySlice<RenderedLiveItem>, sessionOffset: Int)
}

extension StreamingReporter {
    public func write(_ items: ArraySlice<RenderedLiveItem>, sessionOffset: Int) {
        for rendered in items { write(rendered.item, session: rendered.session + sessionOffset) }
    }
}

/// A reporter whose session reports can be rendered ahead of time on a parallel run's workers: the formatter is a
/// pure function of the session, and the number it writes into its slot is patched by the ordered replay.
public protocol SessionFormatting: Reporter {
    var sessionFormatter: SessionFormatter { get }
    /// A session rendered ahead by `sessionFormatter`, now that its number is known: in place of `sessionClosed`.
    func write(_ session: RenderedItem, number: Int)
}

/// A reporter that draws sessions' events as timelines (`chrome-trace`, `html`, `mermaid`).
public protocol TimelineReporter: Reporter {
    /// The sessions it draws, from the first `SessionLimits.timelineEvents` events of each: the analysis keeps those
    /// for it even when it keeps no other events (`AnalysisOptions.keepEvents`), and none for the sessions it does
    /// not draw. Nil when it draws no events.
    var timelineSessions: SessionSelection? { get }
}
