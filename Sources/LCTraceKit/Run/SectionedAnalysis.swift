import PCRE2

/// A part of one input: a byte range starting at a line start (nil: the whole input), and that line's number.
struct InputSection: Sendable {
    var bytes: Range<Int>?
    var firstLine = 1
}

/// `--jobs N` on one large file: the file is cut into sections at `main()` lines (each starts an app launch, so no
/// session spans two sections), the sections are analysed on up to N threads and replayed in order with sessions
/// renumbered, as `--jobs` does with several files.
///
/// One thing crosses sessions: whether a class logs dealloc anywhere earlier in the input (the leak rule's
/// severity). A section is analysed knowing what the sections replayed before it was dispatched showed; if it asked
/// about a class that an earlier section, replayed since, showed to log dealloc, its answer may have been wrong, and
/// the section is analysed again in order. Either way the report is byte-identical to a sequential run.
extension Analyzer {
    /// Analyses `source` in sections when it is a regular file of at least two sections; returns false (having read
    /// nothing into the report) when it is not.
    func analyzeInSections(_ source: InputSource, jobs: Int) throws -> Bool {
        guard let path = source.path, !options.follow else { return false }
        let fd = try source.openDescriptor()
        defer { FileDescriptorIO.close(fd) }
        // A run that keeps and streams no events records little per section, and each section handed between threads
        // costs the same whatever its size: its sections are four times larger.
        let sectionBytes = options.keepEvents || options.keepTimelineEvents || wantsLiveItems
            ? options.sectionBytes : 4 * options.sectionBytes
        guard let size = FileStatus(fileDescriptor: fd)?.regularFileSize, size >= 2 * sectionBytes else { return false }
        // A gzip file is read as one stream: its compressed bytes cannot be cut at lines.
        var magic: (UInt8, UInt8) = (0, 0)
        guard (try? FileDescriptorIO.read(fd, into: &magic, count: 2, atOffset: 0)) == 2,
              !withUnsafeBytes(of: magic, GzipInflater.isGzip)
        else { return false }

        let sectionOptions = options
        let choice = options.lineFormat
        let parsers = ParserPool(choice: choice, limits: options.limits, matchers: options.matchers)
        // Sections handed in and not yet replayed. Their times vary with their sessions, so each worker may run one
        // ahead while the replaying thread waits for an earlier one: with one spare section in all, the workers sat
        // idle for about a tenth of a 1 GiB run.
        let pool = OrderedWorkPool<SectionResult>(concurrency: jobs, window: 2 * jobs + 2)
        // Whatever ends this run (an error included), the planner stops and the sections not started are dropped.
        defer { pool.stop() }
        // The classes known to log dealloc from the sections replayed so far: what a section starts out knowing.
        let known = Lock<Set<String>>([])
        let ahead = renderingAhead
        let maxLineBytes = options.maxLineBytes
        let processFilter = options.processFilter

        pool.startProducer {
            let planner = LaunchBoundaryPlanner(path: path, lineFormat: choice, sectionBytes: sectionBytes, maxLineBytes: maxLineBytes,
                                                processFilter: processFilter)
            let last = planner.plan { section in
                pool.submit {
                    let seed = known.withLock { $0 }
                    let recording = parsers.using { messageParser, headerRecognizer in
                        Recording.analyzing(section, of: path, name: source.name, options: sectionOptions, seed: seed,
                                            ahead: ahead, messageParser: messageParser, headerRecognizer: headerRecognizer)
                    }
                    return .section(section, recording)
                }
            }
            pool.submit(result: last)
        }

        beginInput(source.name)
        var input = InputSummary(name: source.name, format: LineFormat.bare.name)
        var knowledge = InputKnowledge()
        func analyzeHere(_ section: InputSection) throws {
            knowledge = InputKnowledge(facts: knowledge.facts)
            input.add(try analyzeSection(fileDescriptor: fd, name: source.name, section: section, knowledge: knowledge))
        }
        reading: while true {
            switch pool.next() {
            case .section(let section, let recording):
                if let error = recording.error { throw error }
                if recording.unknownWhenAsked.isDisjoint(with: knowledge.facts), let part = recording.input {
                    replay(recording)
                    // Read on a worker: counted now. A section analysed here counts itself as it is read.
                    if let progress, let bytes = section.bytes { progress(bytes.count) }
                    input.add(part)
                    knowledge = InputKnowledge(facts: knowledge.facts.union(recording.facts))
                } else {
                    try analyzeHere(section)
                }
                let replayed = knowledge.facts
                known.withLock { $0 = replayed }
            case .rest(let section):
                try analyzeHere(section)
                break reading
            case .end:
                break reading
            case .failed(let error):
                throw error
            }
        }
        endInput(input)
        return true
    }
}

