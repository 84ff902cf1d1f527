/// What one input has shown so far of its classes' logging habits, shared by its sessions: which classes log their
/// dealloc/deinit, and which log their creation (init, loadView or viewDidLoad). A habit is known once it was seen
/// anywhere before; a class asked about before it showed one is remembered, so that a part of an input analysed
/// before the parts ahead of it are known can be checked against them (`SectionedAnalysis`).
final class InputKnowledge {
    /// A habit of one class, as a key of `facts`.
    enum Habit: String {
        case logsDealloc = "dealloc"
        case logsCreation = "creation"
        /// The app logs leaving the foreground (resign active or enter background), by the app or a scene.
        case logsBackground = "background"

        func key(_ className: String) -> String { rawValue + " " + className }
    }

    /// The habits seen, as `Habit.key`.
    private(set) var facts: Set<String>
    /// Habits asked about while not (yet) seen.
    private(set) var unknownWhenAsked: Set<String> = []

    init(facts: Set<String> = []) {
        self.facts = facts
    }

    /// Classes that logged dealloc/deinit: their missing deallocs are possible leaks, not unknowns.
    func logsDealloc(_ className: String) -> Bool { has(.logsDealloc, className) }

    /// Classes that logged their creation: a callback of one with no live instance is a deviation, not a new instance.
    func logsCreation(_ className: String) -> Bool { has(.logsCreation, className) }

    private func has(_ habit: Habit, _ className: String) -> Bool {
        let key = habit.key(className)
        if facts.contains(key) { return true }
        unknownWhenAsked.insert(key)
        return false
    }

    /// Whether the app logged leaving the foreground anywhere in the input so far.
    func logsBackground() -> Bool { has(.logsBackground, "app") }

    func noteBackground() {
        guard !notedBackground else { return }
        notedBackground = true
        facts.insert(Habit.logsBackground.key("app"))
    }

    private var notedBackground = false

    /// Whether the class was noted to log dealloc (`noteDealloc`) in this input so far.
    func notedDealloc(_ name: ClassName) -> Bool { notedDealloc[name] }

    /// Notes that the class logs dealloc (`className` is its text, read only the first time): a class already noted
    /// is not hashed again.
    func noteDealloc(_ name: ClassName, className: @autoclosure () -> String) {
        guard !notedDealloc[name] else { return }
        notedDealloc[name] = true
        facts.insert(Habit.logsDealloc.key(className()))
    }

    /// Notes that the class logs its creation.
    func noteCreation(_ name: ClassName, className: @autoclosure () -> String) {
        guard !notedCreation[name] else { return }
        notedCreation[name] = true
        facts.insert(Habit.logsCreation.key(className()))
    }

    /// The classes already noted, so that a note is one table lookup: made on every callback that begins a life or
    /// ends one. Not checked for exclusive access at run time (a call into the runtime each): only the methods above
    /// touch them, on the one thread that analyses the input, and none calls out while changing one.
    @exclusivity(unchecked) private var notedDealloc = ClassTable(empty: false)
    @exclusivity(unchecked) private var notedCreation = ClassTable(empty: false)
}
