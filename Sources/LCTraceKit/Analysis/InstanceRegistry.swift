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
            let expected = life.isFreshlyLoaded || role.isRevealed || (role.fit == .opens && role.isTopOfAStack)
            let buried = role.fit != .opens && !expected && !role.isParticipant && role.isOnStack && !role.isBelowLeaving
            return (buried ? 10 : 0) + role.fit.rawValue * 2 + (expected ? 0 : 1)
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

    /// How many live instances of one class are weighed against each other at most.
    static let maxCandidates = 8
}

/// Identity: which instance each controller callback belongs to, and the instances' lives and reports (kept side by
/// side, by the same index). By address or app id when the messages carry one; by class otherwise, where several
/// live instances of one class are told apart by `InferenceRules`.
struct InstanceRegistry {
    private(set) var lifecycles: [ControllerLifecycle] = []
    /// Each instance's report: handed to the session's report as it is at the end.
    private(set) var reports: [ControllerReport] = []
    private var index = InstanceIndex()
    /// Classes that logged a life's first callbacks (init, loadView, viewDidLoad) in the session.
    private var classesLoggingLoad = ClassTable(empty: false)
    /// Some controller logged viewDidLoad (or init/loadView) in this session.
    private(set) var logsViewLoading = false
    /// Instances visible and not the child of a container. Counted as they change, so that whether another one is
    /// visible is not a walk over every instance (which made a session quadratic in its instances).
    private var visibleNonChildren = 0

    var count: Int { lifecycles.count }

    init(expected: Int) {
        lifecycles.reserveCapacity(expected)
        reports.reserveCapacity(expected)
    }

    /// The instance a callback belongs to; a new one when no live instance can be it.
    mutating func route(_ event: borrowing Event, names: NameTable, roles: some InstanceRoles) -> Int {
        let callback = event.callback
        let key = InstanceKey(event.message)
        if callback.beginsLife {
            logsViewLoading = true
            if let className = key.className { classesLoggingLoad[className] = true }
        }
        guard let list = index.list(key) else { return makeInstance(for: event, key: key, names: names) }
        if key.label != nil {
            // An address or id proves identity; a dead one reused starts a new instance.
            let newest = list.newest
            return lifecycles[newest].phase == .dead && callback.beginsLife ? makeInstance(for: event, key: key, names: names) : newest
        }
        if callback == .initialize { return makeInstance(for: event, key: key, names: names) }
        let logsLoading = key.className.map { classesLoggingLoad[$0] } ?? logsViewLoading
        let newRank = InferenceRules.newInstanceRank(callback, classLogsLoading: logsLoading)
        if list.live == 0 {
            // Every instance of the class is dead: a new life, or a callback after dealloc on the newest.
            return newRank != nil || !logsLoading ? makeInstance(for: event, key: key, names: names) : list.newest
        }
        if list.live == 1, newRank == nil, lifecycles[list.newest].phase != .dead { return list.newest }
        if let chosen = choose(among: list, callback: callback, newRank: newRank, roles: roles) { return chosen }
        return makeInstance(for: event, key: key, names: names)
    }

    /// The most plausible live instance for the callback: legal first, then by rank, then the newest. Nil when a new
    /// instance is more plausible than any of them.
    private mutating func choose(among list: InstanceIndex.List, callback: Callback, newRank: Int?, roles: some InstanceRoles) -> Int? {
        var best: (instance: Int, illegal: Bool, rank: Int)?
        var considered = 0
        var walked = 0
        var candidate: Int? = list.newest
        while let instance = candidate, considered < InferenceRules.maxCandidates, walked < 4 * InferenceRules.maxCandidates {
            walked += 1
            candidate = index.instance(before: instance)
            guard lifecycles[instance].phase != .dead else { continue }
            considered += 1
            let illegal = lifecycles[instance].judge(callback) != nil
            let rank = InferenceRules.rank(callback, lifecycles[instance]) { roles.facts(of: instance, for: callback) }
            if let current = best, (current.illegal ? 1 : 0, current.rank) <= (illegal ? 1 : 0, rank) { continue }
            best = (instance, illegal, rank)
        }
        if let newRank, best.map({ $0.illegal || newRank < $0.rank }) ?? true { return nil }
        guard let best else { return list.newest }
        if considered > 1 { reports[best.instance].identity = .inferred }
        return best.instance
    }

