import ArgumentParser
import LCTraceKit

struct Lines: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "lines",
        abstract: "Show how each line was read: its disposition, header fields, and the controller and callback, or why none.",
        discussion: """
            Every line is one of: lifecycle (a controller, app or scene callback, or a navigation call), notice (a \
            marker such as main(), or a notice UIKit prints), other (other app logging), unread (names a lifecycle \
            callback, but no controller could be read around it), blank, unrecognized (outside a forced \
            --line-format), regex-limit, json-structure (a line of a `log show --style json` entry other than the \
            one that closes it, where the entry is read), or other-process (a line of a process --process/--pid \
            leave out).
            """)

    @Argument(help: "Log files or folders to read, in order (a folder: every log file below it, by path); none or '-' reads standard input.",
              completion: .file())
    var inputs: [String] = []

    @Option(name: .long, help: "Output format: text, or json (one JSON object per line).")
    var format: CatalogFormat = .text

    @Option(name: .long, help: ArgumentHelp(
        "Show only lines of this disposition (repeatable): \(Lines.dispositions.joined(separator: ", ")).",
        valueName: "disposition"),
        completion: .list(Lines.dispositions))
    var only: [String] = []

    @OptionGroup var lineFormatOptions: LineFormatOptions

    @OptionGroup var selection: InputSelectionOptions

    @Flag(name: .long, help: "Read no \(ConfigFile.defaultName): its line format and processes are otherwise used, as by check, when no flag gives them.")
    var noConfig = false

    static let dispositions = LineDisposition.allCases.map(\.rawValue) + SkipReason.allCases.map(\.rawValue)

    func validate() throws {
        for disposition in only where !Lines.dispositions.contains(disposition) {
            throw ValidationError("--only \(disposition): expected one of \(Lines.dispositions.joined(separator: ", ")).")
        }
    }

    func run() throws {
        var options = AnalysisOptions()
        options.keepEvents = false
        // The project's line format and processes, as check reads them, under the flags.
        let config = noConfig ? nil : ConfigFile.discover().map(LoadedConfig.read)
        options.lineFormat = lineFormatOptions.choice(config)
        options.processFilter = selection.processFilter(config)
        // Standard output or error redirected into a folder read is not a log (`lctrace lines logs > logs/lines.txt`).
        let redirected = [StandardStream.output, .error].compactMap { FileStatus(fileDescriptor: $0.fileDescriptor) }
        let readable = readableInputs(inputs, standardInputName: selection.stdinName,
                                      leavingOut: redirected.filter { $0.kind == .regularFile })
        let sources = readable.sources
        var unreadPaths = readable.problems
        StopRequest.install()
        let output = Output.standardOutput()
        let analyzer: Analyzer
        do {
            analyzer = try Analyzer(options: options, reporter: DiscardingReporter())
        } catch {
            fail(oneLine("\(lineFormatOptions.patternSource(config)): \(error)"))
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
                output.write("==> \(TerminalText.escaped(reading.input)) <==\n")
            }
            output.write(LineReadingRendering.text(reading))
        }
        analyzer.inputFailed = { failure in
            output.flush()
            unreadPaths += 1
            reportFailedInput(failure)
        }
        do {
            try analyzer.analyze(readable.inputs, jobs: 1)
        } catch {
            output.flush()
            fail("\(error)")
        }
        analyzer.finish()
        finishWriting(output)
        failForUnreadInputs(unreadPaths)
    }
}
