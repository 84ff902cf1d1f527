import ArgumentParser
import LCTraceKit

/// `lctrace check`: the analysis for CI. Only the findings, in the form compilers print (or any report, with
/// --reporter), a one-line summary on stderr, and an exit status that fails the build.
struct Check: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check",
        abstract: "Check lifecycle logs in CI: print the findings and fail when one reaches --fail-on.",
        discussion: """
            Prints each error and warning as `input:line: severity: [rule] message`, which Xcode, editors and CI \
            log parsers read, then one summary line on stderr that counts the info findings too (--verbose or \
            --min-severity info prints them, as `note`). Under GitHub Actions \
            (GITHUB_ACTIONS=true) the default report is github-actions: annotations, and a Markdown table in the \
            job summary. No per-event timeline is built.

            An input from which no lifecycle event was read is an error (no-lifecycle-events), so that a job cannot \
            pass on an empty or wrong log; --allow-empty-input leaves it a warning. When many lines name a lifecycle \
            callback but could not be read, the summary line says how many (unread-lifecycle-lines).

            Exit status: 0 when no finding reaches --fail-on, or the run writes a baseline; 1 when one does (the \
            last stderr line says which); \
            2 on a usage error or an input that cannot be read (a file below a folder given is said on stderr and \
            the others are read first).
            """)

    @OptionGroup var input: InputOptions

    @OptionGroup var report: ReportOptions

    @Option(name: .long, help: "Fail (exit status 1) when a finding reaches this severity: error (the default), warning, or never (report only).")
    var failOn: FailOn?

    @Flag(name: .long, help: "Accept an input from which no lifecycle event was read: no-lifecycle-events stays a warning instead of an error.")
    var allowEmptyInput = false

    @Option(name: .long, help: ArgumentHelp("""
        The least severe finding the compiler-form report prints: warning by default, so that a CI log shows what \
        needs attention; info findings are counted in the summary line all the same.
        """, valueName: "severity"))
    var minSeverity: MinimumSeverity?

    @Flag(name: .long, help: "Print info findings too in the compiler-form report (as --min-severity info, which wins when both are given), and name the configuration file read.")
    var verbose = false

    @OptionGroup var ruleOptions: RuleOptions

    func validate() throws {
        _ = try report.requests(fallback: Check.fallback)
    }

    /// xcode, or github-actions when run by GitHub Actions.
    static var fallback: [ReporterRequest] {
        [ReporterRequest(Environment.value(of: "GITHUB_ACTIONS") == "true" ? .githubActions : .xcode)]
    }

    func run() throws {
        // The configuration file's settings, under the flags.
        let config = ruleOptions.configFile()
        let failOn = self.failOn ?? config.flatMap { $0.file.failOn.flatMap(FailOn.init(rawValue:)) } ?? .error
        let report = self.report.withDefaults(from: config, reporters: true)
        var run = AnalysisRun(input: input, report: report, rules: ruleOptions,
                              requests: try report.requests(fallback: Check.fallback), includeEvents: false,
                              failureSeverity: failOn.severity ?? .error)
        run.config = config
        run.emptyInputIsError = !(allowEmptyInput || config?.file.allowEmptyInput == true)
        run.minimumSeverity = minSeverity?.severity ?? (verbose ? .info : config?.file.minimumSeverity ?? .warning)
        run.namesConfig = verbose
        let outcome = run.run()
        let summary = outcome.summary
        // Writing a baseline accepts what the run found: it does not fail on it.
        let failing = report.writeBaseline != nil ? 0 : failOn.severity.map { summary.findings.atLeast($0) } ?? 0
        if !input.quiet { StandardStream.error.write("lctrace: " + TerminalText.escaped(Check.summaryLine(summary)) + "\n") }
        if failing > 0, let threshold = failOn.severity {
            let counted = threshold == .error ? TextFormat.plural(failing, "error") : TextFormat.plural(failing, "finding") + " of warning severity or more"
            StandardStream.error.write("lctrace: \(counted) reach\(failing == 1 ? "es" : "") --fail-on \(threshold.rawValue)\n")
        }
        // An input that could not be read outweighs the findings: status 2, said last.
        failForUnreadInputs(outcome.unreadPaths)
        if failing > 0, failOn.severity != nil { throw ExitCode(ExitStatus.findingsAtThreshold) }
    }

    /// `2 errors, 1 warning, 0 info in 3 sessions of 1 input (1234 lines, 80 lifecycle events); 4 known from the
    /// baseline`, with the events whose time could not be read when there are some, and the lines that name a callback
    /// but could not be read when an input has many.
    static func summaryLine(_ summary: RunSummary) -> String {
        var line = summary.sentence()
        if summary.inputs.contains(where: \.hasManyUnreadLifecycleLines) {
            line += "; \(TextFormat.plural(summary.lines(.unread), "line")) name a lifecycle callback but could not be read "
                + "(`lctrace lines --only unread` shows why)"
        }
        if let known = summary.findingsInBaseline { line += "; \(known) known from the baseline" }
        return line
    }
}

