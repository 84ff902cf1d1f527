import LCTraceKit

/// One pass over the inputs into every report asked for: what `analyze` and `check` share.
struct AnalysisRun {
    var input: InputOptions
    var report: ReportOptions
    var rules: RuleOptions
    var requests: [ReporterRequest]
    /// Per-event timelines in the reports that can hold them.
    var includeEvents: Bool
    /// Findings from this severity on are failures, in the reports that mark failures (`--fail-on`).
    var failureSeverity: Severity = .error
    /// An input with no lifecycle event is an error (`check`, unless `--allow-empty-input`), where the rule's severity
    /// is not set otherwise (`--severity`, the configuration file).
    var emptyInputIsError = false
    /// The configuration file and its path, read by the command (`RuleOptions.configFile`); flags win over it.
    var config: LoadedConfig?
    /// The least severe finding the compiler-form report prints (`check --min-severity`, `--verbose`).
    var minimumSeverity: Severity = .info
    /// Name the configuration file read on standard error (`check --verbose`).
    var namesConfig = false
    /// Models merged into the one written (`lctrace learn --merge`).
    var merge: [String] = []
    /// Learn the run's model even when no file is named to write it to (`lctrace learn` to standard output).
    var learnsModel = false

    /// What a run came to: its summary (with the baseline's known findings taken out), and how many of the paths
    /// below the folders given could not be read (said on stderr as they were met; the run is to end with status 2).
    struct Outcome {
        var summary: RunSummary
        var unreadPaths: Int
        /// The model written (`--write-model`, `lctrace learn`), if any.
        var model: LifecycleModel?
    }

