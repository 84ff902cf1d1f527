/// The reports lctrace can write, by the name `--reporter NAME[=PATH]` takes: one reporter each, all over the
/// same report model, any number of them in one pass.
public enum ReportKind: String, CaseIterable, Sendable {
    case xcode
    case text
    case json
    case ndjson
    case sarif
    case junit
    case githubActions = "github-actions"
    case checkstyle
    case codeclimate
    case markdown
    case chromeTrace = "chrome-trace"
    case html
    case mermaid
    case mermaidShort = "mermaid-short"

    /// The names SwiftLint gives reports that are the same as one of lctrace's.
    public static let aliases: [String: ReportKind] = ["github-actions-logging": .githubActions]

    /// The reporter `--reporter` or the configuration file names: by its name, or a SwiftLint name for it.
    public init?(name: String) {
        guard let kind = ReportKind(rawValue: name) ?? ReportKind.aliases[name] else { return nil }
        self = kind
    }

    /// One line for `--help` and the README.
    public var summary: String {
        switch self {
        case .xcode: return "findings as `input:line: severity: [rule] message`, as compilers print them"
        case .text: return "the human report: sessions, timelines, transitions, findings, summary"
        case .json: return "one JSON document"
        case .ndjson: return "JSON Lines, one item per line as it completes"
        case .sarif: return "SARIF 2.1.0, for GitHub code scanning and other SARIF viewers"
        case .junit: return "JUnit XML: a test suite per input, a test case per session, failing on --fail-on"
        case .checkstyle: return "Checkstyle XML, for Jenkins and other Checkstyle readers"
        case .codeclimate: return "GitLab code quality (Code Climate JSON)"
        case .githubActions: return "GitHub workflow annotations, and a Markdown job summary"
        case .markdown: return "a Markdown summary table, one row per distinct problem"
        case .chromeTrace: return "a trace for ui.perfetto.dev and chrome://tracing: a process per session, a track per controller"
        case .html: return "one self-contained HTML page: each session as swimlanes, zoomable, with a findings table"
        case .mermaid: return "Markdown with a Mermaid sequence diagram per session, for pull requests and issues"
        case .mermaidShort: return "the Mermaid diagrams with only the transitions and findings"
        }
    }

    /// What a reporter is told about the run.
    public struct Settings: Sendable {
        /// Per-event timelines in the reports that can hold them (`text`, `json`, `ndjson`).
        public var includeEvents = true
        /// The input keeps flowing (a pipe, or `--follow`): write what is decided as soon as it is.
        public var live = false
        /// ANSI colour in the text report.
        public var color = false
        /// The configuration file the run used.
        public var config: String?
        /// Where the app's classes are declared (`--sources`): the CI reports point at them.
        public var declarations: ControllerDeclarations?
        /// The least severe finding the compiler form prints (`check --min-severity`; info by default).
        public var minimumSeverity: Severity = .info
        /// Findings from this severity on are failures (`--fail-on`).
        public var failureSeverity: Severity = .error
        public var rules = RuleSettings()
        /// The sessions the timeline reports (`chrome-trace`, `html`, `mermaid`) draw; nil: all (`--session`).
        public var sessions: SessionSelection?

        public init() {}
    }

    /// Whether the report draws sessions as timelines, and so takes `--session`.
    public var drawsTimelines: Bool {
        switch self {
        case .chromeTrace, .html, .mermaid, .mermaidShort: return true
        default: return false
        }
    }

    /// Whether the analysis must keep every event for this reporter. The timeline reports draw only the first events
    /// of the sessions they draw, which the analysis keeps for them without this (`TimelineReporter.timelineSessions`).
    public func keepsEvents(_ settings: Settings) -> Bool {
        switch self {
        case .text, .json: return settings.includeEvents
        default: return false
        }
    }

    /// The reporter, writing to `output`; `stepSummary` is where `github-actions` appends its Markdown summary.
    public func reporter(output: Output, settings: Settings, stepSummary: Output? = nil) -> any Reporter {
        switch self {
        case .xcode:
            return XcodeReporter(output: output, live: settings.live, minimumSeverity: settings.minimumSeverity,
                                 declarations: settings.declarations)
        case .text:
            return TextReporter(output: output, style: TextStyle(enabled: settings.color), includeEvents: settings.includeEvents,
                                live: settings.live)
        case .json: return JSONReporter(output: output, includeEvents: settings.includeEvents, config: settings.config)
        case .ndjson:
            return NDJSONReporter(output: output, includeEvents: settings.includeEvents, config: settings.config,
                                  flushEachLine: settings.live)
        case .sarif:
            return SARIFReporter(output: output, failureSeverity: settings.failureSeverity, rules: settings.rules,
                                 declarations: settings.declarations)
        case .junit:
            return JUnitReporter(output: output, failureSeverity: settings.failureSeverity, rules: settings.rules,
                                 declarations: settings.declarations)
        case .checkstyle: return CheckstyleReporter(output: output, failureSeverity: settings.failureSeverity, rules: settings.rules)
        case .codeclimate:
            return CodeClimateReporter(output: output, failureSeverity: settings.failureSeverity, rules: settings.rules,
                                       declarations: settings.declarations)
        case .githubActions: return GitHubActionsReporter(output: output, stepSummary: stepSummary, declarations: settings.declarations)
        case .markdown: return MarkdownReporter(output: output)
        case .chromeTrace: return ChromeTraceReporter(output: output, selection: settings.sessions)
        case .html: return HTMLTimelineReporter(output: output, selection: settings.sessions)
        case .mermaid: return MermaidReporter(output: output, short: false, selection: settings.sessions)
        case .mermaidShort: return MermaidReporter(output: output, short: true, selection: settings.sessions)
        }
    }
}
