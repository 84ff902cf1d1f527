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
        // The thread's handle: Glibc's `pthread_t` is an integer (`unsigned long`, <bits/pthreadtypes.h>); Darwin's
        // is a nullable pointer (`struct _opaque_pthread_t *`, <sys/_pthread/_pthread_t.h>, whose `pthread_create`
        // takes a `pthread_t _Nullable *`), and so is musl's (`struct __pthread *`, <alltypes.h>), with no zero value.
        #if canImport(Glibc)
        var thread = pthread_t()
        #else
        var thread: pthread_t? = nil
        #endif
        // The start routine's argument is `void * _Nullable` on Darwin (<pthread.h> as the SDK's overlay epoch
        // imports it) and a plain `void *` elsewhere: unwrapped here for all, since `job` is never nil.
        let started = pthread_create(&thread, &attributes, { raw in
            Unmanaged<Job>.fromOpaque(raw!).takeRetainedValue().body()
            return nil
        }, job)
        if started != 0 {
            let job = Unmanaged<Job>.fromOpaque(job).takeRetainedValue()
            DispatchQueue.global().async { job.body() }
        }
    }
}
