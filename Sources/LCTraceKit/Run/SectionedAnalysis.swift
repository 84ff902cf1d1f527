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
/// Each worker reads its section into memory, counts its lines, and learns its first line's number when the sections
/// before it are counted (`SectionLineNumbers`). The planner that cuts the file reads only the lines after each
/// section's nominal end, up to a launch: a few kilobytes a section are read twice, not the whole file (a section
/// too long for a worker's memory is read from the file twice, to count its lines and to analyse them).
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
        let numbers = SectionLineNumbers()
        // A section is read into memory when it is at most twice the nominal size (most are a little over it): the
        // memory is kept from one section to the next, one per worker at work.
        let memories = RecyclingPool { SectionMemory(capacity: 2 * sectionBytes) }
        // Whatever ends this run (an error included), the planner stops, the sections not started are dropped, and
        // the workers waiting for their first line's number stop waiting.
        defer {
            pool.stop()
            numbers.stop()
        }
        // The classes known to log dealloc from the sections replayed so far: what a section starts out knowing.
        let known = Lock<Set<String>>([])
        let ahead = renderingAhead
        let maxLineBytes = options.maxLineBytes
        let processFilter = options.processFilter

        pool.startProducer {
            let planner = LaunchBoundaryPlanner(path: path, lineFormat: choice, sectionBytes: sectionBytes, maxLineBytes: maxLineBytes,
                                                processFilter: processFilter)
            var index = 0
            let last = planner.plan { bytes in
                let planned = PlannedSection(index: index, bytes: bytes)
                index += 1
                return pool.submit {
                    let seed = known.withLock { $0 }
                    return parsers.using { messageParser, headerRecognizer in
                        Recording.analyzing(planned, of: path, name: source.name, options: sectionOptions, seed: seed,
                                            ahead: ahead, numbers: numbers, memories: memories,
                                            messageParser: messageParser, headerRecognizer: headerRecognizer)
                    }
                }
            }
            pool.submit(result: last)
        }

        beginInput(source.name)
        var input = InputSummary(name: source.name, format: LineFormat.bare.name)
        var knowledge = InputKnowledge()
        var replayedSections = 0
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
                replayedSections += 1
                let replayed = knowledge.facts
                known.withLock { $0 = replayed }
            case .rest(let start):
                // Every section before it is replayed, so counted: its first line's number is known.
                guard let firstLine = numbers.firstLine(ofSection: replayedSections) else { break reading }
                try analyzeHere(InputSection(bytes: start..<Int.max, firstLine: firstLine))
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

/// A section as the planner cuts it: its place in the file's order and its bytes. Its first line's number is learnt
/// by the worker that analyses it.
struct PlannedSection: Sendable {
    var index: Int
    var bytes: Range<Int>
}

/// What the planner hands to the replaying thread, in order.
enum SectionResult {
    case section(InputSection, Recording)
    /// No `main()` line came soon enough after this offset's nominal end, or the file ended first: the rest of the
    /// file from this offset is analysed in order, in one piece.
    case rest(from: Int)
    /// The run stopped: the planner's handing in was refused, or a worker's wait for its first line ended.
    case end
    case failed(InputFailure)
}

/// The number of each section's first line, for the workers that analyse the sections of one file at once. A worker
/// counts the lines of its section and hands the count in, then waits until every section before its own is counted.
/// Sections are started in order and each is counted before its worker waits, so every wait ends, or the run stops
/// (`stop`) and the waits end without a number.
final class SectionLineNumbers: @unchecked Sendable {
    private struct State {
        /// Counts handed in before those of every earlier section, by section.
        var early: [Int: Int] = [:]
        /// The first line of each section up to the first one not counted (whose first line is known too): eight bytes
        /// a section.
        var firstLines = [1]
        var stopped = false
    }

    private let state = Lock(State())

    /// Section `index` has `lines` lines (line breaks: it ends where the next section starts).
    func counted(section index: Int, lines: Int) {
        state.withLock { state in
            state.early[index] = lines
            while let lines = state.early.removeValue(forKey: state.firstLines.count - 1) {
                state.firstLines.append(state.firstLines[state.firstLines.count - 1] + lines)
            }
        }
    }

    /// The number of section `index`'s first line, once every section before it is counted; nil when the run stops
    /// first.
    func firstLine(ofSection index: Int) -> Int? {
        state.withLock(when: { $0.stopped || $0.firstLines.count > index }) { state in
            state.firstLines.count > index ? state.firstLines[index] : nil
        }
    }

    /// Ends every wait, now and later.
    func stop() {
        state.withLock { $0.stopped = true }
    }
}

/// Memory a worker reads a whole section into, kept for the worker that analyses the next one.
final class SectionMemory: @unchecked Sendable {
    let capacity: Int
    private let bytes: UnsafeMutableRawPointer

    init(capacity: Int) {
        self.capacity = max(capacity, 1)
        bytes = .allocate(byteCount: self.capacity, alignment: 16)
    }

    deinit { bytes.deallocate() }

