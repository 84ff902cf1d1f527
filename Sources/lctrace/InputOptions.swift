import ArgumentParser
import LCTraceKit

/// What to read and how: shared by `analyze` and `check`.
struct InputOptions: ParsableArguments {
    @Argument(help: "Log files or folders to read, in order (a folder: every log file below it, by path); none or '-' reads standard input.",
              completion: .file())
    var inputs: [String] = []

    @Option(name: .long, help: ArgumentHelp(
        "Analyse up to this many files in parallel (default: the number of cores); reports stay in input order.",
        valueName: "n"))
    var jobs: Int?

    @Flag(name: .long, help: "Keep reading the file as tail -F does: as it grows, after truncation or rotation, and waiting for it to exist; until interrupted (SIGINT/SIGTERM).")
    var follow = false

    @OptionGroup var lineFormatOptions: LineFormatOptions

    @OptionGroup var selection: InputSelectionOptions

    @Flag(name: .long, help: "Print lines/s, MB/s and peak memory to stderr at the end.")
    var stats = false

    @Flag(name: .shortAndLong, help: "Print nothing on stderr but errors: no progress, notices or summary line.")
    var quiet = false

    func validate() throws {
        if let jobs, !(1...Analyzer.maxJobs).contains(jobs) { throw ValidationError("--jobs must be from 1 to \(Analyzer.maxJobs).") }
        if follow, inputs.count != 1 || inputs == ["-"] {
            throw ValidationError("--follow reads exactly one file.")
        }
    }

    /// The inputs, folders listed, each checked before anything is printed (a followed file need not exist yet, and
    /// is never a folder). `leavingOut`: the files the run writes, or reads as something else than a log.
    func readable(leavingOut: [FileStatus] = []) -> ReadableInputs {
        readableInputs(inputs, missingAllowed: follow, foldersAllowed: !follow, standardInputName: selection.stdinName,
                       leavingOut: leavingOut)
    }
}

/// The size of an input that is a regular file (standard input included, when redirected from one); nil for a
/// pipe, a terminal or anything else.
func regularFileSize(_ source: InputSource) -> Int? {
    let status = source.path.map { FileStatus(path: $0) } ?? FileStatus(fileDescriptor: StandardStream.input.fileDescriptor)
    return status?.regularFileSize
}

/// `--line-format`, `--pattern` and `--time-format`.
struct LineFormatOptions: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp(
        "Line format: auto (every line on its own), \(LineFormat.builtIn.map(\.name).joined(separator: ", ")).",
        valueName: "name"),
        completion: .list(["auto"] + LineFormat.builtIn.map(\.name)))
    var lineFormat: String = "auto"

    @Option(name: .long, help: ArgumentHelp(
        "A PCRE2 pattern for the line header, with named groups time, process, pid, tid, message.",
        valueName: "regex"))
    var pattern: String?

    @Option(name: .long, help: ArgumentHelp(
        "How --pattern's time group is written, strftime-like: %Y %y %m %b %d %e %j %a %H %I %p %M %S %f %L %z %s %T %F %%; a space matches spaces.",
        valueName: "format"))
    var timeFormat: String?

    func validate() throws {
        if pattern != nil, lineFormat != "auto" {
            throw ValidationError("--pattern and --line-format cannot be used together.")
        }
        if let pattern, let problem = LineFormat.customPatternProblem(pattern) {
            throw ValidationError("--pattern: \(problem).")
        }
        if let timeFormat {
            guard let pattern else { throw ValidationError("--time-format reads the time group of a --pattern: give the pattern too.") }
            if let problem = LineFormat.timeFormatProblem(timeFormat, pattern: pattern) {
                throw ValidationError("--time-format: \(problem).")
            }
        }
        if lineFormat != "auto", LineFormat.named(lineFormat) == nil {
            throw ValidationError("unknown line format '\(lineFormat)'; expected auto, \(LineFormat.builtIn.map(\.name).joined(separator: ", ")).")
        }
    }

    var choice: LineFormatChoice {
        if let pattern { return .fixed(.custom(pattern, timeFormat: timeFormat.flatMap { try? TimeFormat($0) })) }
        if let format = LineFormat.named(lineFormat) { return .fixed(format) }
        return .automatic
    }

    /// The flags' choice, else the configuration file's.
    func choice(_ config: LoadedConfig?) -> LineFormatChoice {
        if case .automatic = choice, let chosen = config?.file.lineFormatChoice { return chosen }
        return choice
    }

    /// What a header pattern that does not compile is blamed on: the flag, else the configuration file that gave it.
    func patternSource(_ config: LoadedConfig?) -> String {
        pattern == nil ? config.map { "config \($0.path): pattern" } ?? "--pattern" : "--pattern"
    }
}

