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
/// Each worker learns where its section starts from the worker of the section before (`SectionStarts`), reads the
/// section into memory and on past its nominal end up to the launch that ends it (`SectionEndFinder.sectionEnd`), hands
/// that end in for the next worker, counts its lines, and learns its first line's number when the sections before it
/// are counted (`SectionLineNumbers`). Each byte of the file is read once, but for what the last read of each search
/// brings in past the launch (the next section's first bytes: at most 64 KiB in memory, 256 KiB when the search went on
/// in the file) and a section too long for a worker's memory: what the memory holds of it is read again from the file,
/// to count its lines and to analyse them, with the rest of it.
///
/// One thing crosses sessions: whether a class logs dealloc anywhere earlier in the input (the leak rule's
/// severity). A section is analysed knowing what the sections replayed by the time its lines were numbered showed; if it asked
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
        let recordsEvents = options.keepEvents || options.keepTimelineEvents || wantsLiveItems
        let sectionBytes = recordsEvents ? options.sectionBytes : 4 * options.sectionBytes
        guard let size = FileStatus(fileDescriptor: fd)?.regularFileSize, size >= 2 * sectionBytes else { return false }
        // A gzip file is read as one stream: its compressed bytes cannot be cut at lines.
        var magic: (UInt8, UInt8) = (0, 0)
        guard (try? FileDescriptorIO.read(fd, into: &magic, count: 2, atOffset: 0)) == 2,
              !withUnsafeBytes(of: magic, GzipInflater.isGzip)
        else { return false }

        let parsers = ParserPool(choice: options.lineFormat, limits: options.limits, matchers: options.matchers)
        // Sections handed in and not yet replayed (`sectionWindow`).
        let recordsFindingsOnly = !recordsEvents && renderingAhead.countsSessionsOnly
        let pool = OrderedWorkPool<SectionResult>(concurrency: jobs,
                                                  window: Analyzer.sectionWindow(jobs: jobs, recordsFindingsOnly: recordsFindingsOnly))
        var endFinder = SectionEndFinder(sectionBytes: sectionBytes, maxLineBytes: options.maxLineBytes,
                                         processFilter: options.processFilter)
        endFinder.taperBytes = Analyzer.sectionTaper(jobs: jobs, sectionBytes: sectionBytes)
        // A section is read into memory when it is at most twice the nominal size (most are a little over it): the
        // memory is kept from one section to the next, one per worker at work.
        let job = Recording.SectionJob(path: path, name: source.name, fileSize: size, endFinder: endFinder, options: options,
                                       ahead: renderingAhead, starts: SectionStarts(), numbers: SectionLineNumbers(),
                                       memories: RecyclingPool { SectionMemory(capacity: 2 * sectionBytes) },
                                       known: Lock<Set<String>>([]))
        // Whatever ends this run (an error included), no more sections are handed out, the sections not started are
        // dropped, and the workers waiting for their start or their first line's number stop waiting.
        defer {
            pool.stop()
            job.starts.stop()
            job.numbers.stop()
        }

        // Hands out the sections in order until the last is known: each worker finds where its section ends.
        pool.startProducer {
            var index = 0
            while !job.starts.handsOutNoMore {
                let section = index
                index += 1
                let handedIn = pool.submit {
                    parsers.using { Recording.analyzing(section: section, job, parsers: $0) }
                }
                guard handedIn else { return }
            }
            pool.submit(result: .end)
        }

        beginInput(source.name)
        var input = InputSummary(name: source.name, format: LineFormat.bare.name)
        var knowledge = InputKnowledge()
        // The first line of the section after those replayed: where the rest of the file starts, if it comes to that.
        var nextFirstLine = 1
        func analyzeHere(_ section: InputSection) throws {
            knowledge = InputKnowledge(facts: knowledge.facts)
            input.add(try analyzeSection(fileDescriptor: fd, name: source.name, section: section, knowledge: knowledge))
        }
        reading: while true {
            switch pool.next() {
            case .section(let section, let lines, let recording):
                if let error = recording.error { throw error }
                if recording.unknownWhenAsked.isDisjoint(with: knowledge.facts), let part = recording.input {
                    replay(recording)
                    // Read on a worker: counted now. A section analysed here counts itself as it is read.
                    if let progress { progress(part.bytes) }
                    input.add(part)
                    knowledge = InputKnowledge(facts: knowledge.facts.union(recording.facts))
                } else {
                    try analyzeHere(section)
                }
                nextFirstLine = section.firstLine + lines
                let replayed = knowledge.facts
                job.known.withLock { $0 = replayed }
            case .rest(let start):
                try analyzeHere(InputSection(bytes: start..<Int.max, firstLine: nextFirstLine))
                break reading
            case .end:
                break reading
            }
        }
        endInput(input)
        return true
    }
}

extension Analyzer {
    /// How many sections may be handed to the workers and not yet replayed. Their times vary with their sessions, so
    /// each worker may run ahead while the replaying thread waits for an earlier one: with one spare section in all,
    /// the workers sat idle for about a tenth of a 1 GiB run. A worker that finds the window full has no section to
    /// analyse, and its thread ends until the next is handed in. When a section records only counts and
    /// findings (no events kept or streamed, and no reporter reading the sessions' reports: `check` and the other
    /// findings-only reports), the window is four times as wide: on a whole-device log, whose sections vary most (a
    /// launch is up to a section away from each nominal end), `check` with two jobs otherwise started 23 threads
    /// where it needs 3, and took 4 % longer. A section's events or its sessions' rendered reports take up to a
    /// megabyte or so, and the narrow window bounds what they hold while the replaying thread waits, on a slow reader
    /// of the report say (the JSON report with events took 41 MiB with a window of 6, 68 MiB with 24).
    static func sectionWindow(jobs: Int, recordsFindingsOnly: Bool) -> Int {
        let narrow = 2 * jobs + 2
        return recordsFindingsOnly ? 4 * narrow : narrow
    }

    /// The bytes at a file's end cut into shorter sections (`SectionEndFinder.taperBytes`): two sections' worth
    /// a worker, enough to even out a worker that took a full section just before them.
    static func sectionTaper(jobs: Int, sectionBytes: Int) -> Int {
        2 * jobs * sectionBytes
    }

    /// Whether the rest of a file from `start` (where no launch ended a section) is the workers' last section: after a
    /// cut, and no longer than a section may be (`2 * sectionBytes`, what a worker reads into memory). It is then
    /// analysed beside the sections before it rather than after them all, with the workers idle. A longer rest (no
    /// launch came within a worker's reach) is read by the replaying thread, which streams what it finds rather than
    /// holding it all for replay: a worker would keep every event and item of it until its turn.
    static func restIsLastSection(from start: Int, fileSize: Int, sectionBytes: Int) -> Bool {
        start > 0 && fileSize - start <= 2 * sectionBytes
    }
}

/// What the workers hand to the replaying thread, in order.
enum SectionResult {
    /// A section analysed by a worker, numbered, with the number of its lines.
    case section(InputSection, lines: Int, Recording)
    /// No `main()` line came soon enough after this offset's nominal end, or the file ended first: the rest of the
    /// file from this offset is one piece, analysed in order by the replaying thread: the whole file when no launch cut
    /// it, or a rest longer than a worker's last section may be (`Analyzer.restIsLastSection`).
    case rest(from: Int)
    /// Nothing more: the file ended in a section before it, or the run stopped (a handing in was refused, or a
    /// worker's wait for its start or its first line ended).
    case end
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
