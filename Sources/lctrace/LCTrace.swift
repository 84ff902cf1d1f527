import ArgumentParser
import LCTraceKit
#if canImport(Glibc)
import Glibc
#endif

/// Exit codes (documented in the README): 0 the run completed; 1 `--fail-on` was given and a finding reached
/// that severity; 2 a usage error or an input that could not be read.
enum ExitStatus {
    static let completed: Int32 = 0
    static let findingsAtThreshold: Int32 = 1
    static let usageOrInput: Int32 = 2
}

@main
struct LCTrace: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "lctrace",
        abstract: "Reads iOS app lifecycle logs and reports what the view controllers did.",
        discussion: """
            Reads NSLog, syslog or print() lifecycle logs from files or standard input, splits them into app \
            launches, rebuilds each view controller's timeline, classifies transitions (push, pop, present, \
            dismiss, …) and flags orderings UIKit does not produce.

            Exit status: 0 when the run completes (whatever it found); 1 when --fail-on is given and a finding \
            reaches that severity; 2 on a usage error or an input that cannot be read.
            """,
        subcommands: [Analyze.self, Lines.self, Rules.self, Explain.self],
        defaultSubcommand: Analyze.self)

    static func main() {
        do {
            var command = try parseAsRoot()
            try command.run()
        } catch let code as ExitCode {
            Glibc.exit(code.rawValue)
        } catch {
            let code = exitCode(for: error)
            if code == .success {
                print(fullMessage(for: error))
                Glibc.exit(ExitStatus.completed)
            }
            // One line: what is wrong, without the usage text (`--help` has it) or a long argument echoed back.
            fail(oneLine(message(for: error)))
        }
    }
}

enum ReportFormat: String, ExpressibleByArgument, CaseIterable {
    case text, json, ndjson
}

/// `rules` and `explain` print a document, not a stream.
enum CatalogFormat: String, ExpressibleByArgument, CaseIterable {
    case text, json
}

enum ColorChoice: String, ExpressibleByArgument, CaseIterable {
    case auto, always, never
}

enum FailThreshold: String, ExpressibleByArgument, CaseIterable {
    case error, warning

    var severity: Severity { self == .error ? .error : .warning }
}

