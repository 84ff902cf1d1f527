/// A report sink that keeps nothing: the analysis runs to its end and nothing of it is rendered. For callers that
/// read something else than the report (`lctrace lines` reads the line observer; a fuzz target only runs the analysis).
public final class DiscardingReporter: Reporter {
    /// Made of findings and the run's summary: it reads no session report.
    public var readsSessions: Bool { false }

    public init() {}
    public func finding(_ finding: Finding) {}
    public func finish(_ summary: RunSummary) {}
}
