/// SIGINT and SIGTERM end the reading, not the process: the reader takes them as the end of its input, so the
/// session in progress is closed and the summary printed as at EOF, and nothing already read is lost.
public enum StopRequest {
    /// Whether SIGINT or SIGTERM arrived.
    public static var isRequested: Bool { TerminationSignals.haveArrived }

    /// The signal that asked for the stop, with its name: `(2, "SIGINT")` or `(15, "SIGTERM")`; nil when none did.
    public static var signal: (number: Int32, name: String)? { TerminationSignals.lastArrived }

    /// Installs the handlers (without SA_RESTART, so a blocked read returns at once).
    public static func install() {
        TerminationSignals.catchWithoutRestart()
    }
}
