/// What the session knows about an instance's place, for telling apart instances that share a class name.
struct RoleFacts {
    /// How the callback would continue the transition under way.
    var fit: TransitionFit = .opens
    /// A pop or dismiss under way would reveal it (it is right below the controller leaving).
    var isRevealed = false
    /// It is the top of the stack on screen.
    var isOnTop = false
    /// It is the top of one of the stacks (a tab a tab switch can show).
    var isTopOfAStack = false
    /// It left a stack and was not seen since: on evidence (it disappeared in a pop or dismiss), or silently.
    var leftOnEvidence: Bool?
    /// It is on one of the stacks.
    var isOnStack = false
    /// A pop-to-root or dismiss of a controller leaving in the transition under way could reveal it.
    var isBelowLeaving = false
    /// It already takes part in the transition under way.
    var isParticipant = false
}

/// Where the registry asks about instances' places.
protocol InstanceRoles {
    func facts(of controller: Int, for callback: Callback) -> RoleFacts
    /// Whether the controller takes part in the transition under way or is on one of the stacks.
    func isPlaced(_ controller: Int) -> Bool
    /// Whether the class logged its creation (init, loadView, viewDidLoad) anywhere in the input so far.
    func classLogsCreation(_ className: ClassName) -> Bool
}

/// Which of several live instances sharing a class name a callback is for, as ranks: lower is more plausible. Only
/// the candidates that take the callback legally compete on rank; a rule fires only when none of them can.
enum InferenceRules {
    /// The rank of an existing instance. `place` is asked only by the callbacks whose rank reads it.
    static func rank(_ callback: Callback, _ life: ControllerLifecycle, place: () -> RoleFacts) -> Int {
        switch callback {
        case .viewWillAppear:
            // In a push or present, the one just loaded; in a pop or dismiss, the one the leaving controller reveals;
            // opening a tab switch, the top of a tab; a cancelled gesture's controller when the steps so far are that
            // template's. A controller buried on another stack (another tab), or under a sheet, does not join a
            // transition under way.
            let role = place()
            // The controller leaving coming back alone (a cancelled interactive pop or dismiss): as plausible as a
            // controller of a transition between two that the log did not lead one to expect.
            if role.isParticipant, role.fit == .fitsLone, life.phase == .disappearing { return 3 }
            let expected = life.isFreshlyLoaded || role.isRevealed || (role.fit == .opens && role.isTopOfAStack)
            let buried = role.fit != .opens && !expected && !role.isParticipant && role.isOnStack && !role.isBelowLeaving
            // One a pop or dismiss took off and nothing showed since: UIKit released it, unless the app keeps it to show
            // again, which it may, but seldom does.
            let released = role.leftOnEvidence == true ? 3 : 0
            return (buried ? 10 : 0) + released + role.fit.rawValue * 2 + (expected ? 0 : 1)
        case .viewWillDisappear:
            // The one on screen on top of its stack (a sheet over a presenter of its own class).
            let role = place()
            return role.fit.rawValue * 2 + (role.isOnTop ? 0 : 1)
        case .viewDidAppear, .viewDidDisappear, .viewIsAppearing:
            return place().fit.rawValue
        case .dealloc:
            // The one that left in a pop or dismiss, then one a pop-to-root took off silently, then one on no stack.
            let role = place()
            switch role.leftOnEvidence {
            case true?: return 0
            case false?: return 1
            case nil: return role.isOnStack ? 3 : 2
            }
        case .loadView:
            return life.isOnlyCreated ? 0 : 3
        case .viewDidLoad:
            // The one that logged loadView or only its creation, or was unloaded, or whose log began before its view
            // loaded. A loaded view reloaded after a memory warning and a new instance of the class read the same
            // until much later (a pop that reloads the view below looks like a push of a new instance), and only the
            // second never raises a false leak: a new instance is likelier than a reload.
            if life.phase == .loading || life.phase == .unloaded || life.isOnlyCreated { return 0 }
            if life.phase == .unknown, !life.hasLoadedView, life.firstAppearanceLine == nil { return 0 }
            return 2
        case .didReceiveMemoryWarning:
            // One warning per instance: the generator of the warnings walks the controllers once.
            return life.viewMayBeUnloaded ? 1 : 0
        case .viewWillLayoutSubviews, .viewDidLayoutSubviews:
            return life.phase == .hidden || life.phase == .unknown ? 1 : 0
        default:
            return 0
        }
    }

