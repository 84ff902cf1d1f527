/// How much of one session its report keeps. `log stream | lctrace` and `--follow` are one session without end, so
/// what a session keeps must be bounded by the controllers alive in it, not by its events or by the instances that
/// ever lived in it. Whatever a report leaves out it counts, and the reporters say so; findings are all handed to the
/// output and counted in the summary whatever the session report keeps of them.
struct SessionLimits: Sendable {
    /// Controllers a session lists: the first ones created, and every one not known to be deallocated when the
    /// session ends. The others, deallocated, are summed up by class (`UnlistedControllers`).
    var listedControllers = 1_000
    /// Appearance spans a controller lists: its first ones. Later ones are counted.
    var appearancesPerController = 100
    /// Transitions a session lists: its first ones. Later ones are counted (and still streamed by JSON Lines).
    var listedTransitions = 10_000
    /// Findings a session report keeps, for the text report's session block: its first ones.
    var listedFindings = 10_000
    /// Events of a session the timeline reports (`chrome-trace`, `html`, `mermaid`) draw: its first ones. The session
    /// keeps no more for them; the line of the first event past them and the number of events from there on are
    /// noted in its report, and the timelines draw nothing from that line on (`SessionReport.timelineCut`).
    var timelineEvents = 50_000
    /// How long a deallocated instance can still be named by the callbacks that follow its dealloc (a callback after
    /// dealloc, an address reused): until this many more instances of the session have died. Older ones are
    /// forgotten, and their memory reused; an address seen again after that names a new instance counted from one.
    var rememberedDeadInstances = 4_096

    init() {}
}