    private mutating func makeInstance(for event: borrowing Event, key: InstanceKey, names: NameTable) -> Int {
        let className = names.className(of: event.message) ?? "?"
        let ordinal = (index.list(key)?.count ?? 0) + 1
        let address = names.instanceText(event.message)
        var id = address.map { "\(className)@\($0)" } ?? className
        if ordinal > 1 { id += "#\(ordinal)" }
        let identity: InstanceIdentity
        switch event.message.instance {
        case .address?: identity = .address
        case .id?: identity = .id
        case nil: identity = (index.list(key)?.live ?? 0) > 0 ? .inferred : .className
        }
        let instance = lifecycles.count
        lifecycles.append(ControllerLifecycle())
        reports.append(ControllerReport(id: id, className: className, address: address, identity: identity, firstLine: event.line,
                                        lastLine: event.line, eventCount: 0, events: [], loadToFirstAppearMs: nil,
                                        appearances: [], finalPhase: .unknown))
        index.add(instance, key)
        return instance
    }

    /// Takes a callback routed to `instance`; returns the deviation it was.
    mutating func take(_ callback: Callback, by instance: Int, line: Int, micros: Int64?) -> LifecycleViolation? {
        // The phase and containment before and after, read as stored values: a computed property of an element
        // would copy the element.
        let wasDead = lifecycles[instance].phase == .dead
        let wasVisible = lifecycles[instance].phase == .visible && !lifecycles[instance].isChild
        let violation = lifecycles[instance].take(callback, line: line, micros: micros, report: &reports[instance])
        let isVisible = lifecycles[instance].phase == .visible && !lifecycles[instance].isChild
        if isVisible != wasVisible { visibleNonChildren += isVisible ? 1 : -1 }
        if !wasDead, lifecycles[instance].phase == .dead { index.died(instance) }
        return violation
    }

    /// Appends an event record to the instance's timeline.
    mutating func keep(_ record: EventRecord, of instance: Int) { reports[instance].events.append(record) }

    /// The name findings and transitions use.
    func name(of instance: Int) -> String { reports[instance].id }

    /// The name with how its identity is known, for the text of findings.
    func describedName(of instance: Int) -> String {
        reports[instance].identity == .inferred ? reports[instance].id + " (inferred)" : reports[instance].id
    }

    /// The reports with their final phases (set in place: the session is over).
    mutating func finalReports() -> [ControllerReport] {
        for instance in reports.indices { reports[instance].finalPhase = lifecycles[instance].phase }
        return reports
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

/// Controller instances by what they are found by, as lists linked newest first, with how many of each are alive.
/// Instances found by class alone (the common case) are in a table by class, found without hashing. Everything in it
/// is a plain value: finding an instance copies no storage.
private struct InstanceIndex {
    /// The newest instance with a key, how many it has, and how many of them are alive.
    struct List {
        var newest: Int
        var count: Int
        var live: Int
    }

    private var byClass = ClassTable<List?>(empty: nil)
    private var byKey: [InstanceKey: List] = [:]
    /// By instance: the instance before it with the same key (-1 for the oldest), and the key.
    private var previous: [Int] = []
    private var keys: [InstanceKey] = []

    /// The instances with the key; nil for none.
    @inline(__always)
    func list(_ key: InstanceKey) -> List? {
        if key.label == nil, let className = key.className { return byClass[className] }
        return byKey[key]
    }

    private mutating func setList(_ list: List, _ key: InstanceKey) {
        if key.label == nil, let className = key.className {
            byClass[className] = list
        } else {
            byKey[key] = list
        }
    }

    /// The instance before `instance` in its list; nil for the oldest.
    func instance(before instance: Int) -> Int? {
        let before = previous[instance]
        return before >= 0 ? before : nil
    }

    /// Adds an instance, the next number there is.
    mutating func add(_ instance: Int, _ key: InstanceKey) {
        precondition(instance == previous.count, "instances are added in order")
        let list = self.list(key)
        previous.append(list?.newest ?? -1)
        keys.append(key)
        setList(List(newest: instance, count: (list?.count ?? 0) + 1, live: (list?.live ?? 0) + 1), key)
    }

    /// The instance was deallocated.
    mutating func died(_ instance: Int) {
        let key = keys[instance]
        guard var list = list(key) else { return }
        list.live -= 1
        setList(list, key)
    }
}