    /// The rank of a new instance; nil when a new instance cannot take the callback (its earlier callbacks would be in
    /// the log). A new instance is the answer when no existing one takes a life's first callbacks legally.
    static func newInstanceRank(_ callback: Callback, classLogsLoading: Bool) -> Int? {
        switch callback {
        case .loadView, .viewDidLoad: return 1
        case .viewWillAppear: return classLogsLoading ? nil : 4
        default: return nil
        }
    }

    /// How many live instances of one class are weighed against each other, the ones that appeared last: those
    /// weighed besides are the ones on screen, in the transition under way or on a stack (`maxWalked`).
    static let maxCandidates = 8
    /// How many live instances of one class are looked at for one on screen, in the transition under way or on a
    /// stack, past the `maxCandidates` that appeared last: a controller on screen under many sheets of its own class
    /// (which give the presenter no callback), or pushed under it, stays in reach when a class logs no dealloc and
    /// every sheet it dismissed lives on.
    static let maxWalked = 64

    /// How much less plausible a new instance is than the existing one chosen for a viewWillAppear of a class that logs
    /// no loading: none. The reading of a push of a new instance is kept beside that of a pop back to an existing one,
    /// at the same cost, until the callbacks that follow tell them apart (the popped one deallocates, or appears
    /// again). At one rank more, a chain of pushes of one class onto itself cost one more per push than the pops it
    /// reads like, and was the first reading dropped when there was no room: on the generator's legal traffic in every
    /// habit combination (1 MB each, seeds 7, 3, 1 and 11, three spellings), false findings 296 at 1 and 228 at 0, and
    /// on its planted traffic 64 at 1 and 46 at 0, every planted deviation caught in each.
    static let unloggedNewInstanceCost = 0

    /// How much less plausible an instance the log never showed is, for a dealloc that no instance known to be alive
    /// can take legally (they are all on screen), in a class that logs neither its creation nor its loading: a push of
    /// a second instance that read like a pop back to the first leaves one instance too few, and its release later
    /// finds only the one on screen. Enough for the two readings to be kept side by side rather than the one needing a
    /// finding dropped at once (`IdentityReadings.dropMargin`): a finding only one of them needs is told as ambiguous.
    /// On the generator's legal traffic in every habit combination (1 MB each, seeds 7, 3, 1 and 11, three
    /// spellings), false findings 228 without this reading and 120 with it; on its planted traffic 46 and 14, every
    /// planted deviation caught in each.
    static let unseenInstanceDeallocCost = 15

    /// The callbacks whose instance a later callback can prove wrong: they move an instance through its life or onto
    /// and off the stacks. A layout or memory-warning callback changes nothing a later one could contradict.
    static func isDecisive(_ callback: Callback) -> Bool {
        switch callback {
        case .loadView, .viewDidLoad, .viewWillAppear, .viewDidAppear, .viewWillDisappear, .viewDidDisappear, .dealloc: return true
        default: return false
        }
    }

    /// Whether an instance less plausible than the chosen one (by `extraRank`) is kept as a second reading of the log
    /// (`IdentityReadings`): a near-tie on a decisive callback, where the log so far cannot tell which instance it was.
    /// A load callback is the loading instance's when one is loading (`chosen`), and is read as a reload of a loaded
    /// view (`existing`, rank 2 against a new instance's 1) only when a memory warning may have unloaded it: a reload
    /// without one is itself a finding, never the better reading.
    static func keepsAlternative(_ callback: Callback, extraRank: Int, chosen: ControllerLifecycle?, existing: ControllerLifecycle?) -> Bool {
        guard extraRank <= 1, isDecisive(callback) else { return false }
        if callback == .viewDidLoad || callback == .loadView {
            if let chosen, chosen.phase == .loading || chosen.isOnlyCreated { return false }
            if let existing { return existing.viewMayBeUnloaded || existing.phase == .unloaded }
        }
        return true
    }
}

