/// Where a session sends what it decides, the moment it decides it.
protocol SessionFeed: AnyObject {
    /// Whether events and transitions are wanted live (streaming output).
    var wantsLiveItems: Bool { get }
    func finding(_ finding: Finding)
    func event(_ event: LiveEvent, subject: String, session: Int, input: String)
    func transition(_ transition: TransitionReport, session: Int, input: String)
    /// A duration for the run's percentiles, the moment it is measured (the session's report may not list what it
    /// belongs to): a controller's viewDidLoad → first viewDidAppear, named by its class; a transition's, by its kind.
    func duration(_ ms: Double, of kind: DurationKind, name: String)
}

/// What a duration of the run's timing measures.
enum DurationKind {
    case loadToFirstAppear
    case transition
}

/// What one input has shown so far, shared by its sessions.
final class InputKnowledge {
    /// Classes that logged dealloc/deinit: their missing deallocs are possible leaks, not unknowns.
    private(set) var classesLoggingDealloc: Set<String>
    /// Classes asked about while not (yet) known to log dealloc. A part of an input analysed before the parts
    /// ahead of it are known is valid only if none of these logged dealloc in those parts.
    private(set) var unknownWhenAsked: Set<String> = []

    init(classesLoggingDealloc: Set<String> = []) {
        self.classesLoggingDealloc = classesLoggingDealloc
    }

    func logsDealloc(_ className: String) -> Bool {
        if classesLoggingDealloc.contains(className) { return true }
        unknownWhenAsked.insert(className)
        return false
    }

    /// Notes that the class logs dealloc (`className` is its text): a class already noted is not hashed again.
    func noteDealloc(_ name: ClassName, className: String) {
        guard !noted[name] else { return }
        noted[name] = true
        classesLoggingDealloc.insert(className)
    }

    /// The classes `noteDealloc` put in `classesLoggingDealloc` already.
    private var noted = ClassTable(empty: false)
}
