#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import Dispatch

/// A thread of its own for a piece of work, which ends with it.
enum DetachedThread {
    /// The stack each thread gets: the same on every platform (a new thread's default is 8 MiB on Linux but only
    /// 512 KiB on macOS).
    static let stackBytes = 8 << 20

    /// Runs `body` on a new thread. When no thread can be had, it runs on a dispatch worker after all.
    static func start(_ body: @escaping @Sendable () -> Void) {
        final class Job: @unchecked Sendable {
            let body: @Sendable () -> Void
            init(_ body: @escaping @Sendable () -> Void) { self.body = body }
        }
        let job = Unmanaged.passRetained(Job(body)).toOpaque()
        var attributes = pthread_attr_t()
        pthread_attr_init(&attributes)
        defer { pthread_attr_destroy(&attributes) }
        pthread_attr_setstacksize(&attributes, stackBytes)
        pthread_attr_setdetachstate(&attributes, Int32(PTHREAD_CREATE_DETACHED))
        #if canImport(Darwin)
        var thread: pthread_t?
        let started = pthread_create(&thread, &attributes, { raw in
            Unmanaged<Job>.fromOpaque(raw).takeRetainedValue().body()
            return nil
        }, job)
        #else
        var thread = pthread_t()
        let started = pthread_create(&thread, &attributes, { raw in
            Unmanaged<Job>.fromOpaque(raw!).takeRetainedValue().body()
            return nil
        }, job)
        #endif
        if started != 0 {
            let job = Unmanaged<Job>.fromOpaque(job).takeRetainedValue()
            DispatchQueue.global().async { job.body() }
        }
    }
}
