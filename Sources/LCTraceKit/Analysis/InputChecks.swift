/// The rules about an input as a whole, checked when it ends: `no-lifecycle-events` (nothing of it was read as a
/// lifecycle event) and `unread-lifecycle-lines` (`UnreadLifecycleLines`). `failed`: reading it failed part way (the
/// failure is reported on its own), so its lack of events is no deviation.
enum InputChecks {
    static func deviations(of input: InputSummary, failed: Bool) -> [Deviation] {
        var deviations: [Deviation] = []
        if input.events == 0, !failed {
            let read = LineDisposition.allCases.filter { $0 != .crash || input.lines($0) > 0 }
                .map { "\(input.lines($0)) \($0.rawValue)" }.joined(separator: ", ")
            let wording = RuleCatalog.noLifecycleEventsWording(input: input.name, lines: input.lines, read: read,
                                                               skipped: input.skippedLines, otherProcesses: input.skipped[.otherProcess])
            deviations.append(Deviation(rule: .noLifecycleEvents, line: 1, subject: nil, wording))
        }
        if let wording = UnreadLifecycleLines.wording(input) {
            deviations.append(Deviation(rule: .unreadLifecycleLines, line: input.unread.first?.line ?? 1, subject: nil, wording))
        }
        return deviations
    }
}

/// The `unread-lifecycle-lines` rule: an input in which many lines name a lifecycle callback but could not be read
/// as one (no controller around the callback), so that its timelines miss much of what it logged.
///
/// Many: at least `minimumLines`, and at least `minimumShare` of the input's lines that name a callback (the lines
/// read as lifecycle events and the unread ones). A few unread lines in a long log (a sentence that mentions
/// viewDidLoad) are left to the summary's count.
public enum UnreadLifecycleLines {
    public static let minimumLines = 5
    /// In percent.
    public static let minimumPercent = 10
    /// How many of their line numbers a finding names.
    static let linesNamed = 5

    /// Whether `unread` lines of `unread + lifecycle` that name a callback are many.
    public static func areMany(unread: Int, lifecycle: Int) -> Bool {
        unread >= minimumLines && unread * 100 >= minimumPercent * (unread + lifecycle)
    }

    /// The finding's words for `input`, or nil when its unread lines are not many.
    static func wording(_ input: InputSummary) -> RuleCatalog.Wording? {
        guard areMany(unread: input.unreadLines, lifecycle: input.lifecycleLines) else { return nil }
        return RuleCatalog.unreadLifecycleLinesWording(input: input.name, unread: input.unreadLines,
                                                       namingCallbacks: input.unreadLines + input.lifecycleLines,
                                                       firstLines: input.unread.prefix(linesNamed).map(\.line))
    }
}

extension InputSummary {
    /// Whether many of the lines that name a lifecycle callback could not be read (`unread-lifecycle-lines`).
    public var hasManyUnreadLifecycleLines: Bool {
        UnreadLifecycleLines.areMany(unread: unreadLines, lifecycle: lifecycleLines)
    }
}
