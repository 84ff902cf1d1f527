import ArgumentParser
import LCTraceKit

/// The default command: the human report (or any other, with --reporter).
struct Analyze: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "analyze",
        abstract: "Analyse lifecycle logs and print the report (the default command).")

    @OptionGroup var input: InputOptions

    @Option(name: .long, help: "Report format: text, json, or ndjson (one JSON object per line, as items complete); the same as --reporter NAME.")
    var format: ReportFormat?

    @OptionGroup var report: ReportOptions

    @Flag(name: .long, help: "Leave the per-event lists out of the report (summary, transitions, findings only).")
    var noEvents = false

    @Option(name: .long, help: "Exit with status 1 when a finding reaches this severity: error or warning (default: never).")
    var failOn: FailOn = .never

    @OptionGroup var ruleOptions: RuleOptions

    func validate() throws {
        if format != nil, !report.reporter.isEmpty {
            throw ValidationError("--format and --reporter cannot be used together; --reporter \(format!.rawValue) is the same as --format \(format!.rawValue).")
        }
        _ = try report.requests(fallback: fallback)
        // `lctrace --color always check app.log`: the default command took the options, then `check` as a file.
        let commands = LCTrace.configuration.subcommands.map { $0._commandName }
        if let command = input.inputs.first(where: { commands.contains($0) && FileStatus(path: $0) == nil }) {
            throw ValidationError("'\(command)' is a command, and there is no file of that name: put the command first, "
                                  + "before its options (lctrace \(command) [OPTIONS] FILE…)")
        }
    }

    private var fallback: [ReporterRequest] {
        [ReporterRequest(format.map { ReportKind(rawValue: $0.rawValue)! } ?? .text)]
    }

    func run() throws {
        let config = ruleOptions.configFile()
        let report = self.report.withDefaults(from: config)
        var run = AnalysisRun(input: input, report: report, rules: ruleOptions,
                              requests: try report.requests(fallback: fallback), includeEvents: !noEvents,
                              failureSeverity: failOn.severity ?? .error)
        run.config = config
        let outcome = run.run()
        let summary = outcome.summary
        failForUnreadInputs(outcome.unreadPaths)
        // Writing a baseline accepts what the run found: it does not fail on it.
        if report.writeBaseline == nil, let threshold = failOn.severity, summary.findings.atLeast(threshold) > 0 {
            throw ExitCode(ExitStatus.findingsAtThreshold)
        }
    }
}

enum ReportFormat: String, ExpressibleByArgument, CaseIterable {
    case text, json, ndjson
}

