/// The main-thread rule: UIKit delivers lifecycle callbacks on the main thread only. The session's main thread is
/// the thread of main()/willFinishLaunching/didFinishLaunching, or else the one most UIKit callbacks use among
/// the first `sampleSize` (or all of a shorter session).
struct MainThreadCheck {
    struct Sample {
        var thread: ThreadID
        var line: Int
        var callback: Callback
        var subject: String
    }

    static let sampleSize = 32
    private(set) var mainThread: ThreadID?
    private var backlog: [Sample] = []

    /// A callback on `thread`; `decides` marks the callbacks that run on the main thread by definition.
    mutating func take(_ sample: Sample, decides: Bool) -> [Deviation] {
        if decides, mainThread == nil {
            mainThread = sample.thread
            return drainBacklog()
        }
        guard sample.callback.isDeliveredOnMainThread else { return [] }
        if let mainThread {
            return sample.thread == mainThread ? [] : [deviation(sample, main: mainThread)]
        }
        backlog.append(sample)
        if backlog.count >= MainThreadCheck.sampleSize {
            mainThread = majority()
            return drainBacklog()
        }
        return []
    }

    /// Whether the main thread is known and is `thread`: then `take` would decide nothing, whatever the callback.
    func isMain(_ thread: ThreadID) -> Bool { mainThread == thread }

    mutating func finish() -> [Deviation] {
        guard mainThread == nil, !backlog.isEmpty else { return [] }
        mainThread = majority()
        return drainBacklog()
    }

    private func majority() -> ThreadID? {
        var counts: [ThreadID: Int] = [:]
        for sample in backlog { counts[sample.thread, default: 0] += 1 }
        let most = counts.values.max() ?? 0
        return backlog.first { counts[$0.thread] == most }?.thread  // a tie goes to the thread seen first
    }

    private mutating func drainBacklog() -> [Deviation] {
        guard let mainThread else { return [] }
        let off = backlog.filter { $0.thread != mainThread }
        backlog = []
        return off.map { deviation($0, main: mainThread) }
    }

    private func deviation(_ sample: Sample, main: ThreadID) -> Deviation {
        Deviation(rule: .callbackOffMainThread, line: sample.line, subject: sample.subject,
                  RuleCatalog.offMainThreadWording(subject: sample.subject, callback: sample.callback, thread: sample.thread, main: main))
    }
}
