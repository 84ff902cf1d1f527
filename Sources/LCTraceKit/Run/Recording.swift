/// Everything a worker's analysis reported, in order.
final class Recording: RunOutput, @unchecked Sendable {
    /// The rare or large items are boxed, so that the many rendered events do not each take the room of a session
    /// report (or of an event record, kept only for reporters that cannot render ahead).
    enum Item {
        indirect case begin(String)
        indirect case finding(Finding)
        indirect case event(EventRecord, subject: String, session: Int, input: String)
        /// An event or transition rendered by the worker (the reporter's `itemFormatter`).
        case rendered(RenderedItem, session: Int)
        indirect case transition(TransitionReport, session: Int, input: String)
        indirect case session(SessionReport)
        /// A session rendered by the worker (the reporter's `sessionFormatter`), numbered as the worker counted, with the
        /// counts the run's summary takes from it.
        case renderedSession(RenderedItem, index: Int, counts: SessionCounts)
        /// What the summary counts of a session no reporter reads (`RenderingAhead.countsSessionsOnly`).
        case countedSession(SessionCounts)
        indirect case end(InputSummary)
    }

    private let ahead: RenderingAhead
    var wantsLiveItems: Bool { ahead.wantsLiveItems }
    var readsSessions: Bool { !ahead.countsSessionsOnly }
    /// None: a worker's sessions are numbered later, so it keeps the first events of every session when the run's
    /// timeline reports draw any (`AnalysisOptions.keepTimelineEvents`, handed to the workers).
    var timelineSessions: SessionSelection? { nil }
    /// Taken from the run's pool: a JSON Lines section records thousands of items, and a new list would be grown
    /// (copied) several times over, into fresh pages, for every section.
    var items: [Item]
    var error: InputFailure?
    /// For a section of a file: its line counts, and what it showed and asked about classes logging dealloc.
    var input: InputSummary?
    var facts: Set<String> = []
    var unknownWhenAsked: Set<String> = []
    /// The durations the worker measured, for the replaying analyzer's percentiles.
    var durations = DurationSamples()

    /// The text items are rendered into on the worker's thread, taken from the run's pool when first needed.
    private var text: ByteBuffer?
    private var renderedText: ByteBuffer {
        if let text { return text }
        let taken = ahead.texts.take()
        text = taken
        return taken
    }

    init(_ ahead: RenderingAhead) {
        self.ahead = ahead
        items = ahead.itemLists.take()
    }

    /// Called once the recording is replayed: its items are dropped, and its list and text go back to the pools.
    func recycle() {
        items.removeAll(keepingCapacity: true)
        ahead.itemLists.give(items)
        items = []
        if let text {
            text.removeAll()
            ahead.texts.give(text)
        }
        text = nil
    }

    func inputBegan(_ name: String) { items.append(.begin(name)) }
    func finding(_ finding: Finding) { items.append(.finding(finding)) }
    func event(_ event: LiveEvent, subject: String, session: Int, input: String) {
        guard let lines = ahead.items else { items.append(.event(event.record, subject: subject, session: session, input: input)); return }
        if let item = lines.event(event, subject: subject, input: input, into: renderedText) {
            items.append(.rendered(item, session: session))
        }
    }
    func transition(_ transition: TransitionReport, session: Int, input: String) {
        guard let lines = ahead.items else { items.append(.transition(transition, session: session, input: input)); return }
        items.append(.rendered(lines.transition(transition, input: input, into: renderedText), session: session))
    }
    /// The session's report is rendered and counted here, on the worker's thread, when the reporter can take it rendered:
    /// the replaying thread then copies bytes and never touches the report.
    func sessionClosed(_ session: SessionReport) {
        if ahead.countsSessionsOnly { items.append(.countedSession(SessionCounts(session))); return }
        guard let formatter = ahead.sessions else { items.append(.session(session)); return }
        items.append(.renderedSession(formatter(session, into: renderedText), index: session.index,
                                      counts: SessionCounts(session)))
    }
    func inputEnded(_ summary: InputSummary) { items.append(.end(summary)) }
}

/// What the workers of a parallel run render ahead of time for the run's reporter, and the texts they render into.
struct RenderingAhead: Sendable {
    let wantsLiveItems: Bool
    let items: LiveItemLines?
    let sessions: SessionFormatter?
    /// No reporter reads the session reports, and the run learns no model: the workers record each session's counts
    /// alone, and free its report on their own thread.
    let countsSessionsOnly: Bool
    let texts = RecyclingPool { ByteBuffer(capacity: 1 << 16) }
    let itemLists = RecyclingPool { [Recording.Item]() }
}

/// Texts and item lists kept from one recording to the next, emptied but with their memory: new ones would be grown
/// into fresh pages, for every section. At most one per recording in flight is kept.
final class RecyclingPool<Value>: @unchecked Sendable {
    private let idle = Lock<[Value]>([])
    private let make: () -> Value

    init(_ make: @escaping () -> Value) { self.make = make }

    func take() -> Value {
        idle.withLock { $0.popLast() } ?? make()
    }

    /// Takes back a value its user has emptied.
    func give(_ value: Value) {
        idle.withLock { $0.append(value) }
    }
}

/// What the run's summary counts of a session: its controllers, its SwiftUI views, its transitions and the findings
/// the baseline knew.
struct SessionCounts {
    var controllers: Int
    var views: Int
    var transitions: Int
    var findingsInBaseline: Int

    init(_ report: SessionReport) {
        findingsInBaseline = report.findingsInBaseline
        views = report.viewCount
        controllers = report.controllerCount - views
        transitions = report.transitionCount
    }
}