/// Where a callback goes: an existing instance, or a new one.
enum InstanceChoice: Equatable {
    case existing(Int)
    case new
}

/// What routing decided for a callback: the most plausible instance, how implausible it is (its rank: 0 is what the
/// log leads one to expect), and another nearly as plausible, with its rank, when the log so far cannot tell the two
/// apart. The session keeps a reading of the log for each (`IdentityReadings`) until later callbacks decide.
struct RoutingDecision {
    var choice: InstanceChoice
    var rank = 0
    /// Several live instances were weighed: the one chosen is inferred.
    var weighed = false
    var alternative: (choice: InstanceChoice, rank: Int)?
    /// A new instance, when it is a further alternative beside another existing one.
    var newAlternative: Int?

    static func certain(_ choice: InstanceChoice) -> RoutingDecision { RoutingDecision(choice: choice) }
}

/// Identity: which instance each controller callback belongs to, and the instances' lives and reports (kept side by
/// side, in the same slot). By address or app id when the messages carry one; by class otherwise, where several
/// live instances of one class are told apart by `InferenceRules`.
///
/// Its memory follows the instances alive, not every instance the session had (an endless `log stream` is one
/// session). A dead instance is released, and its slot reused, once nothing can name it any more: no later callback
/// can be routed to it (a newer instance has its key, or more than `SessionLimits.rememberedDeadInstances` instances
/// died after it), and the session's transitions, stacks and leak watch hold no reference to it. Its report is then
/// filed: listed when it was one of the session's first `SessionLimits.listedControllers` instances, otherwise summed
/// up with the other unlisted ones of its class. The report is the same whenever that happens.
struct InstanceRegistry {
    /// By slot: the instance's life and its report. A slot is the instance's number for the rest of the analysis, as
    /// long as the instance is not released.
    private(set) var lifecycles: [ControllerLifecycle] = []
    private(set) var reports: [ControllerReport] = []
    /// By slot: when the instance was created and when it died, as counts (one array of plain values, so that a
    /// new slot grows one array, not one per fact).
    private var slots: [Slot] = []
    private var index = InstanceIndex()
    private let limits: SessionLimits
    /// The controller automaton's table of outcomes (`ControllerAutomaton.Cells.shared`), held so that `take` skips the
    /// lazily made static's check that it was made.
    private let outcomes = ControllerAutomaton.Cells.shared
    /// Classes that logged a life's first callbacks (init, loadView, viewDidLoad) in the session.
    private var classesLoggingLoad = ClassTable(empty: false)
    /// Some controller logged viewDidLoad (or init/loadView) in this session.
    private(set) var logsViewLoading = false
    /// Instances created, and instances that died, in the session.
    private(set) var created = 0
    private var deaths = 0
    /// Instances visible and not the child of a container. Counted as they change, so that whether another one is
    /// visible is not a walk over every instance (which made a session quadratic in its instances).
    private var visibleNonChildren = 0
    /// Deaths since the dead instances were last looked at, and how many make the next look worth its walk over the
    /// slots: as many as the slots in use, and at least a quarter of all slots (and a first few). Each death then pays
    /// for a few slots' looks, and the slots stay within about twice the instances held.
    private var deathsSinceRelease = 0
    private var nextRelease = InstanceRegistry.firstRelease
    private static let firstRelease = 64
    private var freeSlots: [Int] = []
    /// Released instances: the report's listed ones, with their serials, and the others by class.
    private var listedReleased: [(serial: Int, report: ControllerReport)] = []
    private var unlisted: [String: UnlistedControllers] = [:]

    /// Slots made so far: the most instances held at once.
    var slotCount: Int { lifecycles.count }
    /// Slots holding an instance, alive or not yet released.
    var occupiedSlots: Int { lifecycles.count - freeSlots.count }

