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
        subcommands: [Analyze.self, Rules.self],
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
            FileHandleStream.standardError.write("lctrace: " + fullMessage(for: error) + "\n")
            Glibc.exit(ExitStatus.usageOrInput)
        }
    }
}

enum ReportFormat: String, ExpressibleByArgument, CaseIterable {
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

    @Option(name: .long, help: "Report format: text or json.")
    var format: ReportFormat = .text

    @Option(name: .long, help: ArgumentHelp(
        "Line format: auto, \(LineFormat.builtIn.map(\.name).joined(separator: ", ")).",
        valueName: "name"))
    var lineFormat: String = "auto"

    @Option(name: .long, help: ArgumentHelp(
        "A PCRE2 pattern for the line header, with named groups time, process, pid, tid, message.",
        valueName: "regex"))
    var pattern: String?

    @Flag(name: .long, help: "Leave the per-event lists out of the report (summary, transitions, findings only).")
    var noEvents = false

    @Option(name: .long, help: "Colour: auto (on a terminal, unless NO_COLOR is set), always or never.")
    var color: ColorChoice = .auto

    @Option(name: .long, help: "Exit with status 1 when a finding reaches this severity: error or warning.")
    var failOn: FailThreshold?

    func validate() throws {
        if pattern != nil, lineFormat != "auto" {
            throw ValidationError("--pattern and --line-format cannot be used together.")
        }
        if lineFormat != "auto", LineFormat.named(lineFormat) == nil {
            throw ValidationError("unknown line format '\(lineFormat)'; expected auto, \(LineFormat.builtIn.map(\.name).joined(separator: ", ")).")
        }
    }

    func run() throws {
        var options = AnalysisOptions()
        options.keepEvents = !noEvents
        if let pattern {
            options.lineFormat = .fixed(.custom(pattern))
        } else if let format = LineFormat.named(lineFormat) {
            options.lineFormat = .fixed(format)
        }

        let sources = inputs.isEmpty ? [InputSource.standardInput] : inputs.map(InputSource.file)
        // Check every input before printing anything, so an unreadable one fails the run cleanly.
        for source in sources where source.name != InputSource.standardInput.name {
            do { close(try source.openDescriptor()) } catch { fail("\(error)") }
        }

        let output = Output(fileDescriptor: STDOUT_FILENO)
        let sink: any ReportSink
        switch format {
        case .text: sink = TextRenderer(output: output, style: TextStyle(enabled: useColor()), includeEvents: !noEvents)
        case .json: sink = JSONRenderer(output: output, includeEvents: !noEvents)
        }
        let analyzer: Analyzer
        do {
            analyzer = try Analyzer(options: options, sink: sink)
        } catch {
            fail("--pattern: \(error)")
        }
        for source in sources {
            do { try analyzer.analyze(source) } catch { output.flush(); fail("\(source.name): \(error)") }
        }
        let summary = analyzer.finish()
        if let failOn, Severity.allCases.contains(where: { $0 >= failOn.severity && summary.findings($0) > 0 }) {
            throw ExitCode(ExitStatus.findingsAtThreshold)
        }
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

    private func fail(_ message: String) -> Never {
        FileHandleStream.standardError.write("lctrace: \(message)\n")
        Glibc.exit(ExitStatus.usageOrInput)
    }
}

struct Rules: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "List the rules lctrace checks.")

    @Option(name: .long, help: "Output format: text or json.")
    var format: ReportFormat = .text

    func run() throws {
        switch format {
        case .text:
            let width = Rule.allCases.map(\.rawValue.count).max() ?? 0
            for rule in Rule.allCases {
                print(rule.rawValue.rightPadded(to: width) + "  " + rule.defaultSeverity.rawValue.rightPadded(to: 7) + "  " + rule.summary)
            }
        case .json:
            print(RuleCatalogJSON.render())
        }
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
