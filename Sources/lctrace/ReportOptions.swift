import ArgumentParser
import LCTraceKit

/// `--reporter NAME[=PATH]`: a report and where it goes (standard output, or `--output`, when no path is given).
struct ReporterRequest: ExpressibleByArgument, Equatable {
    var reporter: ReportKind
    var path: String?

    init(_ reporter: ReportKind, path: String? = nil) {
        self.reporter = reporter
        self.path = path
    }

    init?(argument: String) {
        guard let request = try? ReporterRequest.parse(argument) else { return nil }
        self = request
    }

    /// `NAME[=PATH]`; an unknown name is an error that lists the names, and the closest one when a name was mistyped.
    static func parse(_ argument: String) throws -> ReporterRequest {
        let parts = argument.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
        guard let reporter = ReportKind(name: parts[0]) else {
            throw ValidationError("unknown reporter '\(parts[0])'\(Suggestion.hint(for: parts[0], among: allValueStrings)); "
                                  + "the reporters are \(allValueStrings.joined(separator: ", "))")
        }
        if parts.count == 2, parts[1].isEmpty {
            throw ValidationError("'\(argument)' names no file after '='; write \(parts[0]) alone for standard output")
        }
        // `NAME=-` is standard output, as `-` is everywhere else on the command line.
        return ReporterRequest(reporter, path: parts.count == 2 && parts[1] != "-" ? parts[1] : nil)
    }

    static var allValueStrings: [String] { ReportKind.allCases.map(\.rawValue) }
    static var defaultCompletionKind: CompletionKind { .list(allValueStrings) }
}

/// Where the reports go and which findings count: shared by `analyze` and `check`.
struct ReportOptions: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp(
        "Write this report (repeatable, several in one pass): \(ReportKind.allCases.map(\.rawValue).joined(separator: ", ")). "
            + "With =PATH it goes to that file; without, to standard output (or --output).",
        valueName: "name[=path]"), completion: .list(ReporterRequest.allValueStrings), transform: ReporterRequest.parse)
    var reporter: [ReporterRequest] = []

    @Option(name: [.customShort("o"), .long], help: ArgumentHelp(
        "Write the report to this file instead of standard output ('-': standard output).", valueName: "path"),
        completion: .file())
    var output: String?

    @Option(name: .long, help: ArgumentHelp(
        "Leave out the findings this baseline file knows (written by --write-baseline); only new ones are reported and fail the run.",
        valueName: "path"),
        completion: .file(extensions: ["json"]))
    var baseline: String?

    @Option(name: .long, help: ArgumentHelp(
        "Write every finding of this run to a baseline file, as known; check then exits 0 whatever it found.", valueName: "path"),
        completion: .file(extensions: ["json"]))
    var writeBaseline: String?

    @Option(name: .long, help: ArgumentHelp("""
        Hold the run against this model of earlier good runs (written by lctrace learn or --write-model), or a log of \
        one: new transitions and controllers, transitions every earlier run took and this one did not, and timings \
        slower than the model's are reported (new-transition, new-controller, missing-transition, slower-than-model).
        """, valueName: "path"), completion: .file())
    var against: String?

    @Option(name: .long, help: ArgumentHelp(
        "Write the model of this run to this file (each input one run), to hold later runs against (--against).",
        valueName: "path"), completion: .file(extensions: ["json"]))
    var writeModel: String?

    @Option(name: .long, help: ArgumentHelp("""
        The app's source folder (repeatable): the findings about a controller point at the file that declares its \
        class, in the compiler form and JUnit (a note), SARIF (related locations), Code Climate (other locations) and GitHub \
        annotations (on the source file).
        """, valueName: "folder"), completion: .directory)
    var sources: [String] = []

    @Flag(name: .long, help: """
        With --write-baseline: key each known finding on its input's file name too, so that it is known only in an \
        input of that name (by default a finding is known in any input: CI names its logs per run).
        """)
    var baselineByInput = false

    @Option(name: .long, help: ArgumentHelp(
        "Draw only these sessions in the timeline reports (chrome-trace, html, mermaid): N, N-M or N- (from N on).",
        valueName: "range"))
    var session: SessionSelection?

    @Option(name: .long, help: "Colour in the text report: auto (on a terminal, unless NO_COLOR is set), always or never.")
    var color: ColorChoice = .auto

    /// `--output`'s file; nil for standard output (no `--output`, or `-o -`).
    var outputPath: String? { output == "-" ? nil : output }

    /// These options with the configuration file's baseline and source folders where the flags give none. The file's
    /// baseline is not read by a run that writes one (which refreshes it).
    /// `reporters`: the file's reporters too, where no `--reporter` is given (`check`; the default command prints the
    /// human report unless told otherwise on its command line).
    func withDefaults(from config: LoadedConfig?, reporters: Bool = false) -> ReportOptions {
        guard let config else { return self }
        var options = self
        if options.baseline == nil, options.writeBaseline == nil { options.baseline = config.file.baselinePath(configPath: config.path) }
        if options.sources.isEmpty { options.sources = config.file.sourcePaths(configPath: config.path) ?? [] }
        if options.against == nil { options.against = config.file.againstPath(configPath: config.path) }
        if reporters, options.reporter.isEmpty, let requests = config.file.reporterRequests(configPath: config.path) {
            // Checked when the file was read.
            options.reporter = requests.compactMap { try? ReporterRequest.parse($0) }
        }
        return options
    }

    /// The reports asked for, or `fallback` when none was; one at most goes to standard output.
    func requests(fallback: [ReporterRequest]) throws -> [ReporterRequest] {
        let requests = reporter.isEmpty ? fallback : reporter
        if baseline != nil, writeBaseline != nil {
            throw ValidationError("--write-baseline records every finding of the run, known or not; leave out --baseline.")
        }
        if baselineByInput, writeBaseline == nil {
            throw ValidationError("--baseline-by-input says how --write-baseline keys the findings it writes; add --write-baseline PATH.")
        }
        if let session, !requests.contains(where: { $0.reporter.drawsTimelines }) {
            throw ValidationError("--session \(session) chooses what the timeline reports draw; add --reporter chrome-trace, html or mermaid.")
        }
        let paths = requests.map { $0.path ?? outputPath }
        let toStandardOutput = requests.indices.filter { paths[$0] == nil }
        if toStandardOutput.count > 1 {
            let names = toStandardOutput.map { requests[$0].reporter.rawValue }.joined(separator: " and ")
            throw ValidationError("\(names) would both write to standard output; give all but one a path (--reporter NAME=PATH).")
        }
        return requests
    }
}

extension SessionSelection: ExpressibleByArgument {
    public init?(argument: String) { self.init(argument) }
}

enum ColorChoice: String, ExpressibleByArgument, CaseIterable {
    case auto, always, never
}

/// `--fail-on`: the severity from which a finding fails the run, or never.
/// `--min-severity`: the least severe finding a report prints.
enum MinimumSeverity: String, ExpressibleByArgument, CaseIterable {
    case error, warning, info

    var severity: Severity { Severity(rawValue: rawValue)! }
}

enum FailOn: String, ExpressibleByArgument, CaseIterable {
    case error, warning, never

    var severity: Severity? {
        switch self {
        case .error: return .error
        case .warning: return .warning
        case .never: return nil
        }
    }
}
