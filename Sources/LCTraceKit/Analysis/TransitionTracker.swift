/// One appearance callback as it took part in a transition.
struct ObservedStep {
    var controller: Int
    var callback: Callback
    var line: Int
    var micros: Int64?
    var timeText: TimeText?
}

/// What the transition tracker needs to know about the session's controllers, and where it sends its results.
protocol TransitionContext: AnyObject {
    func name(of controller: Int) -> String
    func phase(of controller: Int) -> ControllerPhase
    /// Whether the controller is new at `line`: it has not appeared before and its life began with its view loading.
    func isNew(_ controller: Int, at line: Int) -> Bool
    /// Whether the controller logged containment callbacks (it is a child of a custom container).
    func isChild(_ controller: Int) -> Bool
    /// Whether a controller other than `excluded` is visible.
    func isAnyOtherVisible(excluding excluded: [Int]) -> Bool
    /// A transition closed; `removed` are the controllers it took off a navigation or modal stack.
    func transitionClosed(_ report: TransitionReport, removed: [Int], lastStep: ObservedStep)
    func transitionDeviation(_ deviation: Deviation)
}

/// Groups the appearance callbacks of a session into transitions and classifies each against
/// `TransitionTemplates`. A transition opens at the first appearance callback while none is open, takes in every
/// controller that gets an appearance callback while it is open, and closes when all of them are at rest
/// (no controller appearing or disappearing). A transition declared by a logged call waits, at rest, until it
/// fits a template of the declared kind or has both an outgoing and an incoming controller, so that "A
/// disappeared completely before B appeared" under a logged push is caught.
struct TransitionTracker {
    private struct Open {
        /// The controllers taking part, in order of their first callback, with their roles (a few at most: a list).
        var participants: [(controller: Int, role: TransitionRole)]
        var steps: [ObservedStep]
        /// The steps by role and callback, kept as they arrive: what the templates are looked up by.
        var shape = TransitionShape()
        var declared: (kind: TransitionKind, line: Int)?
        var hadViolation = false
        /// Declared, at rest, and still missing an outgoing or an incoming controller.
        var waitingForOtherSide = false

        init() {
            // Room for a two-controller exchange from the start, so that it grows no further.
            participants = []
            participants.reserveCapacity(2)
            steps = []
            steps.reserveCapacity(4)
        }

        var order: [Int] { participants.map(\.controller) }
        var hasBothRoles: Bool { participants.contains { $0.role == .outgoing } && participants.contains { $0.role == .incoming } }
        var observed: [TransitionStep] { steps.map { TransitionStep(role: role(of: $0.controller)!, callback: $0.callback) } }

        func role(of controller: Int) -> TransitionRole? {
            participants.first { $0.controller == controller }?.role
        }

        func controllers(in role: TransitionRole) -> [Int] {
            participants.compactMap { $0.role == role ? $0.controller : nil }
        }

        func allAtRest(_ context: any TransitionContext) -> Bool {
            participants.allSatisfy { context.phase(of: $0.controller).isAtRest }
        }
    }

    private struct HistoryEntry {
        var from: Int?
        var to: Int
        var kind: TransitionKind
    }

    /// The session that owns this tracker, and outlives it.
    unowned(unsafe) let context: any TransitionContext
    private var open: Open?
    private var pendingIntent: (kind: TransitionKind, line: Int)?
    /// Forward transitions not yet undone, oldest first: the navigation and modal stack as far as the log shows it.
    private var history: [HistoryEntry] = []

    init(context: any TransitionContext) {
        self.context = context
    }

    /// Whether a transition is in flight (some participant still appearing or disappearing).
    var isInFlight: Bool {
        guard let open else { return false }
        return !open.allAtRest(context)
    }

    /// A logged push/pop/present/dismiss call.
    mutating func declare(_ kind: TransitionKind, line: Int) {
        if var current = open, current.declared == nil, current.steps.count > 0 {
            current.declared = (kind, line)
            open = current
        } else {
            if open?.declared != nil { close() }
            pendingIntent = (kind, line)
        }
    }

