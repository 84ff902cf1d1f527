/// Findings gathered into groups of one severity, rule and controller class, for the reports that show distinct
/// problems rather than every occurrence (the Markdown summary, GitHub annotations). Memory is bounded by the number
/// of groups: past `limit` groups, further findings are only counted.
public struct FindingGroups: Sendable {
    public struct Group: Sendable, Equatable {
        public var severity: Severity
        public var rule: Rule
        /// The controller's class, or nil for a finding about no controller.
        public var controllerClass: String?
        /// The first finding of the group, in input order.
        public var first: Finding
        public var count: Int
        /// The first lines after the first finding's, each as `input:line` when its input differs from the first's.
        public var moreLocations: [String]
        /// The order the group was first seen in.
        var order: Int
    }

    struct Key: Hashable {
        var severity: Severity
        var rule: Rule
        var controllerClass: String?
    }

    /// The most groups kept; findings that would start a group past it are counted in `ungrouped`.
    public static let limit = 1_000
    /// Locations kept per group besides the first.
    static let locationsKept = 5

    private var indices: [Key: Int] = [:]
    public private(set) var groups: [Group] = []
    /// Findings past the group limit, by severity.
    public private(set) var ungrouped: [Severity: Int] = [:]
    public private(set) var total: [Severity: Int] = [:]

    public init() {}

    public mutating func add(_ finding: Finding) {
        total[finding.severity, default: 0] += 1
        let key = Key(severity: finding.severity, rule: finding.rule,
                      controllerClass: finding.controller.map(FindingKey.className(ofController:)))
        if let index = indices[key] {
            groups[index].count += 1
            if groups[index].moreLocations.count < FindingGroups.locationsKept {
                let first = groups[index].first
                groups[index].moreLocations.append(finding.input == first.input ? "\(finding.line)" : "\(finding.input):\(finding.line)")
            }
            return
        }
        guard groups.count < FindingGroups.limit else {
            ungrouped[finding.severity, default: 0] += 1
            return
        }
        indices[key] = groups.count
        groups.append(Group(severity: finding.severity, rule: finding.rule, controllerClass: key.controllerClass, first: finding,
                            count: 1, moreLocations: [], order: groups.count))
    }

    /// The groups of `severity`, the most frequent first (then in the order they were first seen).
    public func ranked(_ severity: Severity) -> [Group] {
        groups.filter { $0.severity == severity }.sorted { ($0.count, -$0.order) > ($1.count, -$1.order) }
    }

    /// Every group: errors, then warnings, then info, each ranked.
    public var ranked: [Group] { Severity.mostSevereFirst.flatMap(ranked) }

    public var isEmpty: Bool { total.isEmpty }
}

extension FindingGroups.Group {
    /// Where else it was found: ` (3 more: lines 40, 77, 90)`, or nothing for a single finding.
    public var moreSuffix: String {
        guard count > 1 else { return "" }
        let shown = moreLocations.joined(separator: ", ") + (count - 1 > moreLocations.count ? ", …" : "")
        return " (\(count - 1) more: line\(count > 2 ? "s" : "") \(shown))"
    }
}
