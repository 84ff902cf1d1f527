/// Finds a view that keeps loading: `loadView` and `viewDidLoad` of one class, the same cycle three times or more back
/// to back with nothing else logged between (rule `load-loop`). A `loadView` that never sets `view` does this: UIKit
/// calls it again on the next access to `view`, and the app loops. Several new instances loading one after another
/// log the same lines only when the app also logs no creation and nothing else between them, so a cycle must begin
/// with `loadView`: a run of `viewDidLoad` alone is new instances (a carousel of child controllers).
///
/// A plain value: the session hands it every controller callback, and it returns the loop once, when its third cycle
/// completes.
struct LoadLoopWatch {
    /// A load loop: its class, how many cycles so far, and the line its first cycle began on.
    struct Loop: Equatable {
        var className: ClassName
        var cycles: Int
        var firstLine: Int
    }

    static let cycles = 3

    private var className: ClassName?
    /// The run of load callbacks so far (kept up to the length that proves a loop).
    private var run: [Callback] = []
    /// Whether `run` holds callbacks, kept as a plain value beside it (`take` holds the two to each other): what the
    /// session reads on every callback, where reading the list, or calling a method of the value that holds it,
    /// would retain the list.
    private(set) var isRunOpen = false
    private var firstLine = 0
    /// The first cycle's length, once a second `loadView` ended it.
    private var period: Int?
    private var reported = false

    /// Whether `take` needs the callback: a load callback, or any callback while a run of them is open
    /// (`isRunOpen`; the callback ends it). Asked first, so that most callbacks cost one comparison.
    @inline(__always)
    static func wants(_ callback: Callback, whileRunIsOpen isRunOpen: Bool) -> Bool {
        callback == .loadView || callback == .viewDidLoad || isRunOpen
    }

    mutating func take(_ callback: Callback, of className: ClassName?, line: Int) -> Loop? {
        defer { assert(isRunOpen == !run.isEmpty, "a run open with no callbacks, or callbacks with no run open") }
        guard let className, callback == .loadView || callback == .viewDidLoad else {
            if !run.isEmpty { reset() }
            return nil
        }
        if className != self.className || (run.isEmpty && callback != .loadView) {
            reset()
            guard callback == .loadView else { return nil }
            self.className = className
            firstLine = line
        }
        // Told once: the rest of the loop is the same finding.
        if reported { return nil }
        if let period {
            // Each repetition must be the first cycle again.
            guard run[run.count % period] == callback else {
                reset()
                return callback == .loadView ? take(callback, of: className, line: line) : nil
            }
        } else if callback == .loadView, !run.isEmpty {
            period = run.count
        }
        run.append(callback)
        isRunOpen = true
        guard let period, run.count == period * LoadLoopWatch.cycles else { return nil }
        reported = true
        return Loop(className: className, cycles: LoadLoopWatch.cycles, firstLine: firstLine)
    }

    private mutating func reset() {
        className = nil
        run.removeAll(keepingCapacity: true)
        isRunOpen = false
        period = nil
        reported = false
    }
}
