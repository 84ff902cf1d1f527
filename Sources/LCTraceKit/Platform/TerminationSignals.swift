#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// SIGINT and SIGTERM caught rather than ending the process: their handler only notes that one arrived.
enum TerminationSignals {
    /// Written by the signal handler, read by any thread: checked neither way, as a handler may interrupt a read of it.
    @exclusivity(unchecked) nonisolated(unsafe) private static var arrived: sig_atomic_t = 0

    /// Whether SIGINT or SIGTERM arrived since `catchWithoutRestart()`.
    static var haveArrived: Bool { arrived != 0 }

    /// The signal that arrived last, by number and name (SIGINT or SIGTERM), or nil.
    static var lastArrived: (number: Int32, name: String)? {
        let signal = Int32(arrived)
        return signal == 0 ? nil : (signal, signal == SIGTERM ? "SIGTERM" : "SIGINT")
    }

    /// Installs the handler for SIGINT and SIGTERM, and takes them if they were blocked (a parent may have started the
    /// process with them blocked: the mask is inherited). The handler is installed without SA_RESTART, so a call
    /// blocked in a `read` returns EINTR at once rather than going on waiting.
    static func catchWithoutRestart() {
        var action = sigaction()
        let handler: @convention(c) (Int32) -> Void = { signal in TerminationSignals.arrived = sig_atomic_t(signal) }
        // The handler field sits in a union of a different name on each C library: Darwin's `__sigaction_u`
        // (<sys/signal.h>), Glibc's `__sigaction_handler` (<bits/sigaction.h>), musl's `__sa_handler` (<signal.h>).
        #if canImport(Darwin)
        action.__sigaction_u.__sa_handler = handler
        #elseif canImport(Glibc)
        action.__sigaction_handler.sa_handler = handler
        #elseif canImport(Musl)
        action.__sa_handler.sa_handler = handler
        #endif
        sigemptyset(&action.sa_mask)
        action.sa_flags = 0
        sigaction(SIGINT, &action, nil)
        sigaction(SIGTERM, &action, nil)
        var signals = sigset_t()
        sigemptyset(&signals)
        sigaddset(&signals, SIGINT)
        sigaddset(&signals, SIGTERM)
        pthread_sigmask(SIG_UNBLOCK, &signals, nil)
    }
}