    /// An appearance callback, after the controller's own automaton took it.
    mutating func observe(_ step: ObservedStep, violated: Bool) {
        // A participant starting over while a declared transition waits at rest for its other side: the wait is over.
        // (Read through the optional, not copied out of it: a copy would retain its arrays on every callback.)
        if open?.waitingForOtherSide == true, open?.role(of: step.controller) != nil {
            close()
        }
        if open == nil {
            open = Open()
            if let intent = pendingIntent {
                open!.declared = intent
                pendingIntent = nil
            }
        }
        // Mutated in place: a copy would duplicate its arrays on every callback.
        let role: TransitionRole
        if let known = open!.role(of: step.controller) {
            role = known
        } else {
            role = (step.callback == .viewWillAppear || step.callback == .viewDidAppear) ? .incoming : .outgoing
            open!.participants.append((step.controller, role))
        }
        open!.steps.append(step)
        open!.shape.append(TransitionStep(role: role, callback: step.callback))
        open!.hadViolation = open!.hadViolation || violated

        if open!.allAtRest(context) {
            if let declared = open!.declared, !open!.hasBothRoles,
               TransitionTemplates.accepts(declared.kind, open!.shape) == nil {
                open?.waitingForOtherSide = true
            } else {
                close()
            }
        }
    }

    /// The session ended: report what is still open.
    mutating func finish() {
        guard let current = open else { return }
        if current.allAtRest(context) {
            close()
        } else {
            open = nil
            context.transitionClosed(report(current, kind: .incomplete), removed: [], lastStep: current.steps.last!)
        }
    }

    private mutating func close() {
        guard let current = open else { return }
        open = nil
        // Only `did` callbacks: the transition began before the log did; there is nothing to classify.
        guard current.steps.contains(where: { $0.callback == .viewWillAppear || $0.callback == .viewWillDisappear }) else { return }
        let outgoing = current.controllers(in: .outgoing)
        let incoming = current.controllers(in: .incoming)
        let from = outgoing.count == 1 ? outgoing.first : nil
        let to = incoming.count == 1 ? incoming.first : nil
        let kind: TransitionKind
        if outgoing.count + incoming.count == 1 || (from != nil && to != nil) {
            kind = classify(current, from: from, to: to)
        } else {
            kind = .compound
        }
        let removed = record(kind, from: from, to: to)
        context.transitionClosed(report(current, kind: kind), removed: removed, lastStep: current.steps.last!)
    }

    private func classify(_ current: Open, from: Int?, to: Int?) -> TransitionKind {
        if let declared = current.declared {
            if let accepted = TransitionTemplates.accepts(declared.kind, current.shape) { return accepted.kind }
            if !current.hadViolation, let template = TransitionTemplates.declared(declared.kind) {
                let observed = current.observed
                let index = zip(template.steps, observed).prefix { $0 == $1 }.count
                let got = current.steps[min(index, current.steps.count - 1)]
                let expected = index < template.steps.count ? describe(template.steps[index], from: from, to: to) : "no further callback"
                let actual = "\(context.name(of: got.controller)) \(got.callback.rawValue)"
                context.transitionDeviation(Deviation(
                    rule: .transitionOrder, line: got.line, subject: context.name(of: got.controller),
                    message: "\(declared.kind.rawValue) declared at line \(declared.line) expects \(expected) next, but \(actual) came",
                    expected: expected, actual: actual))
            }
            return declared.kind
        }
        let templates = TransitionTemplates.all
        let positions = TransitionTemplates.matching(current.shape)
        var candidates: (first: Int?, several: Bool) = (nil, false)
        for position in positions where holds(templates[position].requirement, from: from, to: to) {
            if candidates.first == nil { candidates.first = position } else { candidates.several = true; break }
        }
        guard let first = candidates.first.map({ templates[$0] }) else {
            // One controller alone: its own automaton judges its order; only the exchange of two is a transition question.
            if from == nil || to == nil { return to == nil ? .disappear : .appear }
            if !current.hadViolation { reportUnrecognized(current, observed: current.observed) }
            return .unrecognized
        }
        // Several templates fit only for push/pop, pop-to-root and present/dismiss, which share their shapes.
        guard candidates.several, let from, let to else { return first.kind }
        // The history (or, without one, the incoming controller's newness) decides the direction.
        let direction: TransitionTemplate.Direction = isReturn(from: from, to: to, at: current.steps[0].line) ? .backward : .forward
        for position in positions where templates[position].direction == direction
            && holds(templates[position].requirement, from: from, to: to) {
            return templates[position].kind
        }
        return first.kind
    }

