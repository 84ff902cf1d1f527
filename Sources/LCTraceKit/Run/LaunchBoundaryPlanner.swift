/// Finds the section boundaries of one file: the first `main()` line at or after each section's nominal end, `sectionBytes`
/// after its start (a quarter of that over the file's last `taperBytes`).
///
/// Only the bytes after each nominal end are read, up to a `main()` line: the rest of a section is read by the worker
/// that analyses it. They are not read line by line: `LaunchLineScanner` looks only at the lines with a `)` where
/// `main()` would end. Read line by line, they took the planner, a third thread beside two workers, about a tenth of
/// the CPU of a two-job run on a whole-device log, whose launches are far apart.
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
    /// The bytes first read after a nominal end (and the size of the reads that find it): a launch is usually a few
    /// kilobytes away. Later reads of one search double, up to 256 KiB.
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
            let scanner = LaunchLineScanner(fileDescriptor: fd, maxLineBytes: maxLineBytes, firstReadBytes: chunkBytes)
            let fileSize = taperBytes > 0 ? FileStatus(fileDescriptor: fd)?.regularFileSize ?? Int.max : Int.max
            var start = 0
            while true {
                // The first line starting at or after the nominal end: the one after the first line break ending at
                // or after the byte before that end.
                let nominalEnd = start + nominalBytes(from: start, fileSize: fileSize)
                finder.seek(to: nominalEnd - 1)
                guard let lineBreak = try finder.next(),
                      let launch = try scanner.firstLine(from: lineBreak + 1, before: nominalEnd + maxOvershoot, where: { line in
                          LaunchBoundaryPlanner.isLaunch(line, recognizer: recognizer, keptBy: processFilter)
                      })
                else { return .rest(from: start) }
                guard emit(start..<launch) else { return .end }
                start = launch
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
