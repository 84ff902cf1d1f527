/// Records every finding of a run into a baseline (`--write-baseline`).
public final class BaselineRecorder: ReportSink {
    public private(set) var baseline = Baseline()

    public init() {}

    public func finding(_ finding: Finding) { baseline.add(finding) }
    public func finish(_ summary: RunSummary) {}
}

/// Passes on to `downstream` only the findings a baseline does not know (`--baseline`): from the stream of findings,
/// from each session's list, and from the run summary's counts, which then say how many were known.
public final class BaselineFilter: ReportSink {
    private let downstream: any ReportSink
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

    public init(baseline: Baseline, downstream: any ReportSink) {
        remaining = baseline.counts
        self.downstream = downstream
    }

    public func beginInput(_ name: String) { downstream.beginInput(name) }

    public func finding(_ finding: Finding) {
        let key = FindingKey(finding)
        if let count = remaining[key] {
            remaining[key] = count > 1 ? count - 1 : nil
            known[finding.severity, default: 0] += 1
            if finding.session > 0 {
                heldBack[HeldBack(finding), default: 0] += 1
                heldBackCount += 1
            }
            return
        }
        downstream.finding(finding)
    }

    public var wantsLiveItems: Bool { downstream.wantsLiveItems }
    public var timelineSessions: SessionSelection? { downstream.timelineSessions }

    public func event(_ event: EventRecord, subject: String, session: Int, input: String) {
        downstream.event(event, subject: subject, session: session, input: input)
    }

    public func transition(_ transition: TransitionReport, session: Int, input: String) {
        downstream.transition(transition, session: session, input: input)
    }

    public var liveItemLines: LiveItemLines? { downstream.liveItemLines }

    public func write(_ item: RenderedItem, session: Int) { downstream.write(item, session: session) }

    public func sessionClosed(_ session: SessionReport) {
        var session = session
        if heldBackCount > 0 {
            let listed = session.findings.count
            session.findings.removeAll { finding in
                let id = HeldBack(finding)
                guard let count = heldBack[id] else { return false }
                heldBack[id] = count > 1 ? count - 1 : nil
                return true
            }
            // The rest held back were past the findings the session lists.
            let unlisted = heldBackCount - (listed - session.findings.count)
            session.findingsNotListed = max(0, session.findingsNotListed - unlisted)
            heldBack = [:]
            heldBackCount = 0
        }
        downstream.sessionClosed(session)
    }

    /// Sessions are rendered here, after the known findings are taken out, never ahead of time.
    public var sessionRendering: SessionRendering? { nil }

    public func endInput(_ summary: InputSummary) { downstream.endInput(summary) }

    public func finish(_ summary: RunSummary) {
        downstream.finish(adjusted(summary))
    }

    /// The run's summary with the known findings taken out of its counts, and counted apart.
    public func adjusted(_ summary: RunSummary) -> RunSummary {
        var summary = summary
        for (severity, count) in known { summary.findings[severity] -= count }
        summary.findingsInBaseline = known.values.reduce(0, +)
        return summary
    }
}
