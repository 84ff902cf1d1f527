/// One appearance callback as it took part in a transition.
struct ObservedStep {
    var controller: Int
    var callback: Callback
    var line: Int
    var micros: Int64?
}

/// What the transition tracker needs to know about the session's controllers.
protocol TransitionContext: AnyObject {
    func name(of controller: Int) -> String
    func phase(of controller: Int) -> ControllerPhase
    /// Whether the controller is new at `line`: it has not appeared before and its life began with its view loading.
    func isNew(_ controller: Int, at line: Int) -> Bool
    /// Whether the controller logged containment callbacks (it is a child of a custom container).
    func isChild(_ controller: Int) -> Bool
    /// Whether the two controllers could be each other: one class, no address or id to tell them apart.
    func areInterchangeable(_ first: Int, _ second: Int) -> Bool
    /// Whether a controller other than `controller`, and not the child of a container, is visible.
    func isAnyOtherVisible(than controller: Int) -> Bool
}

/// A transition as it closed, its controllers by number: what the session acts on. It is named (`report`) only where
/// a name is read: in the session's report, in streamed output, in a finding.
struct ClosedTransition {
    var kind: TransitionKind
    var declared: (kind: TransitionKind, line: Int)?
    /// The first outgoing and the first incoming controller, when there is one.
    var from: Int?
    var to: Int?
    /// Every controller that took part, in order of its first callback, with its role; empty when the tracker was
    /// told nothing names them (`TransitionTracker.namesParticipants`).
    var participants: [(controller: Int, role: TransitionRole)]
    var startLine: Int
    var endLine: Int
    var startTime: TimeText?
    var startMicros: Int64?
    var endMicros: Int64?
    /// Which controllers it took off a navigation or modal stack.
    var removal: NavigationModel.Removal
    /// What its classification found: the order broke the template of its kind, or it fits none.
    var deviation: Deviation?

    var durationMs: Double? { milliseconds(from: startMicros, to: endMicros) }

    /// The transition with its controllers named.
    func report(_ context: any TransitionContext) -> TransitionReport {
        assert(!participants.isEmpty, "a transition named by a tracker that was told its participants are not named")
        var names: [String] = []
        names.reserveCapacity(participants.count)
        for participant in participants { names.append(context.name(of: participant.controller)) }
        return TransitionReport(
            kind: kind, declared: declared?.kind, declaredLine: declared?.line,
            from: from.map { context.name(of: $0) }, to: to.map { context.name(of: $0) }, controllers: names,
            startLine: startLine, endLine: endLine, startTime: startTime, durationMs: durationMs)
    }
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

        /// A transition is open. The steps keep their memory between transitions, emptied; so do the participants,
        /// unless they go with the closed transition (`ClosedTransition`) to be named: the open transition then takes
        /// a new list in their place (`handOverParticipants`), one allocation a transition.
        var isOpen = false

        init() {
            // Room for a two-controller exchange from the start, so that it grows no further.
            participants = []
            participants.reserveCapacity(2)
            steps = []
            steps.reserveCapacity(4)
        }

        /// The participants, for the closed transition to take: a new list with room for two takes their place, so that
        /// the list `reset` empties is never one a closed transition shares.
        mutating func handOverParticipants() -> [(controller: Int, role: TransitionRole)] {
            var handed: [(controller: Int, role: TransitionRole)] = []
            handed.reserveCapacity(2)
            swap(&handed, &participants)
            return handed
        }

        /// Closed and emptied, keeping the arrays' memory (neither list is shared: see `handOverParticipants`).
        mutating func reset() {
            isOpen = false
            participants.truncate(to: 0)
            steps.truncate(to: 0)
            shape = TransitionShape()
            declared = nil
            hadViolation = false
            waitingForOtherSide = false
        }

        var hasBothRoles: Bool { participants.contains { $0.role == .outgoing } && participants.contains { $0.role == .incoming } }
        var observed: [TransitionStep] { steps.map { TransitionStep(role: role(of: $0.controller)!, callback: $0.callback) } }

        @inline(__always)
        func role(of controller: Int) -> TransitionRole? {
            participants.first { $0.controller == controller }?.role
        }

        /// The first controller in `role`, and how many take that role.
        @inline(__always)
        func side(_ role: TransitionRole) -> (first: Int?, count: Int) {
            var side: (first: Int?, count: Int) = (nil, 0)
            for participant in participants where participant.role == role {
                if side.first == nil { side.first = participant.controller }
                side.count += 1
            }
            return side
        }