    init(expected: Int, limits: SessionLimits) {
        self.limits = limits
        lifecycles.reserveCapacity(expected)
        reports.reserveCapacity(expected)
        slots.reserveCapacity(expected)
        index.reserveCapacity(expected)
    }

    /// What a slot knows of its instance besides its life and report.
    private struct Slot {
        /// The instance's place in the order of creation, which is its place in the report; -1 for a free slot.
        var serial: Int
        /// How many of the session's instances had died when it died; 0 while it lives.
        var deathNumber = 0
    }

    /// Which instance the callback belongs to, and which other one it may as well belong to. Notes which classes log
    /// their loading; makes no instance.
    /// Marked to be inlined into its one caller, which runs for every controller callback: as a call, its decision
    /// (larger than the return registers) comes back through memory and its arguments are spilled around it.
    @inline(__always)
    mutating func decide(_ event: borrowing Event, roles: some InstanceRoles) -> RoutingDecision {
        let callback = event.callback
        let key = InstanceKey(event.message)
        if callback.beginsLife {
            logsViewLoading = true
            if let className = key.className { classesLoggingLoad[className] = true }
        }
        guard let list = index.list(key) else { return .certain(.new) }
        if key.label != nil {
            // An address or id proves identity; a dead one reused starts a new instance. A forgotten one is new.
            guard let newest = remembered(list.newest) else {
                index.forget(key)
                return .certain(.new)
            }
            return .certain(lifecycles[newest].phase == .dead && callback.beginsLife ? .new : .existing(newest))
        }
        if callback == .initialize { return .certain(.new) }
        let logsLoading = key.className.map { classesLoggingLoad[$0] } ?? logsViewLoading
        let newRank = InferenceRules.newInstanceRank(callback, classLogsLoading: logsLoading)
        if list.live == 0 {
            // Every instance of the class is dead: a new life, or a callback after dealloc on the newest when the class
            // logs its creation (in this launch, or anywhere in the input before).
            guard newRank == nil, let newest = remembered(list.newest),
                  logsLoading || key.className.map(roles.classLogsCreation) == true else { return .certain(.new) }
            return .certain(.existing(newest))
        }
        // A class that logs neither its creation nor its loading may make and release an instance the log never shows.
        let unseenMayDie = callback == .dealloc && !logsLoading && key.className.map(roles.classLogsCreation) != true
        if list.live == 1, newRank == nil, !unseenMayDie, list.newest == list.newestLive { return .certain(.existing(list.newestLive)) }
        return choose(among: list, callback: callback, newRank: newRank, unseenMayDie: unseenMayDie, roles: roles)
    }

    /// Whether the class logged a life's first callbacks (init, loadView, viewDidLoad) in this session.
    func logsLoading(_ className: ClassName) -> Bool { classesLoggingLoad[className] }

    /// A live instance with the event's class (and no address or id) that is appearing; nil for none.
    func appearingInstance(like event: borrowing Event) -> Int? {
        let key = InstanceKey(event.message)
        guard key.label == nil, let list = index.list(key) else { return nil }
        var candidate: Int? = list.newestLive >= 0 ? list.newestLive : nil
        var considered = 0
        while let instance = candidate, considered < InferenceRules.maxCandidates {
            if lifecycles[instance].phase == .appearing { return instance }
            candidate = index.liveInstance(before: instance)
            considered += 1
        }
        return nil
    }

    /// The instance a decision chose: made when it is a new one.
    mutating func instance(for choice: InstanceChoice, weighed: Bool, event: borrowing Event, naming: InstanceNames) -> Int {
        switch choice {
        case .existing(let instance):
            if weighed { reports[instance].identity = .inferred }
            return instance
        case .new:
            return makeInstance(for: event, key: InstanceKey(event.message), naming: naming)
        }
    }