    /// The bytes of `range` of the file, read into this memory; nil, having read nothing, when the range is longer
    /// than the memory. A file that is shorter now gives the bytes up to its end; after SIGINT or SIGTERM, none are
    /// read (as the line reader ends its input).
    func read(_ range: Range<Int>, of fd: Int32) throws -> UnsafeRawBufferPointer? {
        guard range.count <= capacity else { return nil }
        if StopRequest.isRequested { return UnsafeRawBufferPointer(start: bytes, count: 0) }
        let count: Int
        do {
            count = try FileDescriptorIO.readFully(fd, into: UnsafeMutableRawBufferPointer(start: bytes, count: range.count),
                                                   atOffset: range.lowerBound)
        } catch {
            throw InputError.readFailed(reason: error.description)
        }
        return UnsafeRawBufferPointer(start: bytes, count: count)
    }
}

/// Finds the section boundaries of one file: the first `main()` line at or after every `sectionBytes`.
///
/// Only the lines after each nominal end are read, one by one, until a `main()` line: the rest of a section is read
/// by the worker that analyses it.
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
    /// The bytes read at a time after a nominal end: a launch is usually a few kilobytes away.
    var chunkBytes = 16 << 10

    /// Calls `emit` with the bytes of each section but the last, and returns what ends the plan; stops when `emit`
    /// returns false.
    func plan(_ emit: (Range<Int>) -> Bool) -> SectionResult {
        let source = InputSource.file(path)
        do {
            let fd = try source.openDescriptor()
            defer { FileDescriptorIO.close(fd) }
            // Built-in formats always compile, and a forced pattern compiled when the analyzer was made.
            let recognizer = try LineHeaderRecognizer(lineFormat)
            var finder = NewlineCounter(fileDescriptor: fd, chunkBytes: chunkBytes)
            defer { finder.deallocate() }
            var start = 0
            while true {
                // The first line starting at or after the nominal end: the one after the first line break ending at
                // or after the byte before that end.
                finder.seek(to: start + sectionBytes - 1)
                guard let lineBreak = try finder.next() else { return .rest(from: start) }
                struct Found: Error { let offset: Int }
                struct GaveUp: Error {}
                let reader = LineReader(fileDescriptor: fd, maxLineBytes: maxLineBytes, chunkBytes: chunkBytes,
                                        range: (lineBreak + 1)..<Int.max)
                do {
                    try reader.forEachLine { line, _ in
                        let offset = reader.lineOffset
                        if LaunchBoundaryPlanner.isLaunch(line, recognizer: recognizer, keptBy: processFilter) {
                            throw Found(offset: offset)
                        }
                        if offset - start >= sectionBytes + maxOvershoot { throw GaveUp() }
                    }
                } catch let found as Found {
                    guard emit(start..<found.offset) else { return .end }
                    start = found.offset
                    continue
                } catch is GaveUp {
                    return .rest(from: start)
                }
                return .rest(from: start)
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
    /// Analyses one section of a file into a new recording (run on a worker thread): reads it into memory (a section
    /// too long for it is read from the file twice), counts its lines, waits for its first line's number, and
    /// analyses it. `.end` when the run stopped while it waited.
    static func analyzing(_ planned: PlannedSection, of path: String, name: String, options: AnalysisOptions,
                          seed: Set<String>, ahead: RenderingAhead, numbers: SectionLineNumbers, memories: RecyclingPool<SectionMemory>,
                          messageParser: MessageParser, headerRecognizer: LineHeaderRecognizer) -> SectionResult {
        let recording = Recording(ahead)
        let knowledge = InputKnowledge(facts: seed)
        let memory = memories.take()
        defer { memories.give(memory) }
        var counted = false
        var section = InputSection(bytes: planned.bytes, firstLine: 1)
        do {
            let fd = try InputSource.file(path).openDescriptor()
            defer { FileDescriptorIO.close(fd) }
            let text = try memory.read(planned.bytes, of: fd)
            let lines: Int
            if let text {
                lines = NewlineCounter.lineBreakCount(in: text)
            } else {
                var counter = NewlineCounter(fileDescriptor: fd)
                defer { counter.deallocate() }
                counter.seek(to: planned.bytes.lowerBound)
                lines = try counter.count(upTo: planned.bytes.upperBound)
            }
            numbers.counted(section: planned.index, lines: lines)
            counted = true
            guard let firstLine = numbers.firstLine(ofSection: planned.index) else { return .end }
            section.firstLine = firstLine
            let worker = Analyzer(options: options, target: recording, messageParser: messageParser, headerRecognizer: headerRecognizer)
            worker.durationsPutAside = DurationSamples()
            defer { recording.durations = worker.durationsPutAside ?? DurationSamples() }
            recording.input = try worker.analyzeSection(fileDescriptor: fd, name: name, section: section, knowledge: knowledge,
                                                        text: text)
        } catch {
            // The sections after this one wait for its count: it has none, and the run ends at its error.
            if !counted { numbers.counted(section: planned.index, lines: 0) }
            recording.error = InputFailure(input: name, error: error)
        }
        recording.facts = knowledge.facts
        recording.unknownWhenAsked = knowledge.unknownWhenAsked
        return .section(section, recording)
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
