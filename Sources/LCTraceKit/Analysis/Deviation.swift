/// A deviation one of the checkers found, before the session gives it the run's severity and turns it into a
/// `Finding`.
struct Deviation {
    var rule: Rule
    var line: Int
    /// The controller, scene or delegate it is about.
    var subject: String?
    var message: String
    var expected: String? = nil
    var actual: String? = nil
    /// The highest severity the evidence supports (a warning when instance identity is missing, …).
    var cap: Severity? = nil
}

extension Deviation {
    /// A deviation worded by `RuleCatalog` (`RuleMessages.swift`).
    init(rule: Rule, line: Int, subject: String?, _ wording: RuleCatalog.Wording, cap: Severity? = nil) {
        self.init(rule: rule, line: line, subject: subject, message: wording.message, expected: wording.expected,
                  actual: wording.actual, cap: cap)
    }
}
