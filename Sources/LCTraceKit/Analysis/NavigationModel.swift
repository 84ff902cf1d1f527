/// The session's screens as far as the log shows them (ground truth §4, §6, §7): several stacks — one per tab, each
/// with its pushes and the presentations over it — of which one is on screen. Transitions change it; the transition
/// tracker reads it to tell a push from a pop, and the instance registry to tell which of several instances of a class
/// a callback is for.
struct NavigationModel {
    /// One controller on a stack, and how it got there.
    private struct Level {
        var controller: Int
        /// The transition that put it there; nil for a stack's root.
        var arrival: TransitionKind?
    }

    /// What a backward transition took off a stack.
    struct Removal {
        /// The controller that disappeared in the transition: removed on evidence. (One at most: an array of one
        /// was made for every pop and dismiss.)
        var left: Int?
        /// Controllers between them and the target, taken off without a callback (a pop-to-root's intermediates).
        var silent: [Int] = []
    }

    /// Bottom first. Kept short: the oldest stacks and levels are forgotten first.
    private var stacks: [[Level]] = []
    /// The stack on screen.
    private var active = 0
    private static let maxStacks = 32
    private static let maxLevels = 256
    private static let levelsReserved = 4
    private static let maxRemoved = 4096

    /// How a controller left a stack in a backward transition, if it was not seen since.
    private enum Departure: UInt8 {
        case none, silent, onEvidence
    }

    /// Each controller's departure, by its number (controllers are numbered from 0 by the session, their numbers
    /// reused): a list rather than a dictionary, since it is looked at on every appearance and every closed
    /// transition. Never longer than twice the highest number that left a stack, plus one, or 16.
    private var departures: [Departure] = []
    /// How many controllers have a departure.
    private var departedCount = 0

    private func departure(of controller: Int) -> Departure {
        assert(controller >= 0, "a controller number below 0")
        return controller < departures.count ? departures[controller] : .none
    }

    private mutating func setDeparture(_ departure: Departure, of controller: Int) {
        assert(controller >= 0, "a controller number below 0")
        if controller >= departures.count {
            guard departure != .none else { return }
            // Grown to twice its length at least: controllers leave in about the order they were numbered, a higher
            // number at a time, and one append then makes room for many.
            let count = max(controller + 1, 2 * departures.count, 16)
            departures.append(contentsOf: repeatElement(.none, count: count - departures.count))
        }
        departedCount += (departure == .none ? 0 : 1) - (departures[controller] == .none ? 0 : 1)
        departures[controller] = departure
    }

    // MARK: Questions

    /// The stack holding `controller`, and its level there.
    private func place(of controller: Int) -> (stack: Int, level: Int)? {
        if !stacks.isEmpty, let level = level(of: controller, in: active) { return (active, level) }
        for stack in stacks.indices where stack != active {
            if let level = level(of: controller, in: stack) { return (stack, level) }
        }
        return nil
    }

    /// The controller's highest level on `stack` (below `below` when given), or nil: read in place, by index, since a
    /// slice of the stack's list, or a closure over it, would retain and release the list.
    @inline(__always)
    private func level(of controller: Int, in stack: Int, below: Int? = nil) -> Int? {
        var level = below ?? stacks[stack].count
        while level > 0 {
            level -= 1
            if stacks[stack][level].controller == controller { return level }
        }
        return nil
    }

    /// Whether the model knows the controller (it is on a stack).
    func knows(_ controller: Int) -> Bool { place(of: controller) != nil }

    /// How many levels `target` is below `top` on top's stack; nil when it is not below it.
    func levels(from top: Int, backTo target: Int) -> Int? {
        guard let top = place(of: top), let level = level(of: target, in: top.stack, below: top.level) else { return nil }
        return top.level - level
    }

    /// Whether the controller was last shown as a sheet (its presenter stayed on screen).
    func isShownAsSheet(_ controller: Int) -> Bool {
        place(of: controller).map { stacks[$0.stack][$0.level].arrival == .sheetPresent } ?? false
    }

    /// Whether the controller is the top of the stack on screen.
    func isOnTop(_ controller: Int) -> Bool {
        !stacks.isEmpty && stacks[active].last?.controller == controller
    }

    /// Whether the controller is the top of a stack: what a tab switch shows.
    func isTopOfAStack(_ controller: Int) -> Bool {
        stacks.contains { $0.last?.controller == controller }
    }

    /// The controller a pop or dismiss of `leaving` reveals: the one right below it, unless `leaving` is a sheet, whose
    /// presenter gets no callbacks.
    func revealed(byLeaving leaving: Int) -> Int? {
        guard let place = place(of: leaving), place.level > 0,
              stacks[place.stack][place.level].arrival != .sheetPresent else { return nil }
        return stacks[place.stack][place.level - 1].controller
    }

    /// The navigation controller `controller` is in: its stack, the controller's level, the level of the navigation
    /// controller's root (a stack's root, or a presented controller), and the controller that presented it full screen
    /// (nil for a stack's root, and for a sheet, whose presenter gets no callbacks).
    /// The stack is named by its number rather than handed out, which would retain and release its list.
    private func navigationController(of controller: Int) -> (stack: Int, level: Int, root: Int, presenter: Int?)? {
        guard let place = place(of: controller) else { return nil }
        let stack = place.stack
        var root = place.level
        while root > 0, stacks[stack][root].arrival == .push { root -= 1 }
        let presenter = stacks[stack][root].arrival == .present && root > 0 ? stacks[stack][root - 1].controller : nil
        return (stack, place.level, root, presenter)
    }

