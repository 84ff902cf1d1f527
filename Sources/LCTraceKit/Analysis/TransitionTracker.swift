/// A deviation the transition tracker found, before the session turns it into a `Finding`.
struct TransitionIssue {
    var rule: Rule
    var line: Int
    var controller: Int
    var message: String
    var expected: String?
    var actual: String?
}

/// One appearance callback as it took part in a transition.
struct ObservedStep {
    var controller: Int
    var callback: Callback
    var line: Int
    var micros: Int64?
    var timeText: String?
}

/// Groups the appearance callbacks of a session into transitions and classifies each against
/// `TransitionTemplates`. A transition opens at the first appearance callback while none is open, takes in every
/// controller that gets an appearance callback while it is open, and closes when all of them are at rest
/// (no controller appearing or disappearing). A transition declared by a logged call waits, at rest, for both
/// an outgoing and an incoming controller, so that "A disappeared completely before B appeared" is caught.
struct TransitionTracker {
    private struct Open {
        var roles: [Int: TransitionRole] = [:]
        var order: [Int] = []
        var steps: [ObservedStep] = []
        var declared: (kind: TransitionKind, line: Int)?
        var hadViolation = false
        /// Declared, at rest, and still missing an outgoing or an incoming controller.
        var waitingForOtherSide = false

        var hasBothRoles: Bool { roles.values.contains(.outgoing) && roles.values.contains(.incoming) }
    }

    /// Whether a controller is new at a given line: it has not appeared before it and its life began with its
    /// view loading (or begins in this transition). Used for the direction when the history cannot tell.
    let isNew: (_ controller: Int, _ line: Int) -> Bool

    init(isNew: @escaping (_ controller: Int, _ line: Int) -> Bool) {
        self.isNew = isNew
    }

    private var open: Open?
    private var pendingIntent: (kind: TransitionKind, line: Int)?
    /// Forward transitions not yet undone: (outgoing, incoming), oldest first.
    private var history: [(from: Int, to: Int)] = []

    /// A logged push/pop/present/dismiss call.
    mutating func declare(_ kind: TransitionKind, line: Int, names: (Int) -> String,
                          into issues: inout [TransitionIssue], reports: inout [TransitionReport]) {
        if var current = open, current.declared == nil, current.steps.count > 0 {
            current.declared = (kind, line)
            open = current
        } else {
            if open?.declared != nil { close(names: names, issues: &issues, reports: &reports) }
            pendingIntent = (kind, line)
        }
    }

    /// An appearance callback, after the controller's own automaton took it.
    mutating func observe(_ step: ObservedStep, violated: Bool, phase: (Int) -> ControllerPhase, names: (Int) -> String,
                          into issues: inout [TransitionIssue], reports: inout [TransitionReport]) {
        // A participant starting over while a declared transition waits at rest for its other side: the wait is over.
        if let current = open, current.waitingForOtherSide, current.roles[step.controller] != nil {
            close(names: names, issues: &issues, reports: &reports)
        }
        var current = open ?? Open()
        if open == nil, let intent = pendingIntent {
            current.declared = intent
            pendingIntent = nil
        }
        if current.roles[step.controller] == nil {
            current.roles[step.controller] = (step.callback == .viewWillAppear || step.callback == .viewDidAppear) ? .incoming : .outgoing
            current.order.append(step.controller)
        }
        current.steps.append(step)
        current.hadViolation = current.hadViolation || violated
        open = current

        if current.order.allSatisfy({ phase($0).isAtRest }) {
            if current.declared == nil || current.hasBothRoles {
                close(names: names, issues: &issues, reports: &reports)
            } else {
                open?.waitingForOtherSide = true
            }
        }
    }

    /// The session ended: report what is still open.
    mutating func finish(names: (Int) -> String, into issues: inout [TransitionIssue], reports: inout [TransitionReport],
                         phase: (Int) -> ControllerPhase) {
        guard let current = open else { return }
        if current.order.allSatisfy({ phase($0).isAtRest }) {
            close(names: names, issues: &issues, reports: &reports)
        } else {
            reports.append(report(current, kind: .incomplete, names: names))
            open = nil
        }
    }

    private mutating func close(names: (Int) -> String, issues: inout [TransitionIssue], reports: inout [TransitionReport]) {
        guard let current = open else { return }
        open = nil
        // Only `did` callbacks: the transition began before the log did; there is nothing to classify.
        guard current.steps.contains(where: { $0.callback == .viewWillAppear || $0.callback == .viewWillDisappear }) else { return }
        let outgoing = current.order.filter { current.roles[$0] == .outgoing }
        let incoming = current.order.filter { current.roles[$0] == .incoming }
        let kind: TransitionKind
        if outgoing.count == 1, incoming.count == 1 {
            kind = classify(current, from: outgoing[0], to: incoming[0], names: names, issues: &issues)
        } else if outgoing.isEmpty {
            kind = .appear
        } else if incoming.isEmpty {
            kind = .disappear
        } else {
            kind = .compound
        }
        reports.append(report(current, kind: kind, names: names))
    }