    /// The most plausible live instance for the callback: legal first, then by rank, then the newest; a new instance
    /// when it is more plausible than any of them. The runner-up, when it is legal and nearly as plausible, is the
    /// alternative.
    private func choose(among list: InstanceIndex.List, callback: Callback, newRank: Int?, unseenMayDie: Bool,
                        roles: some InstanceRoles) -> RoutingDecision {
        // `loaded`: a view just loaded, for a viewWillAppear. It is about to be shown: against another instance that
        // fits as well (one a pop would reveal) it is the likelier, since a view loaded and never shown is rarer than
        // a push; it comes first, and the one it beat is kept one rank behind.
        typealias Candidate = (instance: Int, illegal: Bool, rank: Int, loaded: Bool)
        func precedes(_ one: Candidate, _ other: Candidate) -> Bool {
            (one.illegal ? 1 : 0, one.rank, one.loaded ? 0 : 1) < (other.illegal ? 1 : 0, other.rank, other.loaded ? 0 : 1)
        }
        var best: Candidate?
        var second: Candidate?
        var considered = 0
        var walked = 0
        var candidate: Int? = list.newestLive >= 0 ? list.newestLive : nil
        while let instance = candidate, walked < InferenceRules.maxWalked {
            candidate = index.liveInstance(before: instance)
            walked += 1
            // Past the window, only one on screen, in the transition under way or on a stack is weighed.
            guard considered < InferenceRules.maxCandidates || lifecycles[instance].isOnScreen || roles.isPlaced(instance) else { continue }
            considered += 1
            let illegal = lifecycles[instance].judge(callback) != nil
            let rank = InferenceRules.rank(callback, lifecycles[instance]) { roles.facts(of: instance, for: callback) }
            let entry = (instance, illegal, rank, callback == .viewWillAppear && lifecycles[instance].isFreshlyLoaded)
            if let current = best, !precedes(entry, current) {
                if second.map({ precedes(entry, $0) }) ?? true { second = entry }
                continue
            }
            second = best
            best = entry
        }
        if let newRank, best.map({ $0.illegal || newRank < $0.rank }) ?? true {
            var decision = RoutingDecision(choice: .new, rank: newRank)
            if let best, !best.illegal,
               InferenceRules.keepsAlternative(callback, extraRank: best.rank - newRank, chosen: nil, existing: lifecycles[best.instance]) {
                decision.alternative = (.existing(best.instance), best.rank)
            }
            return decision
        }
        guard let best else { return .certain(.new) }
        if best.loaded, !best.illegal, var other = second, !other.illegal, !other.loaded, other.rank == best.rank {
            other.rank += 1
            second = other
        }
        var decision = RoutingDecision(choice: .existing(best.instance), rank: best.rank, weighed: considered > 1)
        guard !best.illegal else {
            // No instance known to be alive may die here: another, never logged, may have been the one released.
            if unseenMayDie { decision.alternative = (.new, best.rank + InferenceRules.unseenInstanceDeallocCost) }
            return decision
        }
        // A class that logs no loading: a push of a new instance reads exactly like a pop back to an existing one.
        let unloggedNew = newRank != nil && callback == .viewWillAppear ? best.rank + InferenceRules.unloggedNewInstanceCost : nil
        if let second, !second.illegal,
           InferenceRules.keepsAlternative(callback, extraRank: second.rank - best.rank, chosen: lifecycles[best.instance],
                                           existing: lifecycles[second.instance]) {
            decision.alternative = (.existing(second.instance), second.rank)
            decision.newAlternative = unloggedNew
        } else if let unloggedNew {
            decision.alternative = (.new, unloggedNew)
        } else if let newRank,
                  InferenceRules.keepsAlternative(callback, extraRank: newRank - best.rank, chosen: lifecycles[best.instance], existing: nil) {
            decision.alternative = (.new, newRank)
        }
        return decision
    }

