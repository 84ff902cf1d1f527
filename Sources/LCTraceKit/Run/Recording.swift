/// Everything a worker's analysis reported, in order: the events and transitions it rendered ahead (`renderedItems`),
/// and the other items among them (`items`).
final class Recording: RunOutput, @unchecked Sendable {
    /// The rare or large items are boxed, so that a list of them takes no more room for each than a session's counts
    /// or a rendered session do, not the room of a session report or an event record.
    enum Item {
        indirect case begin(String)
        indirect case finding(Finding)
        indirect case event(EventRecord, subject: String, session: Int, input: String)
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
    /// The items but the rendered events and transitions. Taken from the run's pool, as the other lists are: a new list
    /// would be grown (copied) several times over, into fresh pages, for every section.
    ///
    /// The three lists' exclusive access is not checked at run time (about 65 instructions an append; `renderedItems`
    /// takes one on every event of a JSON Lines run): only the worker that analyses the section appends to them,
    /// through the methods below, which call nothing that could reach the recording while they append; the
    /// replaying thread reads them only once the worker has handed the recording over (through the run's ordered
    /// pool, under its lock), and empties them (`recycle`) after.
    @exclusivity(unchecked) private(set) var items: [Item]
    /// The events and transitions rendered by the worker (the reporter's `itemFormatter`), in order: a JSON Lines
    /// section records thousands, replayed a run at a time.
    @exclusivity(unchecked) private(set) var renderedItems: [RenderedLiveItem]
    /// How many of `renderedItems` come before each of `items`: the replay writes them before it.
    @exclusivity(unchecked) private(set) var renderedBefore: [Int]
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
        renderedItems = ahead.renderedLists.take()
        renderedBefore = ahead.renderedBeforeLists.take()
    }

    /// Called once the recording is replayed: its items are dropped, and its lists and text go back to the pools.
    func recycle() {
        Recording.giveBack(&items, to: ahead.itemLists)
        Recording.giveBack(&renderedItems, to: ahead.renderedLists)
        Recording.giveBack(&renderedBefore, to: ahead.renderedBeforeLists)
        if let text {
            text.removeAll()
            ahead.texts.give(text)
        }
        text = nil
    }

    /// Empties `list`, keeping its memory, and hands it back to `pool`.
    private static func giveBack<Element>(_ list: inout [Element], to pool: RecyclingPool<[Element]>) {
        list.removeAll(keepingCapacity: true)
        pool.give(list)
        list = []
    }

    func inputBegan(_ name: String) { record(.begin(name)) }
    func finding(_ finding: Finding) { record(.finding(finding)) }
    func event(_ event: LiveEvent, subject: String, session: Int, input: String) {
        guard let lines = ahead.items else { record(.event(event.record, subject: subject, session: session, input: input)); return }
        let item = withRenderedText { lines.event(event, subject: subject, input: input, into: $0) }
        if let item { append(item, session: session) }
    }
    func transition(_ transition: TransitionReport, session: Int, input: String) {
        guard let lines = ahead.items else { record(.transition(transition, session: session, input: input)); return }
        append(withRenderedText { lines.transition(transition, input: input, into: $0) }, session: session)
    }

    /// Lends `body` the text items are rendered into without a retain and release of its own (two atomic operations
    /// for every event and transition a parallel JSON Lines run renders): the recording holds the text, and nothing
    /// that renders an item can reach the recording to let it go. (`_withUnsafeGuaranteedRef`, as the input's sessions
    /// lend the current session.)
    @inline(__always)
    private func withRenderedText<Result>(_ body: (ByteBuffer) -> Result) -> Result {
        Unmanaged.passUnretained(renderedText)._withUnsafeGuaranteedRef(body)
    }

    /// Appends a rendered event or transition.
    @inline(__always)
    private func append(_ item: RenderedItem, session: Int) {
        renderedItems.append(RenderedLiveItem(item: item, session: session))
    }

    /// Appends an item, after the rendered events and transitions recorded so far.
    private func record(_ item: Item) {
        renderedBefore.append(renderedItems.count)
        items.append(item)
    }
    /// The session's report is rendered and counted here, on the worker's thread, when the reporter can take it rendered:
    /// the replaying thread then copies bytes and never touches the report.
    func sessionClosed(_ session: SessionReport) {
        if ahead.countsSessionsOnly { record(.countedSession(SessionCounts(session))); return }
        guard let formatter = ahead.sessions else { record(.session(session)); return }
        record(.renderedSession(formatter(session, into: renderedText), index: session.index,
                                      counts: SessionCounts(session)))
    }
    func inputEnded(_ summary: InputSummary) { record(.end(summary)) }
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
    let renderedLists = RecyclingPool { [RenderedLiveItem]() }
    let renderedBeforeLists = RecyclingPool { [Int]() }
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