struct Analyze: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Analyse lifecycle logs (the default command).")

    @Argument(help: "Log files to read, in order; none or '-' reads standard input.")
    var inputs: [String] = []

    @Option(name: .long, help: "Report format: text, json, or ndjson (one JSON object per line, as items complete).")
    var format: ReportFormat = .text

    @Option(name: .long, help: ArgumentHelp(
        "Analyse up to this many files in parallel (default: the number of cores); reports stay in input order.",
        valueName: "n"))
    var jobs: Int?

    @Flag(name: .long, help: "Print lines/s, MB/s and peak memory to stderr at the end.")
    var stats = false

    @Flag(name: .long, help: "Keep reading the file as tail -F does: as it grows, after truncation or rotation, and waiting for it to exist; until interrupted (SIGINT/SIGTERM).")
    var follow = false

    @OptionGroup var lineFormatOptions: LineFormatOptions

    @Flag(name: .long, help: "Leave the per-event lists out of the report (summary, transitions, findings only).")
    var noEvents = false

    @Option(name: .long, help: "Colour: auto (on a terminal, unless NO_COLOR is set), always or never.")
    var color: ColorChoice = .auto

    @Option(name: .long, help: "Exit with status 1 when a finding reaches this severity: error or warning.")
    var failOn: FailThreshold?

    @OptionGroup var ruleOptions: RuleOptions

    func validate() throws {
        if let jobs, jobs < 1 { throw ValidationError("--jobs must be at least 1.") }
        if follow, inputs.count != 1 || inputs == ["-"] {
            throw ValidationError("--follow reads exactly one file.")
        }
    }

    func run() throws {
        var options = AnalysisOptions()
        options.keepEvents = !noEvents && format != .ndjson  // ndjson streams events instead of keeping them
        options.follow = follow
        (options.rules, options.configPath) = ruleOptions.settings()
        options.lineFormat = lineFormatOptions.choice

        // A followed file need not exist yet: it is waited for.
        let sources = readableSources(inputs, missingAllowed: follow)

        // Live: the input keeps flowing (a pipe or terminal on stdin, or --follow), so output is flushed as it is decided.
        let live = follow || (sources.contains { $0.name == InputSource.standardInput.name } && regularFileSize(.standardInput) == nil)
        StopRequest.install()
        let output = Output(fileDescriptor: STDOUT_FILENO)
        let sink: any ReportSink
        switch format {
        case .text: sink = TextRenderer(output: output, style: TextStyle(enabled: useColor()), includeEvents: !noEvents, live: live)
        case .json: sink = JSONRenderer(output: output, includeEvents: !noEvents, config: options.configPath)
        case .ndjson: sink = NDJSONRenderer(output: output, includeEvents: !noEvents, config: options.configPath, flushEachLine: live)
        }
        let analyzer: Analyzer
        do {
            analyzer = try Analyzer(options: options, sink: sink)
        } catch {
            fail(oneLine("--pattern: \(error)"))
        }
        let statistics = RunStatistics()
        let progress = ProgressLine.wanted() ? ProgressLine(total: sources.reduce(0) { $0 + (regularFileSize($1) ?? 0) }) : nil
        if let progress { analyzer.progress = { progress.add($0) } }
        analyzer.notice = { message in
            progress?.clear()
            FileHandleStream.standardError.write("lctrace: \(message)\n")
        }
        do {
            try analyzer.analyze(sources, jobs: jobs ?? Int(sysconf(Int32(_SC_NPROCESSORS_ONLN))))
        } catch {
            progress?.clear()
            output.flush()
            fail("\(error)")
        }
        progress?.clear()
        let summary = analyzer.finish()
        finishWriting(output)
        if stats { FileHandleStream.standardError.write(statistics.report(summary)) }
        if let failOn, Severity.allCases.contains(where: { $0 >= failOn.severity && summary.findings($0) > 0 }) {
            throw ExitCode(ExitStatus.findingsAtThreshold)
        }
    }

    /// The size of an input that is a regular file (standard input included, when redirected from one); nil for a
    /// pipe, a terminal or anything else.
    private func regularFileSize(_ source: InputSource) -> Int? {
        var info = stat()
        if let path = source.path {
            guard stat(path, &info) == 0 else { return nil }
        } else {
            guard fstat(STDIN_FILENO, &info) == 0 else { return nil }
        }
        return (info.st_mode & S_IFMT) == S_IFREG ? Int(info.st_size) : nil
    }

    private func useColor() -> Bool {
        switch color {
        case .always: return true
        case .never: return false
        case .auto:
            let noColor = getenv("NO_COLOR").map { String(cString: $0) } ?? ""
            return noColor.isEmpty && isatty(STDOUT_FILENO) == 1
        }
    }

}

/// The inputs named on the command line (standard input when none), each checked before anything is printed, so
/// that an unreadable one fails the run cleanly; with `missingAllowed` (`--follow`), a path that does not exist yet
/// passes.
func readableSources(_ inputs: [String], missingAllowed: Bool = false) -> [InputSource] {
    let sources = inputs.isEmpty ? [InputSource.standardInput] : inputs.map(InputSource.file)
    for source in sources where source.name != InputSource.standardInput.name {
        if missingAllowed, let path = source.path, access(path, F_OK) != 0, errno == ENOENT { continue }
        do { close(try source.openDescriptor()) } catch { fail("\(error)") }
    }
    return sources
}

/// The first line of `message`, at most 300 characters: an error never echoes a 100 KB argument back.
func oneLine(_ message: String) -> String {
    let line = message.split(separator: "\n", omittingEmptySubsequences: true).first.map(String.init) ?? message
    return line.count <= 300 ? line : line.prefix(297) + "…"
}

/// Flushes the report; when it could not all be written (a full disk, a closed standard output), says so and exits
/// with status 2, so that a CI job does not take a missing report for a clean one.
func finishWriting(_ output: Output) {
    output.flush()
    if let failure = output.failure { fail("the report is incomplete: \(failure)") }
}