    private mutating func makeInstance(for event: borrowing Event, key: InstanceKey, naming: InstanceNames) -> Int {
        let list = index.list(key)
        let names = naming.naming(of: event.message, ordinal: (list?.count ?? 0) + 1)
        let identity: InstanceIdentity
        switch event.message.instance {
        case .address?: identity = .address
        case .id?: identity = .id
        case nil: identity = (list?.live ?? 0) > 0 ? .inferred : .className
        }
        let report = ControllerReport(id: names.id, className: names.className, address: names.address, identity: identity,
                                      firstLine: event.line,
                                      lastLine: event.line, eventCount: 0, events: [], loadToFirstAppearMs: nil,
                                      appearances: [], finalPhase: .unknown,
                                      kind: event.callback.family == .view ? .view : .controller)
        let instance: Int
        if let free = freeSlots.popLast() {
            instance = free
            lifecycles[instance] = ControllerLifecycle()
            reports[instance] = report
            slots[instance] = Slot(serial: created)
        } else {
            instance = lifecycles.count
            lifecycles.append(ControllerLifecycle())
            reports.append(report)
            slots.append(Slot(serial: created))
        }
        created += 1
        index.add(instance, key)
        return instance
    }

    /// Takes a callback routed to `instance`; returns the deviation it was.
    @inline(__always)
    mutating func take(_ callback: Callback, by instance: Int, line: Int, micros: Int64?) -> LifecycleViolation? {
        // The phase and containment before and after, read as stored values: a computed property of an element
        // would copy the element.
        let wasDead = lifecycles[instance].phase == .dead
        let wasVisible = lifecycles[instance].phase == .visible && !lifecycles[instance].isChild
        let violation = lifecycles[instance].take(callback, line: line, micros: micros,
                                                  listedAppearances: limits.appearancesPerController, report: &reports[instance],
                                                  outcomes: outcomes)
        let isVisible = lifecycles[instance].phase == .visible && !lifecycles[instance].isChild
        // A SwiftUI view on screen is not a controller on screen: transitions between controllers do not count it.
        if isVisible != wasVisible, callback.family != .view { visibleNonChildren += isVisible ? 1 : -1 }
        if !wasDead, lifecycles[instance].phase == .dead { died(instance) }
        if callback == .viewWillAppear, lifecycles[instance].phase != .dead { index.touch(instance) }
        return violation
    }

    private mutating func died(_ instance: Int) {
        index.died(instance)
        deaths += 1
        deathsSinceRelease += 1
        slots[instance].deathNumber = deaths
    }

    /// Whether a callback can still be routed to the instance when it is its key's newest: alive, or died less than
    /// `SessionLimits.rememberedDeadInstances` deaths ago.
    @inline(__always)
    private func isRemembered(_ instance: Int) -> Bool {
        lifecycles[instance].phase != .dead || deaths - slots[instance].deathNumber < limits.rememberedDeadInstances
    }

    /// A key's newest instance (-1 for none) if it is remembered.
    @inline(__always)
    private func remembered(_ newest: Int) -> Int? {
        newest >= 0 && isRemembered(newest) ? newest : nil
    }

    /// Whether enough instances died since `releaseDead` last looked for another look to be worth it.
    var releaseIsDue: Bool { deathsSinceRelease >= nextRelease }

    /// Releases the dead instances that no callback can be routed to any more and that `isReferenced` (the transition
    /// under way, the stacks, the leak watch) does not name: files their reports and frees their slots. The others
    /// wait for the next look.
    mutating func releaseDead(isReferenced: (Int) -> Bool) {
        for instance in slots.indices where slots[instance].serial >= 0 && lifecycles[instance].phase == .dead {
            if (index.isNewest(instance) && isRemembered(instance)) || isReferenced(instance) { continue }
            release(instance)
        }
        deathsSinceRelease = 0
        nextRelease = max(InstanceRegistry.firstRelease, occupiedSlots, slotCount / 4)
    }

    private mutating func release(_ instance: Int) {
        index.forget(newest: instance)
        var report = InstanceRegistry.vacant
        swap(&report, &reports[instance])
        report.finalPhase = lifecycles[instance].phase
        if slots[instance].serial < limits.listedControllers {
            listedReleased.append((slots[instance].serial, report))
        } else {
            addUnlisted(report)
        }
        slots[instance].serial = -1
        freeSlots.append(instance)
    }

