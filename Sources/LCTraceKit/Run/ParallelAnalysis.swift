/// `--jobs N`: inputs analysed on up to N threads, each by its own `Analyzer` into a recording; the recordings are
/// replayed into the run's reports in input order with sessions renumbered, so the output is byte-identical to
/// analysing the inputs one after another. At most N inputs are in flight or waiting to be replayed.
extension Analyzer {
    /// The most threads a run uses, whatever it asks for.
    public static let maxJobs = 1024

    /// Throws `InputFailure` for the first input (in order) that cannot be read, after everything before it.
    public func analyze(_ sources: [InputSource], jobs: Int) throws(InputFailure) {
        try analyze(sources.map { RunInput($0) }, jobs: jobs)
    }

    /// Throws `InputFailure` for the first input named itself (in order) that cannot be read, after everything before
    /// it. An input found in a folder that cannot be read is handed to `inputFailed`, and the run goes on.
    public func analyze(_ inputs: [RunInput], jobs: Int) throws(InputFailure) {
        let jobs = min(max(jobs, 1), Analyzer.maxJobs)
        if jobs > 1, inputs.count == 1, let input = inputs.first {
            // An input found in a folder that cannot be opened is reported like one that cannot be read; once its
            // sections are under way, a failure ends the run as it does for a file named itself.
            if input.isFoundInFolder {
                do {
                    FileDescriptorIO.close(try input.source.openDescriptor())
                } catch {
                    try failed(input, error)
                    return
                }
            }
            do {
                if try analyzeInSections(input.source, jobs: jobs) { return }
            } catch {
                throw error as? InputFailure ?? InputFailure(input: input.source.name, error: error)
            }
        }
        guard jobs > 1, inputs.count > 1 else {
            for input in inputs {
                do { try analyze(input.source, endingInputOnFailure: input.isFoundInFolder) } catch { try failed(input, error) }
            }
            return
        }
        let pool = OrderedWorkPool<Recording>(concurrency: jobs, window: jobs)
        // Whatever ends this run (a failure included), the inputs not started are not analysed.
        defer { pool.stop() }
        let options = self.options
        let ahead = renderingAhead
        let progress = self.progress
        let notice = self.notice
        let recognizers = HeaderRecognizers(options)
        pool.startProducer {
            for input in inputs {
                let source = input.source
                let handedIn = pool.submit {
                    let recording = Recording(ahead)
                    recognizers.using { headerRecognizer in
                        // A message parser of its own, with a name table of its own, for each input as before: what
                        // one input reads never depends on which inputs the same thread read before it.
                        let messageParser = MessageParser(limits: options.limits, matchers: options.matchers, names: NameTable())
                        let worker = Analyzer(options: options, target: recording, messageParser: messageParser, headerRecognizer: headerRecognizer)
                        worker.durationsPutAside = DurationSamples()
                        worker.progress = progress
                        worker.notice = notice
                        defer { recording.durations = worker.durationsPutAside ?? DurationSamples() }
                        do {
                            try worker.analyze(source, endingInputOnFailure: input.isFoundInFolder)
                        } catch {
                            recording.error = InputFailure(input: source.name, error: error)
                        }
                    }
                    return recording
                }
                if !handedIn { return }
            }
        }
        for input in inputs {
            let recording = pool.next()
            replay(recording)
            if let failure = recording.error { try failed(input, failure.error) }
        }
    }

    /// An input that could not be read, or whose reading failed part way (it was ended where it failed): handed to
    /// `inputFailed` when it was found in a folder, thrown otherwise.
    private func failed(_ input: RunInput, _ error: any Error) throws(InputFailure) {
        let failure = InputFailure(input: input.source.name, error: error)
        guard input.isFoundInFolder, let inputFailed else { throw failure }
        inputFailed(failure)
    }
}

/// Compiled line-header recognizers for the workers of a run over several inputs, handed to one worker at a time and
/// kept for the next (a reader resets one before each input): compiling the line formats again for each input made a
/// folder of ten thousand small logs four times slower.
private final class HeaderRecognizers: @unchecked Sendable {
    private let options: AnalysisOptions
    private let idle = Lock<[LineHeaderRecognizer]>([])

    init(_ options: AnalysisOptions) { self.options = options }

    func using<Result>(_ body: (LineHeaderRecognizer) -> Result) -> Result {
        // The options were validated when the run's analyzer was made, so they compile again.
        let recognizer = idle.withLock { $0.popLast() }
            ?? (try! LineHeaderRecognizer(options.lineFormat, limits: options.limits, matchers: options.matchers))
        defer { idle.withLock { $0.append(recognizer) } }
        return body(recognizer)
    }
}

/// An input of a run: named itself (on the command line), or found in a folder that was (`InputFolder`).
public struct RunInput: Sendable {
    public var source: InputSource
    /// When an input found in a folder cannot be read, or reading it fails part way (a corrupt gzip file), what was
    /// read of it is reported, the failure is handed to `Analyzer.inputFailed`, and the run goes on with the next
    /// input: one bad file among many hides nothing of the others. An input named itself that fails ends the run.
    public var isFoundInFolder: Bool

    public init(_ source: InputSource, isFoundInFolder: Bool = false) {
        self.source = source
        self.isFoundInFolder = isFoundInFolder
    }
}

extension InputSource {
    /// Standard input, named `name` in every report instead of `<stdin>` (`--stdin-name`).
    public static func standardInput(named name: String) -> InputSource { InputSource(name: name, path: nil) }

    /// Whether this is standard input, whatever it is named.
    public var isStandardInput: Bool { path == nil }
}

/// Reading an input failed part way, and the input was ended there (`Analyzer.analyze(_:endingInputOnFailure:)`):
/// what was read of it, and the failure.
struct InputEndedEarly: Error {
    var input: InputSummary
    var error: any Error
}

/// An input that could not be read (or a forced pattern that stopped compiling), named.
public struct InputFailure: Error, CustomStringConvertible {
    public var input: String
    public var error: any Error
    /// `input: error`, or the error alone when it names the input already (`app.log: cannot open: …`).
    public var description: String {
        switch error as? InputError {
        case .cannotOpen(let path, _)? where path == input: return "\(error)"
        case .isDirectory(let path)? where path == input: return "\(error)"
        default: return "\(input): \(error)"
        }
    }
}
