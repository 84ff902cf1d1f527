/// Where the analysis of an input sends what it decides, the moment it decides it: findings, durations, the events
/// and transitions of streaming output, and each session's final report. The run hands it down (with the number of
/// the input's first session) and decides where the output goes; the analysis calls nothing above it but this.
protocol AnalysisOutput: AnyObject {
    /// Whether events and transitions are wanted live (streaming output).
    var wantsLiveItems: Bool { get }
    func finding(_ finding: Finding)
    func event(_ event: LiveEvent, subject: String, session: Int, input: String)
    func transition(_ transition: TransitionReport, session: Int, input: String)
    /// A duration for the run's percentiles, the moment it is measured (the session's report may not list what it
    /// belongs to): a controller's viewDidLoad → first viewDidAppear, named by its class; a transition's, by its kind.
    func duration(_ ms: Double, of kind: DurationKind, name: String)
    /// A session ended (the next one began, or its input ended); its report is final.
    func sessionClosed(_ report: SessionReport)
}

/// What a duration of the run's timing measures.
enum DurationKind {
    case loadToFirstAppear
    case transition
}