/// Rule severities and thresholds: `.lctrace.yml` (or `--config`), then the flags on top.
struct RuleOptions: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp(
        "Set a rule's severity for this run (repeatable): error, warning, info or off.", valueName: "rule=level"),
        completion: .list(Rule.allCases.flatMap { rule in ["error", "warning", "info", "off"].map { "\(rule.rawValue)=\($0)" } }))
    var severity: [String] = []

    @Option(name: .long, help: ArgumentHelp(
        "Read rule settings from this YAML file (default: \(ConfigFile.defaultName) in the working directory or the nearest folder above it within the repository, if present).",
        valueName: "path"),
        completion: .file(extensions: ["yml", "yaml"]))
    var config: String?

    @Flag(name: .long, help: "Read no \(ConfigFile.defaultName), in the working directory or above it.")
    var noConfig = false

    @Option(name: .long, help: ArgumentHelp(
        "Seconds a popped or dismissed controller has to deallocate before possible-leak fires (default 3).", valueName: "seconds"))
    var leakTimeout: Double?

    @Option(name: .long, help: ArgumentHelp("Report transitions slower than this as slow-transition warnings.", valueName: "ms"))
    var slowTransition: Double?

    @Option(name: .customLong("ignore-class"), help: ArgumentHelp(
        "Leave out the findings about this controller class (repeatable; * matches any run of characters: 'SF*'), such as third-party controllers.",
        valueName: "class"))
    var ignoredClasses: [String] = []

    @Option(name: .long, help: ArgumentHelp(
        "With --against: report timings this many percent slower than the model's as slower-than-model (default 20).",
        valueName: "percent"))
    var slowerBy: Double?

    func validate() throws {
        for assignment in severity where RuleSettings.assignment(assignment) == nil {
            let rule = String(assignment.split(separator: "=", maxSplits: 1).first ?? "")
            let hint = Rule(rawValue: rule) == nil ? Suggestion.hint(for: rule, among: Rule.allCases.map(\.rawValue)) : ""
            throw ValidationError("--severity \(assignment)\(hint): expected RULE=error|warning|info|off with a rule from `lctrace rules`.")
        }
        if let leakTimeout, let problem = RuleSettings.leakTimeoutProblem(leakTimeout) {
            throw ValidationError("--leak-timeout \(problem).")
        }
        if let slowTransition, let problem = RuleSettings.slowTransitionProblem(slowTransition) {
            throw ValidationError("--slow-transition \(problem).")
        }
        if let slowerBy, !(slowerBy.isFinite && slowerBy >= 0 && slowerBy <= 10_000) {
            throw ValidationError("--slower-by must be a percentage from 0 to 10000, not \(slowerBy).")
        }
        if config != nil, noConfig { throw ValidationError("--config and --no-config cannot be used together.") }
    }

    /// The configuration file of this run, if any: `--config`, or `.lctrace.yml` in the working directory or the
    /// nearest folder above it within the repository (`ConfigFile.discover`).
    var configPath: String? {
        if let config { return config }
        return noConfig ? nil : ConfigFile.discover()
    }

    /// The configuration file of this run, read, and its path; nil for none. Exits with status 2 on a bad file.
    func configFile() -> LoadedConfig? {
        configPath.map(LoadedConfig.read)
    }

    /// The settings for this run and the configuration file they came from, if any. Exits with status 2 on a bad file.
    func settings() -> (RuleSettings, String?) {
        let config = configFile()
        return (settings(config?.file), config?.path)
    }

    /// The settings for this run from the configuration file `config` (if any) and the flags on top.
    func settings(_ config: ConfigFile?) -> RuleSettings {
        var settings = RuleSettings()
        config?.apply(to: &settings)
        for assignment in severity {
            if let (rule, level) = RuleSettings.assignment(assignment) { settings.overrides[rule] = .some(level) }
        }
        if let leakTimeout { settings.leakTimeoutSeconds = leakTimeout }
        if let slowTransition { settings.slowTransitionMs = slowTransition }
        if let slowerBy { settings.slowerThanModelPercent = slowerBy }
        if !ignoredClasses.isEmpty { settings.ignoredClasses = ignoredClasses.map(ClassPattern.init) }
        return settings
    }
}

/// A configuration file read for a run, and its path as named in the reports.
struct LoadedConfig {
    var file: ConfigFile
    var path: String

    /// Reads the file at `path`; exits with status 2 when it cannot be read or is not a valid configuration.
    static func read(_ path: String) -> LoadedConfig {
        do {
            return LoadedConfig(file: try ConfigFile.load(path: path), path: path)
        } catch {
            fail("config \(error)")
        }
    }
}