/// What the planner hands to the replaying thread, in order.
enum SectionResult {
    case section(InputSection, Recording)
    /// No `main()` line came soon enough after this section's nominal end: the rest is analysed in order, in one piece.
    case rest(InputSection)
    case end
    case failed(InputFailure)
}

/// Finds the section boundaries of one file: the first `main()` line at or after every `sectionBytes`.
///
/// Only the lines after each nominal end are looked at one by one. Up to there, the planner only counts newlines
/// (every section needs the number of its first line), which is a small part of the cost of handing each line out.
///
/// With `--process`/`--pid`, a line whose header names no process goes with the line before it, and a launch of a
/// process left out starts no session: a section starts only at a `main()` line of a process kept, named in its own
/// header, so that its reader decides it, and everything after it, as a reader of the whole file would.
struct LaunchBoundaryPlanner {
    let path: String
    let lineFormat: LineFormatChoice
    let sectionBytes: Int
    let maxLineBytes: Int
    var processFilter: ProcessFilter? = nil
    /// How far past a section's nominal end to look for a `main()` line before giving up on cutting.
    var maxOvershoot: Int { max(16 * sectionBytes, 64 << 20) }
    /// The bytes read at a time while counting newlines.
    var chunkBytes = 1 << 18

    /// Calls `emit` with each section but the last, and returns what ends the plan; stops when `emit` returns false.
    func plan(_ emit: (InputSection) -> Bool) -> SectionResult {
        let source = InputSource.file(path)
        do {
            let fd = try source.openDescriptor()
            defer { FileDescriptorIO.close(fd) }
            // Built-in formats always compile, and a forced pattern compiled when the analyzer was made.
            let recognizer = try LineHeaderRecognizer(lineFormat)
            var counter = NewlineCounter(fileDescriptor: fd, chunkBytes: chunkBytes)
            defer { counter.deallocate() }
            var start = 0
            var firstLine = 1
            while true {
                // The first line starting at or after the nominal end: the one after the first newline at or after
                // the byte before that end. `lineNumber` is the number of the line starting there.
                let skipped = try counter.count(upTo: start + sectionBytes - 1)
                guard let newline = try counter.next() else {
                    return .rest(InputSection(bytes: start..<counter.fileSize, firstLine: firstLine))
                }
                var lineNumber = firstLine + skipped + 1
                var cut: Int?
                struct Found: Error { let offset: Int; let line: Int }
                struct GaveUp: Error {}
                let reader = LineReader(fileDescriptor: fd, maxLineBytes: maxLineBytes, chunkBytes: 64 << 10,
                                        range: (newline + 1)..<Int.max)
                do {
                    try reader.forEachLine { line, _ in
                        let offset = reader.lineOffset
                        if LaunchBoundaryPlanner.isLaunch(line, recognizer: recognizer, keptBy: processFilter) {
                            throw Found(offset: offset, line: lineNumber)
                        }
                        if offset - start >= sectionBytes + maxOvershoot { throw GaveUp() }
                        lineNumber += 1
                    }
                } catch let found as Found {
                    cut = found.offset
                    guard emit(InputSection(bytes: start..<found.offset, firstLine: firstLine)) else { return .end }
                    firstLine = found.line
                } catch is GaveUp {
                    return .rest(InputSection(bytes: start..<Int.max, firstLine: firstLine))
                }
                guard let cut else {
                    return .rest(InputSection(bytes: start..<(newline + 1 + reader.bytesRead), firstLine: firstLine))
                }
                start = cut
                counter.seek(to: cut)
            }
        } catch {
            return .failed(InputFailure(input: source.name, error: error))
        }
    }