    private mutating func addUnlisted(_ report: ControllerReport) {
        unlisted[report.className, default: UnlistedControllers(className: report.className, instances: 0, eventCount: 0,
                                                                firstLine: report.firstLine, lastLine: report.lastLine)].add(report)
    }

    /// What a free slot holds in place of a report: nothing that takes memory.
    private static let vacant = ControllerReport(id: "", className: "", address: nil, identity: .className, firstLine: 0, lastLine: 0,
                                                 eventCount: 0, events: [], loadToFirstAppearMs: nil, appearances: [], finalPhase: .dead)

    /// Appends an event record to the instance's timeline.
    mutating func keep(_ record: EventRecord, of instance: Int) { reports[instance].events.append(record) }

    /// The name findings and transitions use.
    func name(of instance: Int) -> String { reports[instance].id }

    /// The name with how its identity is known, for the text of findings.
    func describedName(of instance: Int) -> String {
        reports[instance].identity == .inferred ? reports[instance].id + " (inferred)" : reports[instance].id
    }

    /// The session is over: the reports it lists, in the order the instances were created, with their final phases;
    /// and the deallocated instances past the first `SessionLimits.listedControllers`, by class in the order of their
    /// first lines.
    mutating func finalReports() -> (listed: [ControllerReport], unlisted: [UnlistedControllers]) {
        // The common case: nothing was released, and every instance is listed, in its slot's order.
        if created == lifecycles.count, freeSlots.isEmpty, created <= limits.listedControllers {
            for instance in reports.indices { reports[instance].finalPhase = lifecycles[instance].phase }
            return (reports, [])
        }
        var listed = listedReleased
        listedReleased = []
        for instance in reports.indices where slots[instance].serial >= 0 {
            var report = InstanceRegistry.vacant
            swap(&report, &reports[instance])
            report.finalPhase = lifecycles[instance].phase
            if report.finalPhase == .dead, slots[instance].serial >= limits.listedControllers {
                addUnlisted(report)
            } else {
                listed.append((slots[instance].serial, report))
            }
        }
        listed.sort { $0.serial < $1.serial }
        let unlistedByFirstLine = unlisted.values.sorted { ($0.firstLine, $0.className) < ($1.firstLine, $1.className) }
        return (listed.map(\.report), unlistedByFirstLine)
    }

    /// New means its life began with its view loading. When the app logs no viewDidLoad at all, a controller first
    /// seen in the transition counts as new instead.
    func isNew(_ instance: Int, at line: Int) -> Bool {
        if let appeared = lifecycles[instance].firstAppearanceLine, appeared < line { return false }
        if lifecycles[instance].firstCallback?.beginsLife == true { return true }
        return !logsViewLoading && reports[instance].firstLine >= line
    }

    /// Whether two instances could be each other: one class, known by it alone, both alive.
    func areInterchangeable(_ first: Int, _ second: Int) -> Bool {
        let (one, other) = (reports[first], reports[second])
        return one.className == other.className && one.address == nil && other.address == nil
            && (one.identity == .className || one.identity == .inferred) && (other.identity == .className || other.identity == .inferred)
            && lifecycles[first].phase != .dead && lifecycles[second].phase != .dead
    }

    /// Whether an instance other than `instance`, and not the child of a container, is visible.
    func isAnyOtherVisible(than instance: Int) -> Bool {
        let isVisible = lifecycles[instance].phase == .visible && !lifecycles[instance].isChild
        return visibleNonChildren > (isVisible ? 1 : 0)
    }
}

/// What an instance is found by: its class, and what names it in the messages when they do (an address or an id).
struct InstanceKey: Hashable {
    var className: ClassName?
    var label: InstanceLabel?

    init(_ message: CallbackMessage) {
        className = message.className
        label = message.instance
    }
}

/// Controller instances by what they are found by: for each key its newest instance and its live ones, newest first,
/// with how many it has had. Instances found by class alone (the common case) are in a table by class, found without
/// hashing. Everything in it is a plain value: finding an instance copies no storage.
private struct InstanceIndex {
    /// The newest instance with a key (-1 once it is forgotten), the newest live one (-1 for none), how many the key
    /// has had (what numbers the next one's name) and how many of them are alive.
    struct List {
        var newest: Int
        var newestLive: Int
        var count: Int
        var live: Int
    }

