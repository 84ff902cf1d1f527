/// Whether a deviation a checker found becomes a finding, and at which severity: the one place that admits one, for
/// a session's deviations and for those about a whole input. The rule's severity in this run (`--severity`, the
/// configuration file, else the catalogue's), a rule that is off leaving it out; then the deviation's cap, the most
/// its evidence supports (info for what the log cannot confirm).
///
/// A baseline (`--baseline`) is applied after this, where the run hands findings to the reports in the order it
/// reports them (`BaselineFilter`): it matches the first findings of a kind, and a parallel run's workers find them
/// out of that order.
struct FindingPolicy {
    let rules: RuleSettings

    /// The finding the deviation makes in `input`'s `session` (0: about the input as a whole), or nil when its rule
    /// is off.
    func admit(_ deviation: Deviation, input: String, session: Int) -> Finding? {
        guard let severity = rules.severity(of: deviation.rule, cappedAt: deviation.cap) else { return nil }
        return Finding(rule: deviation.rule, severity: severity, input: input, line: deviation.line, session: session,
                       controller: deviation.subject, message: deviation.message, expected: deviation.expected,
                       actual: deviation.actual)
    }
}
