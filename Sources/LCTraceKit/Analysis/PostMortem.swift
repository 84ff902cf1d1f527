/// The post-mortem (ground truth §3): a session that stops in the foreground or mid-transition, when the log shows
/// app or scene state at all, gets its last events as an info finding — what a crash or a kill looks like.
struct PostMortem {
    private var recentEvents: RecentEvents

    init(names: NameTable) {
        recentEvents = RecentEvents(names: names)
    }

    @inline(__always)
    mutating func note(line: Int, message: CallbackMessage) {
        recentEvents.note(line: line, message: message)
    }

    /// The finding for a session that ended at `endLine`, if it ended abruptly: `inFlight` when a transition was
    /// still under way; `appPhase` and `scenes` are the app's and the scenes' last states.
    func ending(inFlight: Bool, appPhase: ActivityPhase, scenes: [SceneReport], reachedBackgroundOrEnd: Bool, endLine: Int) -> Deviation? {
        let logsState = appPhase != .unknown || !scenes.isEmpty
        guard inFlight || (logsState && !reachedBackgroundOrEnd) else { return nil }
        let state = scenes.last?.finalPhase ?? appPhase
        let wording = RuleCatalog.sessionEndedWording(inFlight: inFlight, state: state.rawValue, lastEvents: recentEvents.described)
        return Deviation(rule: .sessionEndedAbruptly, line: endLine, subject: nil, wording)
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
