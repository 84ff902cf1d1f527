/// Where a section of a file cut for `--jobs` ends: at the first `main()` line starting at or after its nominal end,
/// `sectionBytes` after its start (a quarter of that over the file's last `taperBytes`), and before `maxOvershoot` past
/// that end.
///
/// The worker that analyses a section finds its end (`sectionEnd`): it reads the section into its memory, and on past
/// the nominal end a little at a time until a `main()` line, which starts the next section. The bytes it looks through
/// are its own section's, so they are read once. They are not read line by line: `LaunchLineScanner` looks only at the
/// lines with a `)` where `main()` would end.
///
/// With `--process`/`--pid`, a line whose header names no process goes with the line before it, and a launch of a
/// process left out starts no session: a section starts only at a `main()` line of a process kept, named in its own
/// header, so that its reader decides it, and everything after it, as a reader of the whole file would.
struct SectionEndFinder {
    let sectionBytes: Int
    let maxLineBytes: Int
    var processFilter: ProcessFilter? = nil
    /// How far past a section's nominal end a `main()` line may start and still end it.
    var maxOvershoot: Int
    /// The bytes first read past a nominal end (and the size of the reads that find it): a launch is usually a few
    /// kilobytes away. Later reads of one search double, up to 64 KiB into memory (what is read past the launch is the
    /// next section's, read again by its worker) and 256 KiB from the file.
    var chunkBytes = 16 << 10
    /// The end of the file where sections are shorter (`nominalBytes`); 0 for none.
    var taperBytes = 0

    init(sectionBytes: Int, maxLineBytes: Int, processFilter: ProcessFilter? = nil) {
        self.sectionBytes = sectionBytes
        self.maxLineBytes = maxLineBytes
        self.processFilter = processFilter
        maxOvershoot = max(16 * sectionBytes, 64 << 20)
    }

    /// What ends a section.
    enum SectionEnd: Equatable {
        /// The launch line at this offset, where the next section starts.
        case launch(at: Int)
        /// No launch: the file ends first (`heldToTheEnd`: the memory holds every byte of it from the section's start),
        /// none starts within `maxOvershoot` of the nominal end, or SIGINT or SIGTERM came. The section is the rest of
        /// the file.
        case noLaunch(heldToTheEnd: Bool)
    }

    /// The nominal length of the section from `start`, in a file of `fileSize` bytes: `sectionBytes`, and a quarter of
    /// it once the rest of the file is within `taperBytes`. The workers take the last sections as they come, and one
    /// may be left analysing the last while the others have nothing more to do: short sections at the end leave it
    /// less. (Each section handed between threads costs the same: only the last few are short, or all of a file no
    /// longer than the taper, which is read in a few milliseconds either way.)
    func nominalBytes(from start: Int, fileSize: Int) -> Int {
        fileSize - start <= taperBytes ? max(1, sectionBytes / 4) : sectionBytes
    }

    /// What ends the section that starts at `start` (a line's start) in the file `fd` of `fileSize` bytes: the first
    /// line starting at or after its nominal end, and before `maxOvershoot` past it, that is a launch (`isLaunch`).
    ///
    /// The section is read into `memory` as far as it goes (and a little past its end); what does not fit is looked
    /// through in the file. `memory.text` holds the whole section when `memory.holds(upTo:)` its end.
    func sectionEnd(from start: Int, fileSize: Int, fileDescriptor fd: Int32, memory: SectionMemory,
                    recognizer: LineHeaderRecognizer) throws -> SectionEnd {
        let nominal = nominalBytes(from: start, fileSize: fileSize)
        // Offsets from the section's start: the memory's. (No sum is let overflow: a test may set `maxOvershoot` to any size.)
        let limit = nominal > Int.max - maxOvershoot ? Int.max : nominal + maxOvershoot
        let fileLimit = start > Int.max - limit ? Int.max : start + limit
        memory.begin(at: start)
        var readBytes = chunkBytes
        var atEnd = try memory.readMore(nominal + readBytes, of: fd) == 0 && !memory.isFull
        // Reads the next bytes into memory; false once it is full or the file has ended (`atEnd`).
        func readMore() throws -> Bool {
            guard !memory.isFull, !atEnd else { return false }
            if try memory.readMore(readBytes, of: fd) == 0, !memory.isFull { atEnd = true }
            readBytes = min(2 * readBytes, 64 << 10)
            return true
        }
        // The first line starting at or after the nominal end: after the first line break ending at or after the byte
        // before that end (`NewlineCounter.next`).
        var lineStart = 0
        var searchFrom = nominal - 1
        findingLineStart: while true {
            let text = memory.text
            if searchFrom < text.count {
                switch LineBytes.firstLineBreak(in: text, from: searchFrom, atEnd: atEnd) {
                case .breakEnding(let index)?:
                    lineStart = index + 1
                    break findingLineStart
                case .undecided(let index)?: searchFrom = index
                case nil: searchFrom = text.count
                }
            }
            guard try readMore() else {
                if atEnd { return .noLaunch(heldToTheEnd: true) }
                // No line starts between the nominal end and the memory's end: the line break is looked for in the file.
                var finder = NewlineCounter(fileDescriptor: fd, chunkBytes: chunkBytes)
                defer { finder.deallocate() }
                finder.seek(to: start + searchFrom)
                guard let lineBreak = try finder.next() else { return .noLaunch(heldToTheEnd: false) }
                return try launchInFile(from: lineBreak + 1, before: fileLimit, fd: fd, recognizer: recognizer)
            }
        }
        // The launch lines from there, in memory while it holds them. Lines are found in order: one starting at `limit`
        // or later means none before it is a launch.
        var scanFrom = lineStart
        while true {
            let text = memory.text
            if let launch = LaunchLineScanner.firstLine(in: text.baseAddress!.assumingMemoryBound(to: UInt8.self), count: text.count,
                                                        scanningFrom: &scanFrom, atEnd: atEnd, startsLine: true,
                                                        maxLineBytes: maxLineBytes,
                                                        where: { SectionEndFinder.isLaunch($0, recognizer: recognizer, keptBy: processFilter) }) {
                return launch < limit ? .launch(at: start + launch) : .noLaunch(heldToTheEnd: false)
            }
            if atEnd { return .noLaunch(heldToTheEnd: true) }
            if LaunchLineScanner.decidesEveryLine(before: limit, readTo: text.count, maxLineBytes: maxLineBytes) || StopRequest.isRequested {
                return .noLaunch(heldToTheEnd: false)
            }
            guard try readMore() else {
                // The memory is full: the search goes on in the file, from the first line not all in memory.
                let resume = LineBytes.lastLineBreak(in: text, notBefore: lineStart).map { $0 + 1 } ?? lineStart
                return try launchInFile(from: start + resume, before: fileLimit, fd: fd, recognizer: recognizer)
            }
        }
    }

    /// The first launch line from `lineStart` (a line's start) in the file, starting before `limit`.
    private func launchInFile(from lineStart: Int, before limit: Int, fd: Int32, recognizer: LineHeaderRecognizer) throws -> SectionEnd {
        let scanner = LaunchLineScanner(fileDescriptor: fd, maxLineBytes: maxLineBytes, firstReadBytes: chunkBytes)
        let launch = try scanner.firstLine(from: lineStart, before: limit) { line in
            SectionEndFinder.isLaunch(line, recognizer: recognizer, keptBy: processFilter)
        }
        return launch.map { .launch(at: $0) } ?? .noLaunch(heldToTheEnd: false)
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