    private mutating func classify(_ current: Open, from: Int, to: Int, names: (Int) -> String,
                                   issues: inout [TransitionIssue]) -> TransitionKind {
        let observed = current.steps.map { TransitionStep(role: current.roles[$0.controller]!, callback: $0.callback) }
        let kind: TransitionKind
        if let declared = current.declared {
            if let accepted = TransitionTemplates.all.first(where: { $0.satisfies.contains(declared.kind) && $0.steps == observed }) {
                kind = accepted.kind
            } else {
                kind = declared.kind
                if !current.hadViolation, let template = TransitionTemplates.declared(declared.kind) {
                    let index = zip(template.steps, observed).prefix { $0 == $1 }.count
                    let got = current.steps[min(index, current.steps.count - 1)]
                    let expected = index < template.steps.count
                        ? describe(template.steps[index], from: from, to: to, names: names) : "no further callback"
                    let actual = "\(names(got.controller)) \(got.callback.rawValue)"
                    issues.append(TransitionIssue(
                        rule: .transitionOrder, line: got.line, controller: got.controller,
                        message: "\(declared.kind.rawValue) declared at line \(declared.line) expects \(expected) next, but \(actual) came",
                        expected: expected, actual: actual))
                }
            }
        } else {
            let matches = TransitionTemplates.matching(observed)
            if matches.isEmpty {
                kind = .unrecognized
                if !current.hadViolation {
                    let index = min(TransitionTemplates.longestKnownPrefix(of: observed), current.steps.count - 1)
                    let got = current.steps[index]
                    let before = current.steps[..<index].map { "\(names($0.controller)) \($0.callback.rawValue)" }
                    issues.append(TransitionIssue(
                        rule: .transitionUnrecognized, line: got.line, controller: got.controller,
                        message: "\(names(got.controller)) \(got.callback.rawValue) fits no UIKit transition"
                            + (before.isEmpty ? "" : " after " + before.joined(separator: " → ")),
                        expected: nil, actual: "\(names(got.controller)) \(got.callback.rawValue)"))
                }
            } else if matches.count == 1 {
                kind = matches[0].kind
            } else {
                let returning = isReturn(from: from, to: to, at: current.steps[0].line)
                kind = (matches.first { $0.direction == (returning ? .backward : .forward) } ?? matches[0]).kind
            }
        }
        record(kind, from: from, to: to)
        return kind
    }

    /// Whether the transition goes back: `to` is a controller the history went forward from and `from` the
    /// latest one shown; or, when the history does not know them, `to` is not a new controller.
    private func isReturn(from: Int, to: Int, at line: Int) -> Bool {
        if history.last?.to == from && history.contains(where: { $0.from == to }) { return true }
        if history.contains(where: { $0.from == to || $0.to == to || $0.to == from }) { return false }
        return !isNew(to, line)
    }

    private mutating func record(_ kind: TransitionKind, from: Int, to: Int) {
        guard let template = TransitionTemplates.declared(kind) else { return }
        switch template.direction {
        case .forward:
            history.append((from, to))
        case .backward:
            if let index = history.lastIndex(where: { $0.from == to }) { history.removeSubrange(index...) }
        case .lateral:
            break
        }
        if history.count > 256 { history.removeFirst(history.count - 256) }
    }

    private func describe(_ step: TransitionStep, from: Int, to: Int, names: (Int) -> String) -> String {
        "\(names(step.role == .outgoing ? from : to)) \(step.callback.rawValue)"
    }

    private func report(_ current: Open, kind: TransitionKind, names: (Int) -> String) -> TransitionReport {
        let first = current.steps.first!
        let last = current.steps.last!
        let outgoing = current.order.first { current.roles[$0] == .outgoing }
        let incoming = current.order.first { current.roles[$0] == .incoming }
        return TransitionReport(
            kind: kind, declared: current.declared?.kind, declaredLine: current.declared?.line,
            from: outgoing.map(names), to: incoming.map(names), controllers: current.order.map(names),
            startLine: first.line, endLine: last.line, startTime: first.timeText,
            durationMs: milliseconds(from: first.micros, to: last.micros))
    }
}

func milliseconds(from start: Int64?, to end: Int64?) -> Double? {
    guard let start, let end else { return nil }
    return Double(end - start) / 1000
}