    /// Runs the analysis, writes the reports and the baseline, and returns what the run came to. Exits with status 2
    /// when an input named itself, a file or an output fails.
    func run() -> Outcome {
        let readable = input.readable(leavingOut: filesNotLogs)
        let sources = readable.sources
        var unreadPaths = readable.problems
        var options = AnalysisOptions()
        options.follow = input.follow
        options.rules = rules.settings(config?.file)
        options.configPath = config?.path
        if namesConfig, let path = options.configPath { StandardStream.error.write("lctrace: configuration \(TerminalText.escaped(path))\n") }
        if emptyInputIsError, options.rules.overrides[.noLifecycleEvents] == nil {
            options.rules.overrides[.noLifecycleEvents] = .some(.error)
        }
        options.lineFormat = input.lineFormatOptions.choice(config)
        options.processFilter = input.selection.processFilter(config)

        // Live: the input keeps flowing (a pipe or terminal on stdin, or --follow), so output is flushed as it is decided.
        let readsStandardInput = sources.contains(where: \.isStandardInput)
        let live = input.follow || (readsStandardInput && regularFileSize(.standardInput) == nil)
        if readsStandardInput, !input.quiet, StandardStream.input.isTerminal {
            StandardStream.error.write("lctrace: reading a log from standard input (end it with Ctrl-D; lctrace --help for more)\n")
        }

        var settings = ReportKind.Settings()
        settings.includeEvents = includeEvents
        settings.live = live
        settings.config = options.configPath
        settings.failureSeverity = failureSeverity
        settings.minimumSeverity = minimumSeverity
        if !report.sources.isEmpty {
            do {
                settings.declarations = try ControllerDeclarations.index(report.sources)
            } catch {
                fail("--sources: \(report.sources.joined(separator: ", ")) cannot be listed: \(error)")
            }
        }
        settings.rules = options.rules
        settings.sessions = report.session
        // Nothing is opened for writing before every output is known not to land on an input or on another output.
        if let problem = OutputPlan.problem(outputs: outputPlaces, inputs: inputPlaces(sources, config: options.configPath)) {
            fail(problem)
        }
        options.baseline = report.baseline.map { path in
            do { return try Baseline(path: path) } catch { fail("baseline \(path) \(error)") }
        }
        options.against = report.against.map { modelOrLog($0, options: options) }
        options.learnsModel = learnsModel || report.writeModel != nil
        let mergedModels = merge.map { path in
            do { return try LifecycleModel(path: path) } catch { fail("model \(path) \(error)") }
        }

        // A report to a file replaces it once complete; a live run's report grows in place, to be read as it grows.
        var outputs: [(output: Output, path: String?)] = []
        var reporters: [any Reporter] = []
        for request in requests {
            let path = request.path ?? report.outputPath
            let output = path.map { openOutput($0, replacing: !live) } ?? Output.standardOutput()
            // A run over files writes its reports on a thread of their own; a live run's are read as they come.
            output.writesInBackground = !live
            settings.color = path == nil && useColor()
            let stepSummary = request.reporter == .githubActions ? stepSummaryOutput() : nil
            if let stepSummary { outputs.append((stepSummary, Environment.value(of: "GITHUB_STEP_SUMMARY"))) }
            outputs.append((output, path))
            reporters.append(request.reporter.reporter(output: output, settings: settings, stepSummary: stepSummary))
        }
        // Made now, so that a path that cannot be written fails the run before the analysis rather than after it.
        let baselineOutput = report.writeBaseline.map { openOutput($0, replacing: true) }
        let modelOutput = report.writeModel.map { openOutput($0, replacing: true) }
        options.keepEvents = requests.contains { $0.reporter.keepsEvents(settings) }

        let recorder = report.writeBaseline.map { _ in BaselineRecorder(keying: report.baselineByInput ? .input : .content) }
        let reports = ReportDelivery(reporters, recorder: recorder)

        StopRequest.install()
        let analyzer: Analyzer
        do {
            analyzer = try Analyzer(options: options, reports: reports)
        } catch {
            fail(oneLine("\(input.lineFormatOptions.patternSource(config)): \(error)"))
        }
        let statistics = RunStatistics()
        let reportOnTerminal = outputs.contains { $0.path == nil } && StandardStream.output.isTerminal
        let progress = !input.quiet && ProgressLine.wanted(reportOnTerminal: reportOnTerminal)
            ? ProgressLine(total: sources.reduce(0) { $0 + (regularFileSize($1) ?? 0) }) : nil
        ProgressLine.current = progress
        if let progress { analyzer.progress = { progress.add($0) } }
        let quiet = input.quiet
        analyzer.notice = { message in
            progress?.clear()
            if !quiet { StandardStream.error.write("lctrace: \(TerminalText.escaped(message))\n") }
        }
        analyzer.inputFailed = { [outputs] failure in
            // What was reported before it goes out first, where a report goes to the terminal with the message.
            for (output, path) in outputs where path == nil { output.flush() }
            unreadPaths += 1
            reportFailedInput(failure)
        }
        do {
            try analyzer.analyze(readable.inputs, jobs: input.jobs ?? Processors.onlineCount)
        } catch {
            for (output, _) in outputs { output.flush() }
            fail("\(error)")
        }
        progress?.clear()
        ProgressLine.current = nil
        let summary = analyzer.finish()
        finishWriting(outputs)
        if let recorder, let output = baselineOutput, let path = report.writeBaseline {
            output.write(recorder.baseline.json)
            finishWriting(output, to: path)
        }
        var model = analyzer.model
        for other in mergedModels { model?.merge(other) }
        if let model, let output = modelOutput, let path = report.writeModel {
            output.write(model.json)
            finishWriting(output, to: path)
        }
        if input.stats { StandardStream.error.write(statistics.report(summary)) }
        // A live run ends when it is interrupted; a run over files that was interrupted has read only part of them.
        if !live, let signal = StopRequest.signal {
            StandardStream.error.write("lctrace: interrupted by \(signal.name): the reports are whole but cover only the "
                                       + "\(summary.lines) lines read before it\n")
            exitProcess(128 + signal.number)
        }
        return Outcome(summary: summary, unreadPaths: unreadPaths, model: model)
    }

