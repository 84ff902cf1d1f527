import PCRE2

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

/// Where each section of one file starts, for the workers that analyse its sections at once. The worker of a section
/// finds where it ends (`SectionEndFinder.sectionEnd`), which is where the next one starts, and hands that in before it
/// counts and analyses the section; the worker of the next section waits for it. Sections are started in order, and
/// each hands in its end, or that no section follows it, before it waits for its lines to be numbered, so every wait
/// ends, or the run stops (`stop`) and the waits end without a start.
final class SectionStarts: @unchecked Sendable {
    private struct State {
        /// The start of each section up to the first whose end is not known yet: eight bytes a section.
        var starts = [0]
        /// The last section, once one runs to the end of the file or fails.
        var last: Int?
        var stopped = false
    }

    private let state = Lock(State())

    /// Section `index`, the last whose start is known, ends at `end`: the next one starts there.
    func ended(section index: Int, at end: Int) {
        state.withLock { state in
            assert(state.starts.count == index + 1, "a section's end handed in before the one before it")
            state.starts.append(end)
        }
    }

    /// No section comes after section `index`: it runs to the end of the file, or the run ends at its error.
    func noSection(after index: Int) {
        state.withLock { $0.last = min($0.last ?? index, index) }
    }

    /// Where section `index` starts, once the section before it has handed in its end; nil when no section `index`
    /// comes, or the run stops first.
    func start(ofSection index: Int) -> Int? {
        state.withLock(when: { $0.stopped || $0.starts.count > index || $0.last.map { $0 < index } == true }) { state in
            state.stopped || state.starts.count <= index ? nil : state.starts[index]
        }
    }

    /// Whether no more sections are to be handed out: the last one is known, or the run stopped.
    var handsOutNoMore: Bool { state.withLock { $0.stopped || $0.last != nil } }

    /// Ends every wait, now and later.
    func stop() {
        state.withLock { $0.stopped = true }
    }
}

/// Memory a worker reads its section into (all of it when it fits, and the bytes past its end that the look for the
/// launch ending it read). Its buffer is reused by a later section's worker, which reads its own bytes into it.
final class SectionMemory: @unchecked Sendable {
    let capacity: Int
    private let bytes: UnsafeMutableRawPointer
    /// The file offset of the first byte held, and how many are held from there.
    private(set) var origin = 0
    private(set) var count = 0

    init(capacity: Int) {
        self.capacity = max(capacity, 1)
        bytes = .allocate(byteCount: self.capacity, alignment: 16)
    }

    deinit { bytes.deallocate() }

    /// The bytes held, from `origin`.
    var text: UnsafeRawBufferPointer { UnsafeRawBufferPointer(start: bytes, count: count) }

    var isFull: Bool { count == capacity }

    /// Whether the bytes held run up to `end` (a file offset, not included).
    func holds(upTo end: Int) -> Bool { end - origin <= count }

    /// Lets go of the bytes held, to hold the file's from `offset`.
    func begin(at offset: Int) {
        origin = offset
        count = 0
    }

    /// Reads up to `byteCount` more of the file's bytes after those held, fewer at its end or the memory's; returns how
    /// many. They are read after SIGINT or SIGTERM too: the sections after this one are numbered by its lines.
    func readMore(_ byteCount: Int, of fd: Int32) throws -> Int {
        let wanted = min(byteCount, capacity - count)
        guard wanted > 0 else { return 0 }
        let read: Int
        do {
            read = try FileDescriptorIO.readFully(fd, into: UnsafeMutableRawBufferPointer(start: bytes + count, count: wanted),
                                                  atOffset: origin + count)
        } catch {
            throw InputError.readFailed(reason: error.description)
        }
        count += read
        return read
    }
}

extension Recording {
    /// What a worker needs to find and analyse the sections of one file, the same for each section.
    struct SectionJob: Sendable {
        let path: String
        let name: String
        /// The file's size when the run began: where the shorter last sections start (`SectionEndFinder.taperBytes`)
        /// and whether the rest of the file is a worker's last section.
        let fileSize: Int
        let endFinder: SectionEndFinder
        let options: AnalysisOptions
        let ahead: RenderingAhead
        let starts: SectionStarts
        let numbers: SectionLineNumbers
        let memories: RecyclingPool<SectionMemory>
        /// The classes known to log dealloc from the sections replayed so far: what a section starts out knowing.
        let known: Lock<Set<String>>
    }