/// Says what went wrong on stderr and exits with status 2.
func fail(_ message: String) -> Never {
    FileHandleStream.standardError.write("lctrace: \(message)\n")
    Glibc.exit(ExitStatus.usageOrInput)
}

/// `--line-format` and `--pattern`.
struct LineFormatOptions: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp(
        "Line format: auto (every line on its own), \(LineFormat.builtIn.map(\.name).joined(separator: ", ")).",
        valueName: "name"))
    var lineFormat: String = "auto"

    @Option(name: .long, help: ArgumentHelp(
        "A PCRE2 pattern for the line header, with named groups time, process, pid, tid, message.",
        valueName: "regex"))
    var pattern: String?

    func validate() throws {
        if pattern != nil, lineFormat != "auto" {
            throw ValidationError("--pattern and --line-format cannot be used together.")
        }
        if let pattern, let problem = LineFormat.customPatternProblem(pattern) {
            throw ValidationError("--pattern: \(problem).")
        }
        if lineFormat != "auto", LineFormat.named(lineFormat) == nil {
            throw ValidationError("unknown line format '\(lineFormat)'; expected auto, \(LineFormat.builtIn.map(\.name).joined(separator: ", ")).")
        }
    }

    var choice: LineFormatChoice {
        if let pattern { return .fixed(.custom(pattern)) }
        if let format = LineFormat.named(lineFormat) { return .fixed(format) }
        return .automatic
    }
}

struct Lines: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Show how each line was read: its disposition, header fields, and the controller and callback, or why none.",
        discussion: """
            Every line is one of: lifecycle (a controller, app or scene callback, or a navigation call), notice (a \
            marker such as main(), or a notice UIKit prints), other (other app logging), unread (names a lifecycle \
            callback, but no controller could be read around it), blank, unrecognized (outside a forced \
            --line-format), regex-limit, or json-structure (a line of a `log show --style json` entry other than the \
            one that closes it, where the entry is read).
            """)

    @Argument(help: "Log files to read, in order; none or '-' reads standard input.")
    var inputs: [String] = []

    @Option(name: .long, help: "Output format: text, or json (one JSON object per line).")
    var format: CatalogFormat = .text

    @Option(name: .long, help: ArgumentHelp(
        "Show only lines of this disposition (repeatable): \(Lines.dispositions.joined(separator: ", ")).",
        valueName: "disposition"))
    var only: [String] = []

    @OptionGroup var lineFormatOptions: LineFormatOptions

    static let dispositions = LineDisposition.allCases.map(\.rawValue) + SkipReason.allCases.map(\.rawValue)

    func validate() throws {
        for disposition in only where !Lines.dispositions.contains(disposition) {
            throw ValidationError("--only \(disposition): expected one of \(Lines.dispositions.joined(separator: ", ")).")
        }
    }

    func run() throws {
        var options = AnalysisOptions()
        options.keepEvents = false
        options.lineFormat = lineFormatOptions.choice
        let sources = readableSources(inputs)
        StopRequest.install()
        let output = Output(fileDescriptor: STDOUT_FILENO)
        let analyzer: Analyzer
        do {
            analyzer = try Analyzer(options: options, sink: DiscardingSink())
        } catch {
            fail(oneLine("--pattern: \(error)"))
        }
        let shown = Set(only)
        let json = format == .json
        let several = sources.count > 1
        var currentInput: String?
        analyzer.lineObserver = { reading in
            guard shown.isEmpty || shown.contains(reading.disposition) else { return }
            if json { output.write(LineReadingRendering.json(reading)); return }
            if several, currentInput != reading.input {
                currentInput = reading.input
                output.write("==> \(reading.input) <==\n")
            }
            output.write(LineReadingRendering.text(reading))
        }
        do {
            try analyzer.analyze(sources, jobs: 1)
        } catch {
            output.flush()
            fail("\(error)")
        }
        analyzer.finish()
        finishWriting(output)
    }
}


