/// The leak rule (ground truth §9, after MLeaksFinder): each controller a completed pop, pop-to-root or dismiss
/// took off the stack must deallocate within the timeout. Appearing again or deallocating disarms the check.
struct LeakWatch {
    struct Armed {
        var controller: Int
        /// Where the transition that removed it ended.
        var line: Int
        var micros: Int64?
        var kind: TransitionKind
        /// Taken off its stack without a callback (a pop-to-root's intermediate): checked only when the session ends.
        var silent = false
        /// A transition began while it was still awaited (`overdue`).
        var overdue = false
    }

    let timeoutMicros: Int64
    private var armed: [Armed] = []
    /// Past their deadline, waiting to learn whether their class logs dealloc at all.
    private var undecided: [Armed] = []

    init(timeoutSeconds: Double) {
        timeoutMicros = Int64(timeoutSeconds * 1_000_000)
    }

    mutating func arm(_ entry: Armed) {
        disarm(entry.controller)
        armed.append(entry)
    }

    /// Whether any controller is armed: when none is, `expire` has nothing to do.
    var isWatching: Bool { !armed.isEmpty }

    /// Whether the controller is watched, armed or waiting for its class to be known.
    func watches(_ controller: Int) -> Bool {
        armed.contains { $0.controller == controller } || undecided.contains { $0.controller == controller }
    }

    /// Looked for before anything is removed: `removeAll(where:)` costs a partition and the replacement of a range
    /// even when it removes nothing, and nearly always there is nothing to remove.
    mutating func disarm(_ controller: Int) {
        func isWatched(_ entry: Armed) -> Bool { entry.controller == controller }
        if armed.contains(where: isWatched) { armed.removeAll(where: isWatched) }
        if undecided.contains(where: isWatched) { undecided.removeAll(where: isWatched) }
    }

    /// A transition begins: how many controllers, taken off by one before and of a class `classLogsDealloc` says
    /// logs dealloc, are still awaited, each counted once. UIKit releases a controller a pop or dismiss took off as
    /// that transition ends; one still alive when the next begins makes the reading of the log that took it off a
    /// little less plausible, long before the timeout would call it a leak.
    mutating func overdue(classLogsDealloc: (Int) -> Bool) -> Int {
        var count = 0
        for index in armed.indices where !armed[index].overdue && !armed[index].silent && classLogsDealloc(armed[index].controller) {
            armed[index].overdue = true
            count += 1
        }
        return count
    }

    /// The time is now `micros`: returns the entries past their deadline whose class is known to log dealloc
    /// (possible leaks); the others wait for the end of the session.
    mutating func expire(now micros: Int64, classLogsDealloc: (Int) -> Bool) -> [Armed] {
        // Called on every controller event while one is armed; as in `disarm`, looked for before anything is removed.
        func isPast(_ entry: Armed) -> Bool { entry.micros.map { micros - $0 > timeoutMicros } ?? false }
        guard armed.contains(where: isPast) else { return [] }
        var leaks: [Armed] = []
        armed.removeAll { entry in
            guard isPast(entry) else { return false }
            if classLogsDealloc(entry.controller) { leaks.append(entry) } else { undecided.append(entry) }
            return true
        }
        return leaks
    }

    /// A class was seen to log dealloc for the first time: the entries past their deadline that waited to learn it,
    /// now possible leaks.
    mutating func confirmUndecided(classLogsDealloc: (Int) -> Bool) -> [Armed] {
        guard !undecided.isEmpty else { return [] }
        var leaks: [Armed] = []
        undecided.removeAll { entry in
            guard classLogsDealloc(entry.controller) else { return false }
            leaks.append(entry)
            return true
        }
        return leaks
    }

    /// The session ended: the entries past their deadline, and those that could not be timed (a format without
    /// timestamps) and never deallocated. Timed entries still within their timeout are dropped: the log ended first.
    mutating func finish() -> [Armed] {
        let leaks = undecided + armed.filter { $0.micros == nil }
        armed = []
        undecided = []
        return leaks
    }
}