    /// The model at `path` (`--against`), or the model of the log at `path` (a run learned with this run's reading
    /// options). Exits with status 2 when it cannot be read.
    private func modelOrLog(_ path: String, options: AnalysisOptions) -> LifecycleModel {
        let head: [UInt8]
        do { head = try FileDescriptorIO.readFile(atPath: path, limit: 256) } catch { fail("--against \(path) cannot be read: \(error)") }
        if LifecycleModel.looksLikeModel(head) {
            do { return try LifecycleModel(path: path) } catch { fail("--against model \(path) \(error)") }
        }
        var learning = AnalysisOptions()
        learning.lineFormat = options.lineFormat
        learning.processFilter = options.processFilter
        learning.learnsModel = true
        do {
            let analyzer = try Analyzer(options: learning, reporter: DiscardingReporter())
            try analyzer.analyze([RunInput(.file(path))], jobs: input.jobs ?? Processors.onlineCount)
            analyzer.finish()
            return analyzer.model ?? LifecycleModel()
        } catch {
            fail("--against \(path): \(error)")
        }
    }

    private func openOutput(_ path: String, replacing: Bool) -> Output {
        do { return replacing ? try Output.replacing(path) : try Output(path: path) } catch { fail("\(error)") }
    }

    /// Every file the run writes, labelled as the command line named it.
    private var outputPlaces: [OutputPlan.Place] {
        var places = requests.map { request in
            OutputPlan.Place(request.path.map { "--reporter \(request.reporter.rawValue)=\($0)" }
                                 ?? report.outputPath.map { "--output \($0)" } ?? "standard output", path: request.path ?? report.outputPath)
        }
        if let path = report.writeBaseline { places.append(OutputPlan.Place("--write-baseline \(path)", path: path)) }
        if let path = report.writeModel { places.append(OutputPlan.Place("the model \(path)", path: path)) }
        if requests.contains(where: { $0.reporter == .githubActions }), let path = Environment.value(of: "GITHUB_STEP_SUMMARY"), !path.isEmpty {
            places.append(OutputPlan.Place("the job summary GITHUB_STEP_SUMMARY=\(path)", path: path))
        }
        return places
    }

    /// The files a folder's listing leaves out: the ones this run writes (its reports, baseline and job summary, and
    /// the files standard output and error go to) and the baseline and configuration file it reads. None is a log,
    /// and `lctrace check logs/ > logs/check.txt` must not read its own report.
    private var filesNotLogs: [FileStatus] {
        var statuses = outputPlaces.compactMap { $0.path.flatMap { FileStatus(path: $0) } }
        statuses += [StandardStream.output, .error].compactMap { FileStatus(fileDescriptor: $0.fileDescriptor) }
        statuses += ([report.baseline, report.against, rules.configPath] + merge.map(Optional.some)).compactMap { $0.flatMap { FileStatus(path: $0) } }
        return statuses.filter { $0.kind == .regularFile }
    }

    /// Every file the run reads: the inputs, the baseline and the configuration file.
    private func inputPlaces(_ sources: [InputSource], config: String?) -> [OutputPlan.Place] {
        var places = sources.map { OutputPlan.Place($0.path.map { "the input \($0)" } ?? "standard input", path: $0.path) }
        if let path = report.baseline { places.append(OutputPlan.Place("the baseline \(path)", path: path)) }
        if let path = report.against { places.append(OutputPlan.Place("--against \(path)", path: path)) }
        for path in merge { places.append(OutputPlan.Place("the model \(path)", path: path)) }
        if let config { places.append(OutputPlan.Place("the configuration file \(config)", path: config)) }
        return places
    }

    /// GitHub's job summary file, appended to, when the job has one.
    private func stepSummaryOutput() -> Output? {
        guard let path = Environment.value(of: "GITHUB_STEP_SUMMARY"), !path.isEmpty else { return nil }
        do { return try Output(path: path, appending: true) } catch { fail("\(error)") }
    }

    private func useColor() -> Bool {
        switch report.color {
        case .always: return true
        case .never: return false
        case .auto: return (Environment.value(of: "NO_COLOR") ?? "").isEmpty && StandardStream.output.isTerminal
        }
    }
}