    /// Analyses section `index` of a file into a new recording (run on a worker thread): waits for where it starts,
    /// reads it into memory up to the launch that ends it and hands in that end, counts its lines, waits for its first
    /// line's number, and analyses it. A section too long for the memory is counted and analysed from the file.
    ///
    /// When no launch ends it, it is the rest of the file: the workers' last section when it comes after a cut and is
    /// no longer than a worker's memory (`Analyzer.restIsLastSection`), analysed from the memory when it holds it all,
    /// and not counted; otherwise `.rest`, for the replaying thread to read in order. `.end` when no section `index`
    /// comes, or the run stopped while it waited. After SIGINT or SIGTERM a section's lines are counted (the last
    /// section's are not) but not analysed, as the line reader ends its input there.
    static func analyzing(section index: Int, _ job: SectionJob, parsers: SectionParsers) -> SectionResult {
        guard let start = job.starts.start(ofSection: index) else { return .end }
        let recording = Recording(job.ahead)
        let memory = job.memories.take()
        defer { job.memories.give(memory) }
        var handedIn = false
        var counted = false
        var lines = 0
        var section = InputSection(bytes: start..<Int.max, firstLine: 1)
        var knowledge = InputKnowledge()
        do {
            let fd = try InputSource.file(job.path).openDescriptor()
            defer { FileDescriptorIO.close(fd) }
            let end = try job.endFinder.sectionEnd(from: start, fileSize: job.fileSize, fileDescriptor: fd, memory: memory,
                                                   recognizer: parsers.launchRecognizer)
            var text: UnsafeRawBufferPointer?
            var isLast = false
            switch end {
            case .launch(let end):
                job.starts.ended(section: index, at: end)
                handedIn = true
                section.bytes = start..<end
                if memory.holds(upTo: end) {
                    text = UnsafeRawBufferPointer(rebasing: memory.text[..<(end - start)])
                    lines = NewlineCounter.lineBreakCount(in: text!)
                } else {
                    var counter = NewlineCounter(fileDescriptor: fd)
                    defer { counter.deallocate() }
                    counter.seek(to: start)
                    lines = try counter.count(upTo: end)
                }
                job.numbers.counted(section: index, lines: lines)
            case .noLaunch(let heldToTheEnd):
                job.starts.noSection(after: index)
                handedIn = true
                guard Analyzer.restIsLastSection(from: start, fileSize: job.fileSize, sectionBytes: job.endFinder.sectionBytes) else {
                    return .rest(from: start)
                }
                isLast = true
                if heldToTheEnd { text = memory.text }
            }
            counted = true
            guard let firstLine = job.numbers.firstLine(ofSection: index) else { return .end }
            section.firstLine = firstLine
            // What the sections replayed by now showed: read as late as can be, so that fewer sections are analysed
            // again in order for asking about a class an earlier section showed to log dealloc.
            knowledge = InputKnowledge(facts: job.known.withLock { $0 })
            if StopRequest.isRequested, let read = text { text = UnsafeRawBufferPointer(start: read.baseAddress, count: 0) }
            let worker = Analyzer(options: job.options, target: recording, messageParser: parsers.messageParser,
                                  headerRecognizer: parsers.headerRecognizer)
            worker.durationsPutAside = DurationSamples()
            defer { recording.durations = worker.durationsPutAside ?? DurationSamples() }
            recording.input = try worker.analyzeSection(fileDescriptor: fd, name: job.name, section: section, knowledge: knowledge,
                                                        text: text)
            if isLast { lines = recording.input?.lines ?? 0 }
        } catch {
            // The sections after this one wait for its end and its count: it has neither, and the run ends at its error.
            if !handedIn { job.starts.noSection(after: index) }
            if !counted { job.numbers.counted(section: index, lines: 0) }
            recording.error = InputFailure(input: job.name, error: error)
        }
        recording.facts = knowledge.facts
        recording.unknownWhenAsked = knowledge.unknownWhenAsked
        return .section(section, lines: lines, recording)
    }
}

/// A worker's parsers: the message parser and header recognizer its sections are read with, and a header recognizer of
/// its own for telling launch lines (`SectionEndFinder.isLaunch`), whose reading of headers leaves the other's as
/// it was.
struct SectionParsers {
    let messageParser: MessageParser
    let headerRecognizer: LineHeaderRecognizer
    let launchRecognizer: LineHeaderRecognizer
}

/// Compiled parsers for the section workers, handed to one worker at a time and kept for the next.
final class ParserPool: @unchecked Sendable {
    private let choice: LineFormatChoice
    private let limits: PCRE2Limits
    private let matchers: MatcherChoice
    private let idle = Lock<[SectionParsers]>([])

    init(choice: LineFormatChoice, limits: PCRE2Limits, matchers: MatcherChoice) {
        self.choice = choice
        self.limits = limits
        self.matchers = matchers
    }

    func using<Result>(_ body: (SectionParsers) -> Result) -> Result {
        // The format compiled once already on this run (its patterns are kept: `CompiledPatterns`), so it cannot fail.
        let parsers = idle.withLock { $0.popLast() }
            ?? SectionParsers(messageParser: MessageParser(limits: limits, matchers: matchers, names: NameTable()),
                              headerRecognizer: try! LineHeaderRecognizer(choice, limits: limits, matchers: matchers),
                              launchRecognizer: try! LineHeaderRecognizer(choice, limits: limits, matchers: matchers))
        defer { idle.withLock { $0.append(parsers) } }
        return body(parsers)
    }
}
