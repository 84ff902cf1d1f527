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
    /// than the memory. A file that is shorter now gives the bytes up to its end. They are read after SIGINT or
    /// SIGTERM too: the sections after this one are numbered by its lines.
    func read(_ range: Range<Int>, of fd: Int32) throws -> UnsafeRawBufferPointer? {
        guard range.count <= capacity else { return nil }
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

extension Recording {
    /// Analyses one section of a file into a new recording (run on a worker thread): reads it into memory (a section
    /// too long for it is read from the file twice), counts its lines, waits for its first line's number, and
    /// analyses it. The last section, the rest of the file, is read from the file once and not counted. `.end` when the
    /// run stopped while it waited. After SIGINT or SIGTERM a section's lines are counted (the last section's are not)
    /// but not analysed, as the line reader ends its input there.
    static func analyzing(_ planned: PlannedSection, of path: String, name: String, options: AnalysisOptions,
                          seed: Set<String>, ahead: RenderingAhead, numbers: SectionLineNumbers, memories: RecyclingPool<SectionMemory>,
                          messageParser: MessageParser, headerRecognizer: LineHeaderRecognizer) -> SectionResult {
        let recording = Recording(ahead)
        let knowledge = InputKnowledge(facts: seed)
        let memory = memories.take()
        defer { memories.give(memory) }
        var counted = false
        var lines = 0
        var section = InputSection(bytes: planned.bytes, firstLine: 1)
        do {
            let fd = try InputSource.file(path).openDescriptor()
            defer { FileDescriptorIO.close(fd) }
            // The last section, to the end of the file, is not counted: no section after it waits for its count.
            var text = planned.isLast ? nil : try memory.read(planned.bytes, of: fd)
            if let text {
                lines = NewlineCounter.lineBreakCount(in: text)
            } else if !planned.isLast {
                var counter = NewlineCounter(fileDescriptor: fd)
                defer { counter.deallocate() }
                counter.seek(to: planned.bytes.lowerBound)
                lines = try counter.count(upTo: planned.bytes.upperBound)
            }
            if !planned.isLast { numbers.counted(section: planned.index, lines: lines) }
            counted = true
            guard let firstLine = numbers.firstLine(ofSection: planned.index) else { return .end }
            section.firstLine = firstLine
            if StopRequest.isRequested, let read = text { text = UnsafeRawBufferPointer(start: read.baseAddress, count: 0) }
            let worker = Analyzer(options: options, target: recording, messageParser: messageParser, headerRecognizer: headerRecognizer)
            worker.durationsPutAside = DurationSamples()
            defer { recording.durations = worker.durationsPutAside ?? DurationSamples() }
            recording.input = try worker.analyzeSection(fileDescriptor: fd, name: name, section: section, knowledge: knowledge,
                                                        text: text)
            if planned.isLast { lines = recording.input?.lines ?? 0 }
        } catch {
            // The sections after this one wait for its count: it has none, and the run ends at its error.
            if !counted { numbers.counted(section: planned.index, lines: 0) }
            recording.error = InputFailure(input: name, error: error)
        }
        recording.facts = knowledge.facts
        recording.unknownWhenAsked = knowledge.unknownWhenAsked
        return .section(section, lines: lines, recording)
    }
}

/// Compiled parsers for the section workers, handed to one worker at a time and kept for the next.
final class ParserPool: @unchecked Sendable {
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
        // The format compiled once already on this run (its patterns are kept: `CompiledPatterns`), so it cannot fail.
        let parsers = idle.withLock { $0.popLast() }
            ?? (MessageParser(limits: limits, matchers: matchers, names: NameTable()),
                try! LineHeaderRecognizer(choice, limits: limits, matchers: matchers))
        defer { idle.withLock { $0.append(parsers) } }
        return body(parsers.0, parsers.1)
    }
}
