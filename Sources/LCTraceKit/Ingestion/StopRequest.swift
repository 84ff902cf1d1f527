/// SIGINT and SIGTERM end the reading, not the process: the reader takes them as the end of its input, so the
/// session in progress is closed and the summary printed as at EOF, and nothing already read is lost.
public enum StopRequest {
    /// Whether SIGINT or SIGTERM arrived.
    public static var isRequested: Bool { TerminationSignals.haveArrived }

    /// Installs the handlers (without SA_RESTART, so a blocked read returns at once).
    public static func install() {
        TerminationSignals.catchWithoutRestart()
    }
}
