/// Jobs run on at most `concurrency` threads at once, their results taken back in the order the jobs were handed in,
/// by one taker. At most `window` jobs are handed in and not yet taken back: whoever hands one in waits for room, so
/// the results waiting to be taken (and the memory they hold) stay bounded. The taker may stop early: the jobs not
/// started are dropped, and whoever hands in more is told so.
///
/// Threads are started as jobs arrive, up to `concurrency`, each running jobs while there are some waiting: no
/// thread idles, and none is left when the work is done.
final class OrderedWorkPool<Result>: @unchecked Sendable {
    typealias Job = @Sendable () -> Result

    private struct State {
        /// Jobs handed in and not started, in order, each with its place in the order.
        var waiting: [(place: Int, job: Job)] = []
        /// Results not yet taken, by place; `fromJob`: the result of a job (it holds room in the window).
        var finished: [Int: (result: Result, fromJob: Bool)] = [:]
        /// The place of the next job or result handed in, and of the next result to take.
        var nextPlace = 0
        var nextTaken = 0
        /// Jobs handed in whose results are not yet taken.
        var outstanding = 0
        /// Threads running jobs.
        var threads = 0
        var stopped = false
    }

    let concurrency: Int
    let window: Int
    private let state = Lock(State())

    init(concurrency: Int, window: Int) {
        self.concurrency = max(1, concurrency)
        self.window = max(1, window)
    }

    /// Runs `produce`, which hands in the jobs, on a thread of its own: it spends its time waiting for room in the
    /// window, and as one of the pool's threads it would hold one that should run the jobs.
    func startProducer(_ produce: @escaping @Sendable () -> Void) {
        DetachedThread.start(produce)
    }

    /// Hands in a job once there is room in the window; returns false, dropping the job, once the taker has stopped.
    func submit(_ job: @escaping Job) -> Bool {
        let window = self.window, concurrency = self.concurrency
        // A job waiting to start is nothing the taker or another producer waits for: no thread is woken for it.
        let startsThread: Bool? = state.withLock(when: { $0.stopped || $0.outstanding < window }, deciding: { state in
            guard !state.stopped else { return (nil, false) }
            state.waiting.append((state.nextPlace, job))
            state.nextPlace += 1
            state.outstanding += 1
            guard state.threads < concurrency else { return (false, false) }
            state.threads += 1
            return (true, false)
        })
        guard let startsThread else { return false }
        if startsThread { DetachedThread.start { self.runWaitingJobs() } }
        return true
    }

    /// Hands in a result at hand (the producer's last word, say), to be taken in its place after the jobs handed in
    /// before it. It takes no room in the window.
    func submit(result: Result) {
        state.withLock { state in
            state.finished[state.nextPlace] = (result, false)
            state.nextPlace += 1
        }
    }

    /// The next result in order, waiting until it is there; taking a job's result makes room in the window.
    func next() -> Result {
        state.withLock(when: { $0.finished[$0.nextTaken] != nil }) { state in
            let (result, fromJob) = state.finished.removeValue(forKey: state.nextTaken)!
            state.nextTaken += 1
            if fromJob { state.outstanding -= 1 }
            return result
        }
    }

    /// Takes no more results: the jobs not started are dropped, and `submit` returns false from now on.
    func stop() {
        state.withLock { state in
            state.stopped = true
            state.waiting.removeAll()
        }
    }

    /// A thread's work: the waiting jobs, first come first run, until there are none. Taking a job wakes no other
    /// thread, and a result wakes the taker only when it is the one the taker waits for, the next in order: neither
    /// can end another wait (a producer waits for room, which only the taker makes). On the 200 MB device log, `check`
    /// with two jobs switched threads about 600 times a run when every change woke every waiting thread, 320–330 now.
    private func runWaitingJobs() {
        while let (place, job) = state.withLock(deciding: { state -> (result: (Int, Job)?, wake: Bool) in
            guard !state.waiting.isEmpty else {
                state.threads -= 1
                return (nil, false)
            }
            return (state.waiting.removeFirst(), false)
        }) {
            let result = job()
            state.withLock(deciding: { state in
                state.finished[place] = (result, true)
                return ((), place == state.nextTaken)
            })
        }
    }
}
