#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// State shared between threads, reached only with its lock held (a pthread mutex). A thread may also wait, with the
/// lock released meanwhile, until the state is as it needs (a condition variable woken after every change made while
/// some thread waits, but for those that `withLock(when:deciding:)` says end no wait).
public final class Lock<State>: @unchecked Sendable {
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private let changed = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)
    private var state: State
    /// Threads waiting in `withLock(when:_:)` or `withLock(when:deciding:)`; read and written with the lock held.
    private var waiting = 0

    public init(_ state: State) {
        self.state = state
        pthread_mutex_init(mutex, nil)
        pthread_cond_init(changed, nil)
    }

    deinit {
        pthread_cond_destroy(changed)
        pthread_mutex_destroy(mutex)
        changed.deallocate()
        mutex.deallocate()
    }

    /// Runs `body` on the state with the lock held.
    public func withLock<Result>(_ body: (inout State) throws -> Result) rethrows -> Result {
        pthread_mutex_lock(mutex)
        defer { unlockAfterChange() }
        return try body(&state)
    }

    /// Waits until `condition` holds of the state, then runs `body` on it, with the lock held throughout but while
    /// waiting.
    func withLock<Result>(when condition: (State) -> Bool, _ body: (inout State) throws -> Result) rethrows -> Result {
        try withLock(when: condition, deciding: { state in (try body(&state), true) })
    }

    /// Waits until `condition` holds of the state, then runs `body` on it, as `withLock(when:_:)`; but wakes the waiting
    /// threads after it only when `body` says its change may be what one of them waits for (`wake`). Woken for a change
    /// that cannot be, each would only look and wait again, at the price of two switches between threads.
    func withLock<Result>(when condition: (State) -> Bool = { _ in true },
                          deciding body: (inout State) throws -> (result: Result, wake: Bool)) rethrows -> Result {
        pthread_mutex_lock(mutex)
        var wake = true
        defer { unlockAfterChange(wakingWaiters: wake) }
        while !condition(state) {
            waiting += 1
            pthread_cond_wait(changed, mutex)
            waiting -= 1
        }
        let decided = try body(&state)
        wake = decided.wake
        return decided.result
    }

    /// Wakes the waiting threads to look at the state again (unless the change can end no wait), and unlocks.
    private func unlockAfterChange(wakingWaiters wake: Bool = true) {
        if wake, waiting > 0 { pthread_cond_broadcast(changed) }
        pthread_mutex_unlock(mutex)
    }
}

extension Lock where State == Void {
    /// A lock guarding no state of its own: `withLock { _ in … }` runs its body with the lock held.
    public convenience init() { self.init(()) }
}
