/// Finds the section boundaries of one file: the first `main()` line at or after every `sectionBytes`.
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
            var start = 0
            while true {
                // The first line starting at or after the nominal end: the one after the first line break ending at
                // or after the byte before that end.
                finder.seek(to: start + sectionBytes - 1)
                guard let lineBreak = try finder.next(),
                      let launch = try scanner.firstLine(from: lineBreak + 1, before: start + sectionBytes + maxOvershoot, where: { line in
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

/// Finds the first line of a file, from a line's start on, that passes a test (`LaunchBoundaryPlanner.isLaunch`), looking
/// only at the lines that end with `main()` and spaces or tabs: at each `)`, found by `memchr`, the bytes around it are
/// checked, and only a line that ends there is cut out and tested. Lines are as `LineReader` hands them out: the bytes
/// between line breaks (`\n`, `\r\n`, a lone `\r`), none longer than `maxLineBytes` (a longer line, which the reader
/// cuts short, is never the one found: a launch missed only makes a section longer).
final class LaunchLineScanner {
    private let fd: Int32
    private let maxLineBytes: Int
    private let firstReadBytes: Int
    /// Reads double from `firstReadBytes` up to this while a search goes on: a launch is usually a few kilobytes away
    /// in an app's log, and hundreds in a whole-device log.
    private let maxReadBytes = 256 << 10
    private let buffer: UnsafeMutablePointer<UInt8>
    private let capacity: Int
    private static let marker: StaticString = "main("

    init(fileDescriptor fd: Int32, maxLineBytes: Int, firstReadBytes: Int) {
        self.fd = fd
        self.maxLineBytes = max(1, maxLineBytes)
        self.firstReadBytes = max(16, min(firstReadBytes, maxReadBytes))
        // A read after a kept partial line, which is at most a line of `maxLineBytes` and its trailing spaces.
        capacity = maxReadBytes + self.maxLineBytes + 64
        buffer = .allocate(capacity: capacity)
    }

    deinit { buffer.deallocate() }

    /// The offset of the first line starting at or after `start` (a line's start) that passes `test`; nil at the end of
    /// the file, once the lines searched reach `limit`, or after SIGINT or SIGTERM.
    func firstLine(from start: Int, before limit: Int, where test: (UnsafeRawBufferPointer) -> Bool) throws -> Int? {
        var base = start  // the file offset of buffer[0]
        var startsLine = true  // whether buffer[0] starts a line: not inside an over-long one
        var count = 0
        var scanFrom = 0  // where the look for `)` goes on
        var readBytes = firstReadBytes
        var eof = false
        while true {
            // Each `)` in what was read, but one whose line is not all read yet.
            while scanFrom < count, let found = RawBytes.firstOffset(of: 0x29, in: buffer + scanFrom, count: count - scanFrom) {
                let close = scanFrom + found
                scanFrom = close + 1
                let markerLength = LaunchLineScanner.marker.utf8CodeUnitCount
                guard close >= markerLength,
                      RawBytes.equal(buffer + close - markerLength, LaunchLineScanner.marker.utf8Start, count: markerLength)
                else { continue }
                var end = close + 1
                while end < count, LineBytes.isSpace(buffer[end]) { end += 1 }
                if end == count, !eof {
                    scanFrom = close  // looked at again once more is read
                    break
                }
                guard end == count || isLineBreak(buffer[end]) else { continue }
                guard let lineStart = lastLineBreak(before: close - markerLength).map({ $0 + 1 }) ?? (startsLine ? 0 : nil),
                      end - lineStart <= maxLineBytes
                else { continue }
                if test(UnsafeRawBufferPointer(start: buffer + lineStart, count: end - lineStart)) { return base + lineStart }
            }
            if eof || base + count >= limit || StopRequest.isRequested { return nil }
            // Keep only the last line, not ended yet; a line longer than a reader hands out is let go.
            var kept = 0
            if let lineBreak = lastLineBreak(before: count) {
                kept = lineBreak + 1
                startsLine = true
            } else if count > maxLineBytes {
                kept = count
                startsLine = false
            }
            if kept > 0 {
                let pending = count - kept
                if pending > 0 { RawBytes.move(pending, from: buffer + kept, to: buffer) }
                base += kept
                count = pending
                scanFrom = max(0, scanFrom - kept)
            }
            let read: Int
            do {
                read = try FileDescriptorIO.read(fd, into: buffer + count, count: min(readBytes, capacity - count), atOffset: base + count)
            } catch where error.isInterrupted {
                continue
            } catch {
                throw InputError.readFailed(reason: error.description)
            }
            if read == 0 { eof = true }
            count += read
            readBytes = min(2 * readBytes, maxReadBytes)
        }
    }

    @inline(__always)
    private func isLineBreak(_ byte: UInt8) -> Bool { byte == 0x0A || byte == 0x0D }

    /// The offset of the last line break byte before `end` in the buffer, or nil.
    private func lastLineBreak(before end: Int) -> Int? {
        var index = end - 1
        while index >= 0 {
            if isLineBreak(buffer[index]) { return index }
            index -= 1
        }
        return nil
    }
}
