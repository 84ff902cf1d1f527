#if canImport(Glibc)
import Glibc
#endif

/// SIGINT and SIGTERM end the reading, not the process: the reader takes them as the end of its input, so the
/// session in progress is closed and the summary printed as at EOF, and nothing already read is lost.
public enum StopRequest {
    nonisolated(unsafe) private static var flag: sig_atomic_t = 0

    /// Whether SIGINT or SIGTERM arrived.
    public static var isRequested: Bool { flag != 0 }

    /// Installs the handlers (without SA_RESTART, so a blocked read returns at once).
    public static func install() {
        var action = sigaction()
        action.__sigaction_handler.sa_handler = { _ in StopRequest.flag = 1 }
        sigemptyset(&action.sa_mask)
        action.sa_flags = 0
        sigaction(SIGINT, &action, nil)
        sigaction(SIGTERM, &action, nil)
        // A parent may have started us with these blocked (the mask is inherited): take them.
        var signals = sigset_t()
        sigemptyset(&signals)
        sigaddset(&signals, SIGINT)
        sigaddset(&signals, SIGTERM)
        pthread_sigmask(SIG_UNBLOCK, &signals, nil)
    }
}