    private var byClass = ClassTable<List?>(empty: nil)
    private var byKey: [InstanceKey: List] = [:]
    /// By slot: the instance's key, and the live instances with the same key next to it.
    private var links: [Link] = []

    /// The live instances with one key are linked both ways, so that one that dies leaves the list at once and the
    /// instances weighed against each other are live ones only.
    private struct Link {
        var key: InstanceKey
        /// The live instances created just before and just after it (-1 for none).
        var olderLive = -1
        var newerLive = -1
    }

    mutating func reserveCapacity(_ slots: Int) { links.reserveCapacity(slots) }

    /// The instances with the key; nil for none.
    @inline(__always)
    func list(_ key: InstanceKey) -> List? {
        if key.label == nil, let className = key.className { return byClass[className] }
        return byKey[key]
    }

    private mutating func setList(_ list: List?, _ key: InstanceKey) {
        if key.label == nil, let className = key.className {
            byClass[className] = list
        } else {
            byKey[key] = list
        }
    }

    /// The live instance with the same key created before `instance`; nil for the oldest.
    func liveInstance(before instance: Int) -> Int? {
        let before = links[instance].olderLive
        return before >= 0 ? before : nil
    }

    /// Whether the instance is its key's newest.
    func isNewest(_ instance: Int) -> Bool { list(links[instance].key)?.newest == instance }

    /// Adds a new instance in `slot`, a new slot or a freed one.
    mutating func add(_ slot: Int, _ key: InstanceKey) {
        let list = self.list(key)
        let older = list?.newestLive ?? -1
        let link = Link(key: key, olderLive: older)
        if slot == links.count { links.append(link) } else { links[slot] = link }
        if older >= 0 { links[older].newerLive = slot }
        setList(List(newest: slot, newestLive: slot, count: (list?.count ?? 0) + 1, live: (list?.live ?? 0) + 1), key)
    }

    /// The instance is appearing: it becomes the first of its key's live ones, so that the candidates weighed for a
    /// callback (`InferenceRules.maxCandidates`, first to last) are the ones shown last, not the ones made last. A
    /// class that logs no dealloc keeps every instance it ever popped alive; those drift to the end, and the ones on
    /// screen and on the stacks stay in reach.
    mutating func touch(_ instance: Int) {
        let link = links[instance]
        guard var list = list(link.key), list.newestLive != instance, link.newerLive >= 0 else { return }
        // Out of its place…
        links[link.newerLive].olderLive = link.olderLive
        if link.olderLive >= 0 { links[link.olderLive].newerLive = link.newerLive }
        // …and in front.
        links[instance].olderLive = list.newestLive
        links[instance].newerLive = -1
        links[list.newestLive].newerLive = instance
        list.newestLive = instance
        setList(list, link.key)
    }

    /// The instance was deallocated: it leaves its key's live ones.
    mutating func died(_ instance: Int) {
        let link = links[instance]
        guard var list = list(link.key) else { return }
        if link.olderLive >= 0 { links[link.olderLive].newerLive = link.newerLive }
        if link.newerLive >= 0 { links[link.newerLive].olderLive = link.olderLive } else { list.newestLive = link.olderLive }
        links[instance].olderLive = -1
        links[instance].newerLive = -1
        list.live -= 1
        setList(list, link.key)
    }

    /// The instance, dead, is released: if it is its key's newest, the key has none any more. A key that an address or
    /// id names, with no live instance, is forgotten with it.
    mutating func forget(newest instance: Int) {
        let key = links[instance].key
        guard var list = list(key), list.newest == instance else { return }
        if key.label != nil, list.live == 0 { return forget(key) }
        list.newest = -1
        setList(list, key)
    }

    /// Forgets the key, and how many instances it had.
    mutating func forget(_ key: InstanceKey) { setList(nil, key) }
}
