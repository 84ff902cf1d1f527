/// Whether a deviation a checker found becomes a finding in the reports, and at which severity: the one place that
/// admits one, for a session's deviations and for those about a whole input.
///
/// - The rule's severity in this run (`--severity`, the configuration file, else the catalogue's); a rule that is off
///   leaves it out, and so does a class the run ignores (`--ignore-class`).
/// - The deviation's cap: the most its evidence supports (info for what the log cannot confirm).
/// - The baseline (`--baseline`): a finding it knows is left out of the reports and counted as known. A baseline
///   knows each finding a number of times per launch, so a session matches its findings against it on its own, in
///   the order it reports them, whichever worker of a parallel run reads it (`isKnown`).
struct FindingPolicy: Sendable {
    let rules: RuleSettings
    let baseline: Baseline?

    init(rules: RuleSettings, baseline: Baseline? = nil) {
        self.rules = rules
        self.baseline = baseline
    }

    /// The finding the deviation makes in `input`'s `session` (0: about the input as a whole), or nil when its rule
    /// is off.
    func admit(_ deviation: Deviation, input: String, session: Int) -> Finding? {
        guard let severity = rules.severity(of: deviation.rule, cappedAt: deviation.cap) else { return nil }
        if !rules.ignoredClasses.isEmpty, let subject = deviation.subject, rules.ignores(FindingKey.className(ofController: subject)) {
            return nil
        }
        return Finding(rule: deviation.rule, severity: severity, input: input, line: deviation.line, session: session,
                       controller: deviation.subject, message: deviation.message, expected: deviation.expected,
                       actual: deviation.actual)
    }

    /// The findings of one session (or those about one input) the baseline has matched so far.
    struct KnownFindings {
        fileprivate var matched: [FindingKey: Int] = [:]
        /// How many findings the baseline knew.
        private(set) var count = 0

        fileprivate mutating func match(_ key: FindingKey, knownTimes: Int) -> Bool {
            let times = matched[key, default: 0]
            guard times < knownTimes else { return false }
            matched[key] = times + 1
            count += 1
            return true
        }
    }

    /// Whether the baseline knows `finding`, the next finding its session reports: it does while the session has
    /// reported fewer of its kind than the baseline knows. Counted in `known` when it does.
    func isKnown(_ finding: Finding, in known: inout KnownFindings) -> Bool {
        guard let baseline else { return false }
        let key = baseline.key(finding)
        guard let times = baseline.counts[key] else { return false }
        return known.match(key, knownTimes: times)
    }
}