        @inline(__always)
        func allAtRest(_ context: any TransitionContext) -> Bool {
            participants.allSatisfy { context.phase(of: $0.controller).isAtRest }
        }
    }

    private var open = Open()
    /// The templates, held: see `TemplateLookup`.
    private let templates = TemplateLookup.shared
    /// The open transition's first step's time as logged, written at each transition's first step. Kept beside `open`
    /// rather than in it (as the steps keep no time): calling a method of `open` copies it, and a time is 121 bytes.
    private var openStartTime: TimeText?
    /// Whether a closed transition takes its participants with it: only when something names them (a listed or
    /// streamed transition, a slow-transition finding). A run that only counts transitions makes no list for each.
    var namesParticipants = true
    private var pendingIntent: (kind: TransitionKind, line: Int)?
    /// The stacks as far as the log shows them, changed by each transition that closes.
    private var navigation = NavigationModel()
    /// The transitions that closed in the calls since the session last took them (`takeClosed`), oldest first.
    private var closed: [ClosedTransition] = []

    /// Whether a transition closed since the session last took them.
    var hasClosed: Bool { !closed.isEmpty }

    /// Hands the transitions closed since the last call to the session, in exchange for `taken`, which it emptied: the
    /// two lists trade places, so that no transition is copied (each is a few hundred bytes) and both keep their memory.
    mutating func takeClosed(into taken: inout [ClosedTransition]) {
        assert(taken.isEmpty, "transitions taken before and not acted on")
        swap(&closed, &taken)
    }

    /// Whether a transition is in flight (some participant still appearing or disappearing).
    func isInFlight(_ context: any TransitionContext) -> Bool {
        open.isOpen && !open.allAtRest(context)
    }

    /// A logged push/pop/present/dismiss call.
    mutating func declare(_ kind: TransitionKind, line: Int, context: any TransitionContext) {
        if open.isOpen, open.declared == nil, !open.steps.isEmpty {
            open.declared = (kind, line)
        } else {
            if open.isOpen, open.declared != nil { close(context) }
            pendingIntent = (kind, line)
        }
    }

    /// An appearance callback, the step `event` is, after the controller's own automaton took it. Of the event only its
    /// time as logged is read, and only when the step opens a transition: it is passed whole, so that its 121 bytes of
    /// time are not copied to be passed.
    mutating func observe(_ step: ObservedStep, of event: borrowing Event, violated: Bool, context: any TransitionContext) {
        // A participant starting over while a declared transition waits at rest for its other side: the wait is over.
        if open.isOpen, open.waitingForOtherSide, open.role(of: step.controller) != nil {
            close(context)
        }
        if !open.isOpen {
            open.isOpen = true
            open.declared = pendingIntent
            pendingIntent = nil
        }
        // Mutated in place: a copy would duplicate its arrays on every callback.
        let role: TransitionRole
        if let known = open.role(of: step.controller) {
            role = known
        } else {
            role = (step.callback == .viewWillAppear || step.callback == .viewDidAppear) ? .incoming : .outgoing
            open.participants.append((step.controller, role))
        }
        if open.steps.isEmpty { openStartTime = event.time.nonEmpty }
        open.steps.append(step)
        open.shape.append(TransitionStep(role: role, callback: step.callback))
        open.hadViolation = open.hadViolation || violated

        if open.allAtRest(context) {
            if let declared = open.declared, !open.hasBothRoles,
               templates.accepting(declared.kind, open.shape) == nil {
                open.waitingForOtherSide = true
            } else {
                close(context)
            }
        }
    }

    /// The session ended: report what is still open.
    mutating func finish(_ context: any TransitionContext) {
        guard open.isOpen else { return }
        if open.allAtRest(context) {
            close(context)
        } else {
            handOpen(as: .incomplete, outgoing: open.side(.outgoing).first, incoming: open.side(.incoming).first,
                     removal: NavigationModel.Removal())
        }
    }

    private mutating func close(_ context: any TransitionContext) {
        guard open.isOpen else { return }
        // Only `did` callbacks: the transition began before the log did; there is nothing to classify.
        guard open.steps.contains(where: { $0.callback == .viewWillAppear || $0.callback == .viewWillDisappear }) else {
            open.reset()
            return
        }
        let outgoing = open.side(.outgoing)
        let incoming = open.side(.incoming)
        let from = outgoing.count == 1 ? outgoing.first : nil
        let to = incoming.count == 1 ? incoming.first : nil
        var kind = TransitionKind.compound
        var deviation: Deviation?
        if outgoing.count + incoming.count == 1 || (from != nil && to != nil) {
            (kind, deviation) = classify(from: from, to: to, context: context)
        }
        handOpen(as: kind, outgoing: outgoing.first, incoming: incoming.first,
                 removal: record(kind, from: from, to: to, context: context), deviation: deviation)
    }

    /// Leaves the open transition for the session, and empties it for the next; `outgoing` and `incoming` are the
    /// first controller of each side.
    private mutating func handOpen(as kind: TransitionKind, outgoing: Int?, incoming: Int?, removal: NavigationModel.Removal,
                                   deviation: Deviation? = nil) {
        let first = open.steps[0]
        let last = open.steps[open.steps.count - 1]
        closed.append(ClosedTransition(
            kind: kind, declared: open.declared, from: outgoing, to: incoming,
            participants: namesParticipants ? open.handOverParticipants() : [], startLine: first.line, endLine: last.line,
            startTime: openStartTime,
            startMicros: first.micros, endMicros: last.micros, removal: removal, deviation: deviation))
        open.reset()
    }

    /// The open transition's kind, and the deviation from its template when it broke one. Inlined into `close`, a
    /// mutating method, which would otherwise hand it a copy of the whole tracker, the open transition with it.
    @inline(__always)
    private func classify(from: Int?, to: Int?, context: any TransitionContext) -> (kind: TransitionKind, deviation: Deviation?) {
        if let declared = open.declared {
            if let accepted = templates.accepting(declared.kind, open.shape) { return (templates.kinds[accepted], nil) }
            var deviation: Deviation?
            if !open.hadViolation, let template = TransitionTemplates.declared(declared.kind) {
                let observed = open.observed
                let index = zip(template.steps, observed).prefix { $0 == $1 }.count
                let got = open.steps[min(index, open.steps.count - 1)]
                let expected = index < template.steps.count ? describe(template.steps[index], from: from, to: to, context: context) : "no further callback"
                let actual = "\(context.name(of: got.controller)) \(got.callback.rawValue)"
                let wording = RuleCatalog.transitionOrderWording(declared: declared.kind, declaredLine: declared.line, expected: expected, actual: actual)
                deviation = Deviation(rule: .transitionOrder, line: got.line, subject: context.name(of: got.controller), wording)
            }
            return (declared.kind, deviation)
        }
        var candidates: (first: Int?, several: Bool) = (nil, false)
        templates.forEachMatching(open.shape) { position in
            guard holds(templates.requirements[position], from: from, to: to, context: context) else { return true }
            if candidates.first == nil { candidates.first = position; return true }
            candidates.several = true
            return false
        }
        guard let first = candidates.first.map({ templates.kinds[$0] }) else {
            // One controller alone: its own automaton judges its order; only the exchange of two is a transition question.
            if from == nil || to == nil { return (to == nil ? .disappear : .appear, nil) }
            return (.unrecognized, open.hadViolation ? nil : unrecognized(open, observed: open.observed, context: context))
        }
        // Several templates fit only for push/pop, pop-to-root and present/dismiss, which share their shapes.
        guard candidates.several, let from, let to else { return (first, nil) }
        // The history (or, without one, the incoming controller's newness) decides the direction.
        let direction: TransitionTemplate.Direction = isReturn(from: from, to: to, at: open.steps[0].line, context: context) ? .backward : .forward
        var chosen = first
        templates.forEachMatching(open.shape) { position in
            guard templates.directions[position] == direction,
                  holds(templates.requirements[position], from: from, to: to, context: context) else { return true }
            chosen = templates.kinds[position]
            return false
        }
        return (chosen, nil)
    }

    /// The deviation of a transition that fits no template, at its first step past the longest template prefix.
    private func unrecognized(_ current: Open, observed: [TransitionStep], context: any TransitionContext) -> Deviation {
        let index = min(TransitionTemplates.longestKnownPrefix(of: observed), current.steps.count - 1)
        let got = current.steps[index]
        let before = current.steps[..<index].map { "\(context.name(of: $0.controller)) \($0.callback.rawValue)" }
        let actual = "\(context.name(of: got.controller)) \(got.callback.rawValue)"
        return Deviation(rule: .transitionUnrecognized, line: got.line, subject: context.name(of: got.controller),
                         RuleCatalog.transitionUnrecognizedWording(actual: actual, before: before))
    }

    @inline(__always)
    private func holds(_ requirement: TransitionTemplate.Requirement, from: Int?, to: Int?, context: any TransitionContext) -> Bool {
        let lone = from ?? to
        switch requirement {
        case .none:
            return true
        case .child:
            return lone.map(context.isChild) ?? false
        case .otherVisible:
            guard let lone else { return false }
            return !context.isChild(lone) && context.isAnyOtherVisible(than: lone)
        case .shownAsSheet:
            guard let lone else { return false }
            return navigation.isShownAsSheet(lone)
        case .severalLevelsBack:
            guard let from, let to, let levels = navigation.levels(from: from, backTo: to) else { return false }
            return levels > 1
        }
    }

    /// Whether the transition goes back: `to` is below `from` on a stack; or, when the stacks know neither, `to` is
    /// not a new controller.
    @inline(__always)
    private func isReturn(from: Int, to: Int, at line: Int, context: any TransitionContext) -> Bool {
        if navigation.levels(from: from, backTo: to) != nil { return true }
        if navigation.knows(from) || navigation.knows(to) { return false }
        return !context.isNew(to, at: line)
    }

    /// Updates the stacks; returns what a backward transition took off them. A pop or dismiss that went back to a
    /// controller of the same class as the one its kind returns to, where nothing tells them apart, went back to that
    /// one: the two trade places (a dismiss of a presented navigation controller whose root has the presenter's class
    /// reads, up to its third callback, like a pop to that root).
    private mutating func record(_ kind: TransitionKind, from: Int?, to: Int?, context: any TransitionContext) -> NavigationModel.Removal {
        guard let direction = templates.direction(of: kind) else { return NavigationModel.Removal() }
        if direction == .backward, let from, let to, let target = navigation.target(of: kind, leaving: from), target != to,
           context.areInterchangeable(target, to) {
            navigation.exchange(target, to)
        }
        return navigation.record(kind, direction: direction, from: from, to: to)
    }

    /// How many appearance callbacks the transition under way has taken (0 when none is open).
    var openSteps: Int { open.isOpen ? open.steps.count : 0 }

    /// Whether the controller is the one taking part, alone, in the transition under way.
    func isOnlyParticipant(_ controller: Int) -> Bool {
        open.isOpen && open.participants.count == 1 && open.participants[0].controller == controller
    }

    /// The controller appeared again or was deallocated.
    mutating func seen(_ controller: Int) { navigation.seen(controller) }

    mutating func deallocated(_ controller: Int) { navigation.deallocated(controller) }

    /// Whether the transition under way or the stacks name the controller: then its number cannot be given to another.
    func references(_ controller: Int) -> Bool {
        open.role(of: controller) != nil || navigation.references(controller)
    }

    // MARK: Questions for telling instances apart

    /// How well `callback` on `controller` would continue the transition under way: whether the steps so far and this
    /// one are the start of a UIKit template, of one with two controllers or of a lone one.
    private func fit(of controller: Int, _ callback: Callback) -> TransitionFit {
        guard callback.isAppearanceCallback, open.isOpen, !open.steps.isEmpty else { return .opens }
        let known = open.role(of: controller)
        if open.waitingForOtherSide, known != nil { return .opens }
        let role = known ?? ((callback == .viewWillAppear || callback == .viewDidAppear) ? .incoming : .outgoing)
        var shape = open.shape
        shape.append(TransitionStep(role: role, callback: callback))
        return TransitionTemplates.fit(shape)
    }

    /// What the transition under way and the stacks say about `controller`'s place, for telling instances of one class
    /// apart (`InferenceRules.rank`): read in one access to the tracker, the stacks not copied.
    func roleFacts(of controller: Int, for callback: Callback) -> RoleFacts {
        let place = place(of: controller)
        return RoleFacts(fit: fit(of: controller, callback), isRevealed: place.isRevealed, isOnTop: navigation.isOnTop(controller),
                         isTopOfAStack: navigation.isTopOfAStack(controller), leftOnEvidence: navigation.leftOnEvidence(controller),
                         isOnStack: navigation.knows(controller), isBelowLeaving: place.isBelowLeaving, isParticipant: place.isParticipant)
    }

    /// Whether the controller takes part in the transition under way or is on one of the stacks.
    func isPlaced(_ controller: Int) -> Bool {
        (open.isOpen && open.role(of: controller) != nil) || navigation.knows(controller)
    }

    /// Where `controller` stands in the transition under way: taking part already; right below a leaving controller,
    /// so that a pop or dismiss of it would reveal it; or where a pop-to-root or a dismiss of it could.
    private func place(of controller: Int) -> (isParticipant: Bool, isRevealed: Bool, isBelowLeaving: Bool) {
        guard open.isOpen else { return (false, false, false) }
        var place = (isParticipant: false, isRevealed: false, isBelowLeaving: false)
        for participant in open.participants {
            if participant.controller == controller { place.isParticipant = true }
            guard participant.role == .outgoing else { continue }
            if navigation.revealed(byLeaving: participant.controller) == controller { place.isRevealed = true }
            if navigation.canReveal(controller, byLeaving: participant.controller) { place.isBelowLeaving = true }
        }
        return place
    }

    private func describe(_ step: TransitionStep, from: Int?, to: Int?, context: any TransitionContext) -> String {
        let controller = step.role == .outgoing ? from : to
        return "\(controller.map(context.name(of:)) ?? (step.role == .outgoing ? "the outgoing controller" : "the incoming controller")) \(step.callback.rawValue)"
    }
}

func milliseconds(from start: Int64?, to end: Int64?) -> Double? {
    guard let start, let end else { return nil }
    return Double(end - start) / 1000
}