    /// Whether the line's record is exactly `main()` (cheap test on the line's end first), and, with a process filter,
    /// of a process the filter keeps by the line's own header.
    static func isLaunch(_ line: UnsafeRawBufferPointer, recognizer: LineHeaderRecognizer, keptBy filter: ProcessFilter? = nil) -> Bool {
        var end = line.count
        while end > 0, LineBytes.isSpace(line[end - 1]) { end -= 1 }
        let length = MessageParser.mainMarker.utf8CodeUnitCount
        guard end >= length, MessageParser.isMainMarker(line[(end - length)..<end]),
              let header = (try? recognizer.parse(line)).flatMap({ $0 })
        else { return false }
        if let filter, filter.keeps(header, in: line) != true { return false }
        return MessageParser.isMainMarker(line[LineBytes.trimmed(line, header.message)])
    }
}

extension Recording {
    /// Analyses one section of a file into a new recording (run on a worker thread).
    static func analyzing(_ section: InputSection, of path: String, name: String, options: AnalysisOptions,
                          seed: Set<String>, ahead: RenderingAhead,
                          messageParser: MessageParser, headerRecognizer: LineHeaderRecognizer) -> Recording {
        let recording = Recording(ahead)
        let knowledge = InputKnowledge(facts: seed)
        do {
            let fd = try InputSource.file(path).openDescriptor()
            defer { FileDescriptorIO.close(fd) }
            let worker = Analyzer(options: options, target: recording, messageParser: messageParser, headerRecognizer: headerRecognizer)
            worker.durationsPutAside = DurationSamples()
            defer { recording.durations = worker.durationsPutAside ?? DurationSamples() }
            recording.input = try worker.analyzeSection(fileDescriptor: fd, name: name, section: section, knowledge: knowledge)
        } catch {
            recording.error = InputFailure(input: name, error: error)
        }
        recording.facts = knowledge.facts
        recording.unknownWhenAsked = knowledge.unknownWhenAsked
        return recording
    }
}

/// Compiled parsers for the section workers, handed to one worker at a time and kept for the next.
private final class ParserPool: @unchecked Sendable {
    private let choice: LineFormatChoice
    private let limits: PCRE2Limits
    private let matchers: MatcherChoice
    private let idle = Lock<[(MessageParser, LineHeaderRecognizer)]>([])

    init(choice: LineFormatChoice, limits: PCRE2Limits, matchers: MatcherChoice) {
        self.choice = choice
        self.limits = limits
        self.matchers = matchers
    }

    func using<Result>(_ body: (MessageParser, LineHeaderRecognizer) -> Result) -> Result {
        // The format compiled once already on this run, so it compiles again.
        let parsers = idle.withLock { $0.popLast() }
            ?? (MessageParser(limits: limits, matchers: matchers, names: NameTable()),
                try! LineHeaderRecognizer(choice, limits: limits, matchers: matchers))
        defer { idle.withLock { $0.append(parsers) } }
        return body(parsers.0, parsers.1)
    }
}

extension InputSummary {
    /// Adds the counts of another part of the same input.
    mutating func add(_ part: InputSummary) {
        bytes += part.bytes
        lines += part.lines
        parsedLines += part.parsedLines
        for (reason, count) in part.skipped { skipped[reason, default: 0] += count }
        truncatedLines += part.truncatedLines
        gluedRecords += part.gluedRecords
        timeStepsBack += part.timeStepsBack
        if firstTimeStepBack == nil { firstTimeStepBack = part.firstTimeStepBack }
        unreadTimes += part.unreadTimes
        events += part.events
        lifecycleLines += part.lifecycleLines
        noticeLines += part.noticeLines
        otherLines += part.otherLines
        unreadLines += part.unreadLines
        crashLines += part.crashLines
        redactedLines += part.redactedLines
        unread += part.unread.prefix(InputSummary.unreadLinesKept - unread.count)
        // Sections come in order: the input's format is the first one any section recognised.
        if format == LineFormat.bare.name { format = part.format }
    }
}