/// Rule severities and thresholds: `.lctrace.yml` (or `--config`), then the flags on top.
struct RuleOptions: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp(
        "Set a rule's severity for this run (repeatable): error, warning, info or off.", valueName: "rule=level"))
    var severity: [String] = []

    @Option(name: .long, help: ArgumentHelp(
        "Read rule settings from this YAML file (default: \(ConfigFile.defaultName) in the working directory, if present).",
        valueName: "path"))
    var config: String?

    @Flag(name: .long, help: "Ignore \(ConfigFile.defaultName) in the working directory.")
    var noConfig = false

    @Option(name: .long, help: ArgumentHelp(
        "Seconds a popped or dismissed controller has to deallocate before possible-leak fires (default 3).", valueName: "seconds"))
    var leakTimeout: Double?

    @Option(name: .long, help: ArgumentHelp("Report transitions slower than this as slow-transition warnings.", valueName: "ms"))
    var slowTransition: Double?

    func validate() throws {
        for assignment in severity where RuleSettings.assignment(assignment) == nil {
            throw ValidationError("--severity \(assignment): expected RULE=error|warning|info|off with a rule from `lctrace rules`.")
        }
        if let leakTimeout, let problem = RuleSettings.leakTimeoutProblem(leakTimeout) {
            throw ValidationError("--leak-timeout \(problem).")
        }
        if let slowTransition, let problem = RuleSettings.slowTransitionProblem(slowTransition) {
            throw ValidationError("--slow-transition \(problem).")
        }
        if config != nil, noConfig { throw ValidationError("--config and --no-config cannot be used together.") }
    }

    /// The settings for this run and the configuration file they came from, if any. Exits with status 2 on a bad file.
    func settings() -> (RuleSettings, String?) {
        var settings = RuleSettings()
        var path = config
        if path == nil, !noConfig, access(ConfigFile.defaultName, F_OK) == 0 { path = ConfigFile.defaultName }
        if let path {
            do {
                try ConfigFile.load(path: path).apply(to: &settings)
            } catch {
                FileHandleStream.standardError.write("lctrace: config \(error)\n")
                Glibc.exit(ExitStatus.usageOrInput)
            }
        }
        for assignment in severity {
            if let (rule, level) = RuleSettings.assignment(assignment) { settings.overrides[rule] = .some(level) }
        }
        if let leakTimeout { settings.leakTimeoutSeconds = leakTimeout }
        if let slowTransition { settings.slowTransitionMs = slowTransition }
        return (settings, path)
    }
}

struct Rules: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "List the rules lctrace checks, with their severity in this run.")

    @Option(name: .long, help: "Output format: text or json.")
    var format: CatalogFormat = .text

    @OptionGroup var ruleOptions: RuleOptions

    func run() throws {
        let (settings, _) = ruleOptions.settings()
        let output = Output(fileDescriptor: STDOUT_FILENO)
        switch format {
        case .text: output.write(RuleCatalogRendering.list(settings: settings))
        case .json: output.write(RuleCatalogRendering.listJSON(settings: settings))
        }
        finishWriting(output)
    }
}

struct Explain: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Explain one rule: what it checks, an example log, what UIKit does and why.")

    @Argument(help: ArgumentHelp("A rule id, as `lctrace rules` lists them.", valueName: "rule"))
    var rule: String

    @Option(name: .long, help: "Output format: text or json.")
    var format: CatalogFormat = .text

    @OptionGroup var ruleOptions: RuleOptions

    func validate() throws {
        if Rule(rawValue: rule) == nil {
            throw ValidationError("unknown rule '\(rule)'; `lctrace rules` lists them.")
        }
    }

    func run() throws {
        let (settings, _) = ruleOptions.settings()
        let rule = Rule(rawValue: rule)!
        let output = Output(fileDescriptor: STDOUT_FILENO)
        switch format {
        case .text: output.write(RuleCatalogRendering.explain(rule, settings: settings))
        case .json: output.write(RuleCatalogRendering.explainJSON(rule, settings: settings))
        }
        finishWriting(output)
    }
}

/// Unbuffered writes to standard error.
enum FileHandleStream {
    case standardError

    func write(_ text: String) {
        var text = text
        text.withUTF8 { bytes in _ = Glibc.write(STDERR_FILENO, bytes.baseAddress, bytes.count) }
    }
}