    private func reportUnrecognized(_ current: Open, observed: [TransitionStep]) {
        let index = min(TransitionTemplates.longestKnownPrefix(of: observed), current.steps.count - 1)
        let got = current.steps[index]
        let before = current.steps[..<index].map { "\(context.name(of: $0.controller)) \($0.callback.rawValue)" }
        let actual = "\(context.name(of: got.controller)) \(got.callback.rawValue)"
        context.transitionDeviation(Deviation(
            rule: .transitionUnrecognized, line: got.line, subject: context.name(of: got.controller),
            message: "\(actual) fits no UIKit transition" + (before.isEmpty ? "" : " after " + before.joined(separator: " → ")),
            actual: actual))
    }

    private func holds(_ requirement: TransitionTemplate.Requirement, from: Int?, to: Int?) -> Bool {
        let lone = from ?? to
        switch requirement {
        case .none:
            return true
        case .child:
            return lone.map(context.isChild) ?? false
        case .otherVisible:
            guard let lone else { return false }
            return !context.isChild(lone) && context.isAnyOtherVisible(excluding: [lone])
        case .shownAsSheet:
            guard let lone else { return false }
            return history.last { $0.to == lone }?.kind == .sheetPresent
        case .severalLevelsBack:
            guard let from, let to, history.last?.to == from,
                  let index = history.lastIndex(where: { $0.from == to }) else { return false }
            return index < history.count - 1
        }
    }

    /// Whether the transition goes back: `to` is a controller the history went forward from and `from` the
    /// latest one shown; or, when the history does not know them, `to` is not a new controller.
    private func isReturn(from: Int, to: Int, at line: Int) -> Bool {
        if history.last?.to == from && history.contains(where: { $0.from == to }) { return true }
        if history.contains(where: { $0.from == to || $0.to == to || $0.to == from }) { return false }
        return !context.isNew(to, at: line)
    }

    /// Updates the history; returns the controllers a backward transition took off the stack.
    private mutating func record(_ kind: TransitionKind, from: Int?, to: Int?) -> [Int] {
        guard let template = TransitionTemplates.declared(kind) else { return [] }
        var removed: [Int] = []
        switch template.direction {
        case .forward:
            if let to { history.append(HistoryEntry(from: from, to: to, kind: kind)) }
        case .backward:
            let index = to.flatMap { target in history.lastIndex { $0.from == target } }
                ?? from.flatMap { leaving in history.lastIndex { $0.to == leaving } }
            if let index {
                removed = history[index...].map(\.to)
                history.removeSubrange(index...)
            }
            if let from, !removed.contains(from) { removed.append(from) }
        case .lateral:
            break
        }
        if history.count > 256 { history.removeFirst(history.count - 256) }
        return removed
    }

    private func describe(_ step: TransitionStep, from: Int?, to: Int?) -> String {
        let controller = step.role == .outgoing ? from : to
        return "\(controller.map(context.name(of:)) ?? (step.role == .outgoing ? "the outgoing controller" : "the incoming controller")) \(step.callback.rawValue)"
    }

    private func report(_ current: Open, kind: TransitionKind) -> TransitionReport {
        let first = current.steps.first!
        let last = current.steps.last!
        let outgoing = current.controllers(in: .outgoing).first
        let incoming = current.controllers(in: .incoming).first
        return TransitionReport(
            kind: kind, declared: current.declared?.kind, declaredLine: current.declared?.line,
            from: outgoing.map(context.name(of:)), to: incoming.map(context.name(of:)),
            controllers: current.order.map(context.name(of:)),
            startLine: first.line, endLine: last.line, startTime: first.timeText,
            durationMs: milliseconds(from: first.micros, to: last.micros))
    }
}

func milliseconds(from start: Int64?, to end: Int64?) -> Double? {
    guard let start, let end else { return nil }
    return Double(end - start) / 1000
}