    /// Whether a pop, pop-to-root or dismiss of `leaving` can reveal `target`: a controller below it in its navigation
    /// controller, or the presenter of that navigation controller unless it was shown as a sheet.
    func canReveal(_ target: Int, byLeaving leaving: Int) -> Bool {
        guard let navigation = navigationController(of: leaving) else { return false }
        for level in navigation.root..<navigation.level where stacks[navigation.stack][level].controller == target { return true }
        return navigation.presenter == target
    }

    /// The controller a backward transition of `kind` from `leaving` returns to: the one right below it for a pop, its
    /// navigation controller's root for a pop-to-root, the presenter of its navigation controller for a dismiss.
    func target(of kind: TransitionKind, leaving: Int) -> Int? {
        guard let navigation = navigationController(of: leaving) else { return nil }
        switch kind {
        case .popToRoot:
            return navigation.root < navigation.level ? stacks[navigation.stack][navigation.root].controller : nil
        case .dismiss where navigation.presenter != nil:
            return navigation.presenter
        default:
            return revealed(byLeaving: leaving)
        }
    }

    /// Two controllers that cannot be told apart trade places: the log showed that the one believed elsewhere is the
    /// one at the other's place.
    mutating func exchange(_ first: Int, _ second: Int) {
        let places = (place(of: first), place(of: second))
        if let place = places.0 { stacks[place.stack][place.level].controller = second }
        if let place = places.1 { stacks[place.stack][place.level].controller = first }
    }

    /// Whether the controller left a stack and was not seen since: `true` on evidence, `false` silently, nil when not.
    func leftOnEvidence(_ controller: Int) -> Bool? {
        switch departure(of: controller) {
        case .none: nil
        case .silent: false
        case .onEvidence: true
        }
    }

    /// Whether the model holds the controller anywhere: on a stack, or as one that left a stack.
    func references(_ controller: Int) -> Bool {
        knows(controller) || departure(of: controller) != .none
    }

    // MARK: Changes

    /// A transition of `kind` closed, from `from` to `to`. Returns what a backward one took off its stack.
    mutating func record(_ kind: TransitionKind, direction: TransitionTemplate.Direction, from: Int?, to: Int?) -> Removal {
        if let to, departedCount > 0 { setDeparture(.none, of: to) }
        switch direction {
        case .forward:
            guard let to else { return Removal() }
            forget(to)
            let stack = from.flatMap { place(of: $0)?.stack } ?? stackForNewRoot(from)
            stacks[stack].append(Level(controller: to, arrival: kind))
            if stacks[stack].count > NavigationModel.maxLevels { stacks[stack].removeFirst() }
            active = stack
            return Removal()
        case .backward:
            return recordBackward(from: from, to: to)
        case .lateral:
            guard kind == .tabSwitch || kind == .appear, let to else { return Removal() }
            // The tab shown is the stack whose top it is; a tab selected the first time starts a stack of its own.
            if let place = place(of: to), place.level == stacks[place.stack].count - 1 {
                active = place.stack
            } else if place(of: to) == nil {
                if let from, place(of: from) == nil { _ = stackForNewRoot(from) }
                active = newStack(root: to)
            }
            return Removal()
        }
    }

    private mutating func recordBackward(from: Int?, to: Int?) -> Removal {
        var removal = Removal()
        guard let from else { return removal }
        if let fromPlace = place(of: from) {
            let stack = fromPlace.stack
            var cut = fromPlace.level
            if let to, let target = level(of: to, in: stack, below: fromPlace.level) { cut = target + 1 }
            for level in cut..<stacks[stack].count where stacks[stack][level].controller != from {
                removal.silent.append(stacks[stack][level].controller)
            }
            stacks[stack].truncate(to: cut)
            active = stack
        }
        removal.left = from
        // Kept bounded: controllers that leave and are never seen again (leaks, classes that log no dealloc) pile up.
        if departedCount > NavigationModel.maxRemoved {
            departures.removeAll(keepingCapacity: true)
            departedCount = 0
        }
        for controller in removal.silent { setDeparture(.silent, of: controller) }
        setDeparture(.onEvidence, of: from)
        return removal
    }

    /// The controller appeared again or was deallocated: it is no longer a removed one.
    mutating func seen(_ controller: Int) {
        if departedCount > 0 { setDeparture(.none, of: controller) }
    }

    /// The controller was deallocated: it is on no stack any more.
    mutating func deallocated(_ controller: Int) {
        if departedCount > 0 { setDeparture(.none, of: controller) }
        forget(controller)
    }

    private mutating func forget(_ controller: Int) {
        guard let place = place(of: controller) else { return }
        stacks[place.stack].remove(at: place.level)
        if stacks[place.stack].isEmpty { dropStack(place.stack) }
    }

    /// A stack for a controller the model did not know: it becomes the root of a new one.
    private mutating func stackForNewRoot(_ root: Int?) -> Int {
        guard let root else { return stacks.isEmpty ? newStack(root: nil) : active }
        return newStack(root: root)
    }

    private mutating func newStack(root: Int?) -> Int {
        if stacks.count >= NavigationModel.maxStacks { dropStack(stacks.indices.first { $0 != active } ?? 0) }
        // Room for a few levels from the start: a stack made for one level grew twice as the next were pushed.
        var levels: [Level] = []
        levels.reserveCapacity(NavigationModel.levelsReserved)
        if let root { levels.append(Level(controller: root, arrival: nil)) }
        stacks.append(levels)
        return stacks.count - 1
    }

    private mutating func dropStack(_ stack: Int) {
        stacks.remove(at: stack)
        if active > stack { active -= 1 } else if active == stack { active = max(0, stacks.count - 1) }
    }
}
