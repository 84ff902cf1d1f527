/// `lctrace rules` and `lctrace explain RULE`, as text or JSON.
public enum RuleCatalogRendering {
    /// One line per rule: id, default severity (or the run's, when `settings` changes it), summary.
    public static func list(settings: RuleSettings = RuleSettings()) -> String {
        let width = Rule.allCases.map(\.rawValue.count).max() ?? 0
        return RuleCatalog.entries.map { entry in
            entry.rule.rawValue.rightPadded(to: width) + "  " + level(entry.rule, settings).rightPadded(to: 7) + "  " + entry.summary
        }.joined(separator: "\n") + "\n"
    }

    public static func explain(_ rule: Rule, settings: RuleSettings = RuleSettings()) -> String {
        let entry = rule.entry
        func indented(_ log: String) -> String {
            log.split(separator: "\n", omittingEmptySubsequences: false).map { "    " + $0 }.joined(separator: "\n")
        }
        let model = entry.modelExample.map { "Held against a model learned from this log:\n\(indented($0))\n\n" } ?? ""
        return """
            \(rule.rawValue) (\(level(rule, settings)))
            \(entry.summary)

            \(entry.explanation)

            \(model)Example that triggers it:
            \(indented(entry.example))

            What UIKit does: \(entry.uikit)

            """
    }

    public static func listJSON(settings: RuleSettings = RuleSettings()) -> String {
        JSONValue.array(RuleCatalog.entries.map { json($0, settings) }).serialized(indent: 0) + "\n"
    }

    public static func explainJSON(_ rule: Rule, settings: RuleSettings = RuleSettings()) -> String {
        json(rule.entry, settings).serialized(indent: 0) + "\n"
    }

    private static func json(_ entry: RuleCatalog.Entry, _ settings: RuleSettings) -> JSONValue {
        var members: [(String, JSONValue)] = [
            ("id", .string(entry.rule.rawValue)),
            ("defaultSeverity", .string(entry.severity.rawValue)),
            ("severity", .string(level(entry.rule, settings))),
            ("summary", .string(entry.summary)),
            ("explanation", .string(entry.explanation)),
            ("example", .string(entry.example)),
        ]
        if let model = entry.modelExample { members.append(("modelExample", .string(model))) }
        members.append(("uikit", .string(entry.uikit)))
        return .object(members)
    }

    /// The severity in this run: `off` when turned off, or for slow-transition without a threshold.
    private static func level(_ rule: Rule, _ settings: RuleSettings) -> String {
        settings.isEnabled(rule) ? settings.severity(of: rule)!.rawValue : "off"
    }
}
