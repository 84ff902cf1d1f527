/// Finds the first line of a file, from a line's start on, that passes a test (`SectionEndFinder.isLaunch`), looking
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

    init(fileDescriptor fd: Int32, maxLineBytes: Int, firstReadBytes: Int) {
        self.fd = fd
        self.maxLineBytes = max(1, maxLineBytes)
        self.firstReadBytes = max(16, min(firstReadBytes, maxReadBytes))
        // A read after a kept partial line, which is at most a line of `maxLineBytes` and its trailing spaces.
        capacity = maxReadBytes + self.maxLineBytes + 64
        buffer = .allocate(capacity: capacity)
    }

    deinit { buffer.deallocate() }

    /// The offset of the first line starting at or after `start` (a line's start), and before `limit`, that passes
    /// `test`; nil when there is none (the bytes are read until every line starting before `limit` is decided, whatever
    /// the sizes of the reads), or after SIGINT or SIGTERM.
    func firstLine(from start: Int, before limit: Int, where test: (UnsafeRawBufferPointer) -> Bool) throws -> Int? {
        var base = start  // the file offset of buffer[0]
        var startsLine = true  // whether buffer[0] starts a line: not inside an over-long one
        var count = 0
        var scanFrom = 0  // where the look for `)` goes on
        var readBytes = firstReadBytes
        var eof = false
        while true {
            if let lineStart = LaunchLineScanner.firstLine(in: buffer, count: count, scanningFrom: &scanFrom, atEnd: eof,
                                                           startsLine: startsLine, maxLineBytes: maxLineBytes, where: test) {
                // Lines are found in order: one starting at `limit` or later means none before it passes.
                return base + lineStart < limit ? base + lineStart : nil
            }
            if eof || LaunchLineScanner.decidesEveryLine(before: limit, readTo: base + count, maxLineBytes: maxLineBytes)
                || StopRequest.isRequested { return nil }
            // Keep only the last line, not ended yet; a line longer than a reader hands out is let go.
            var kept = 0
            if let lineBreak = LineBytes.lastLineBreak(in: UnsafeRawBufferPointer(start: buffer, count: count), notBefore: 0) {
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

    /// Whether the bytes read up to the offset `end` decide every line that starts before `limit`: a line the search
    /// would take ends within `maxLineBytes` of its start.
    @inline(__always)
    static func decidesEveryLine(before limit: Int, readTo end: Int, maxLineBytes: Int) -> Bool {
        end - limit > maxLineBytes
    }

    /// The first line in `buffer[..<count]` that ends with `main()` at a `)` found from `scanFrom` on and passes `test`:
    /// the offset of its start. Nil when there is none yet; `scanFrom` is then where the look goes on once more bytes
    /// follow the `count` held (at a `)` whose line is not all read yet, or at `count`). `atEnd`: no bytes follow (the
    /// end of the file). `startsLine`: `buffer[0]` starts a line (else the bytes before the first line break are the end
    /// of a line whose start is not held). A line longer than `maxLineBytes` is never the one found.
    static func firstLine(in buffer: UnsafePointer<UInt8>, count: Int, scanningFrom scanFrom: inout Int, atEnd: Bool,
                          startsLine: Bool, maxLineBytes: Int, where test: (UnsafeRawBufferPointer) -> Bool) -> Int? {
        let marker = MessageParser.mainMarker
        while scanFrom < count, let found = RawBytes.firstOffset(of: 0x29, in: buffer + scanFrom, count: count - scanFrom) {
            let close = scanFrom + found
            scanFrom = close + 1
            // `main()` ending at this `)`.
            let markerStart = close + 1 - marker.utf8CodeUnitCount
            guard markerStart >= 0, RawBytes.equal(buffer + markerStart, marker.utf8Start, count: marker.utf8CodeUnitCount) else { continue }
            var end = close + 1
            while end < count, LineBytes.isSpace(buffer[end]) { end += 1 }
            if end == count, !atEnd {
                scanFrom = close  // looked at again once more is read
                return nil
            }
            guard end == count || LineBytes.isLineBreak(buffer[end]),
                  let lineStart = lineStart(before: markerStart, end: end, in: buffer, startsLine: startsLine, maxLineBytes: maxLineBytes),
                  end - lineStart <= maxLineBytes
            else { continue }
            if test(UnsafeRawBufferPointer(start: buffer + lineStart, count: end - lineStart)) { return lineStart }
        }
        return nil
    }

    /// The start of the line holding `buffer[before]` and ending at `end`: after the last line break before `before`, or
    /// the buffer's start when it starts a line and holds none. Nil when the line starts before the buffer does, or is
    /// longer than `maxLineBytes` (no line break is looked for further back than that).
    private static func lineStart(before: Int, end: Int, in buffer: UnsafePointer<UInt8>, startsLine: Bool, maxLineBytes: Int) -> Int? {
        let floor = max(0, end - maxLineBytes - 1)
        var index = before - 1
        while index >= floor {
            if LineBytes.isLineBreak(buffer[index]) { return index + 1 }
            index -= 1
        }
        return floor == 0 && startsLine ? 0 : nil
    }
}
