/// Where the sections of one file end: at the first `main()` line at or after each section's nominal end, `sectionBytes`
/// after its start (a quarter of that over the file's last `taperBytes`).
///
/// The worker that analyses a section finds its end (`sectionEnd`): it reads the section into its memory, and past the
/// nominal end a little at a time until a `main()` line, which starts the next section. The bytes it looks through are
/// its own section's, read once; a planner of its own read the bytes past each nominal end a second time, a third of a
/// whole-device log, whose launches are far apart. They are not read line by line: `LaunchLineScanner` looks only at the
/// lines with a `)` where `main()` would end.
///
/// With `--process`/`--pid`, a line whose header names no process goes with the line before it, and a launch of a
/// process left out starts no session: a section starts only at a `main()` line of a process kept, named in its own
/// header, so that its reader decides it, and everything after it, as a reader of the whole file would.
struct LaunchBoundaryPlanner {
    let sectionBytes: Int
    let maxLineBytes: Int
    var processFilter: ProcessFilter? = nil
    /// How far past a section's nominal end to look for a `main()` line before giving up on cutting.
    var maxOvershoot: Int { max(16 * sectionBytes, 64 << 20) }
    /// The bytes first read past a nominal end (and the size of the reads that find it): a launch is usually a few
    /// kilobytes away. Later reads of one search double, up to 64 KiB into memory (whatever is read past the launch is
    /// the next section's, read again by its worker) and 256 KiB from the file.
    var chunkBytes = 16 << 10
    /// The end of the file where sections are shorter (`nominalBytes`); 0 for none.
    var taperBytes = 0

    /// The nominal length of the section from `start`, in a file of `fileSize` bytes: `sectionBytes`, and a quarter of
    /// it once the rest of the file is within `taperBytes`. The workers take the last sections as they come, and one
    /// may be left analysing the last while the others have nothing more to do: short sections at the end leave it
    /// less. (Each section handed between threads costs the same: only the last few are short, or all of a file no
    /// longer than the taper, which is read in a few milliseconds either way.)
    func nominalBytes(from start: Int, fileSize: Int) -> Int {
        fileSize - start <= taperBytes ? max(1, sectionBytes / 4) : sectionBytes
    }

    /// The end of the section that starts at `start` (a line's start) in the file `fd` of `fileSize` bytes: the offset of
    /// the first line at or after its nominal end that is a launch (`isLaunch`). Nil when none comes within
    /// `maxOvershoot` of the nominal end, when the file ends first, or after SIGINT or SIGTERM: the section is then the
    /// rest of the file.
    ///
    /// The section is read into `memory` as far as it goes (and a little past its end); what does not fit is looked
    /// through in the file. `memory.text` holds the whole section when `memory.holds(through:)` its end.
    func sectionEnd(from start: Int, fileSize: Int, fileDescriptor fd: Int32, memory: SectionMemory,
                    recognizer: LineHeaderRecognizer) throws -> Int? {
        let nominal = nominalBytes(from: start, fileSize: fileSize)
        memory.begin(at: start)
        var readBytes = chunkBytes
        var atEnd = try memory.readMore(nominal + readBytes, of: fd) == 0 && !memory.isFull
        // Reads the next bytes into memory; false once it is full. `atEnd` once the file ends.
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
                // The file ended without a line break, or one line fills the memory: looked for in the file.
                if atEnd { return nil }
                var finder = NewlineCounter(fileDescriptor: fd, chunkBytes: chunkBytes)
                defer { finder.deallocate() }
                finder.seek(to: start + searchFrom)
                guard let lineBreak = try finder.next() else { return nil }
                return try scanFile(from: lineBreak + 1, limit: start + nominal + maxOvershoot, fd: fd, recognizer: recognizer)
            }
        }
        // The launch lines from there, in memory while it holds them.
        let limit = nominal + maxOvershoot
        var scanFrom = lineStart
        while true {
            let text = memory.text
            if let launch = LaunchLineScanner.firstLine(in: text.baseAddress!.assumingMemoryBound(to: UInt8.self), count: text.count,
                                                        scanningFrom: &scanFrom, atEnd: atEnd, startsLine: true,
                                                        maxLineBytes: maxLineBytes,
                                                        where: { LaunchBoundaryPlanner.isLaunch($0, recognizer: recognizer, keptBy: processFilter) }) {
                return start + launch
            }
            if atEnd || text.count >= limit || StopRequest.isRequested { return nil }
            guard try readMore() else {
                // The memory is full: the search goes on in the file, from the first line not all in memory.
                let resume = LineBytes.lastLineBreak(in: text, notBefore: lineStart).map { $0 + 1 } ?? lineStart
                return try scanFile(from: start + resume, limit: start + limit, fd: fd, recognizer: recognizer)
            }
        }
    }

    /// The first launch line from `lineStart` (a line's start) in the file, before `limit`.
    private func scanFile(from lineStart: Int, limit: Int, fd: Int32, recognizer: LineHeaderRecognizer) throws -> Int? {
        let scanner = LaunchLineScanner(fileDescriptor: fd, maxLineBytes: maxLineBytes, firstReadBytes: chunkBytes)
        return try scanner.firstLine(from: lineStart, before: limit) { line in
            LaunchBoundaryPlanner.isLaunch(line, recognizer: recognizer, keptBy: processFilter)
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
