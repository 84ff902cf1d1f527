/// Leaves out of a run's reports the findings a baseline knows (`--baseline`): from the stream of findings, from
/// each session's list, and from the run summary's counts, which then say how many were known. Findings are matched
/// in the order the run reports them, so that a baseline that knows a finding twice leaves out its first two.
final class BaselineFilter {
    private let baseline: Baseline
    private var remaining: [FindingKey: Int]
    private var known: [Severity: Int] = [:]
    /// The findings held back in the session being read, to leave out of its report when it closes.
    private var heldBack: [HeldBack: Int] = [:]
    private var heldBackCount = 0

    private struct HeldBack: Hashable {
        var session: Int
        var line: Int
        var rule: Rule
        var message: String

        init(_ finding: Finding) {
            session = finding.session
            line = finding.line
            rule = finding.rule
            message = finding.message
        }
    }

    init(_ baseline: Baseline) {
        self.baseline = baseline
        remaining = baseline.counts
    }

    /// Whether the finding goes into the reports: false when the baseline knows it (it is then counted as known).
    func admits(_ finding: Finding) -> Bool {
        let key = baseline.key(finding)
        guard let count = remaining[key] else { return true }
        remaining[key] = count > 1 ? count - 1 : nil
        known[finding.severity, default: 0] += 1
        if finding.session > 0 {
            heldBack[HeldBack(finding), default: 0] += 1
            heldBackCount += 1
        }
        return false
    }

    /// The session's report without the findings held back while it was read. Only that session's: another session
    /// open at the same time (another process) keeps its own until it closes.
    func leavingOutKnown(_ session: SessionReport) -> SessionReport {
        guard heldBackCount > 0 else { return session }
        var held = heldBack.filter { $0.key.session == session.index }
        let heldHere = held.values.reduce(0, +)
        guard heldHere > 0 else { return session }
        for key in held.keys { heldBack[key] = nil }
        heldBackCount -= heldHere
        var session = session
        let listed = session.findings.count
        session.findings.removeAll { finding in
            let id = HeldBack(finding)
            guard let count = held[id] else { return false }
            held[id] = count > 1 ? count - 1 : nil
            return true
        }
        // The rest held back were past the findings the session lists.
        let unlisted = heldHere - (listed - session.findings.count)
        session.findingsNotListed = max(0, session.findingsNotListed - unlisted)
        return session
    }

    /// The run's summary with the known findings taken out of its counts, and counted apart.
    func adjusted(_ summary: RunSummary) -> RunSummary {
        var summary = summary
        for (severity, count) in known { summary.findings[severity] -= count }
        summary.findingsInBaseline = known.values.reduce(0, +)
        return summary
    }
}
