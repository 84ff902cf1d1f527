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
                // `main()` ending at this `)`.
                let markerStart = close + 1 - MessageParser.mainMarker.utf8CodeUnitCount
                guard markerStart >= 0,
                      RawBytes.equal(buffer + markerStart, MessageParser.mainMarker.utf8Start, count: MessageParser.mainMarker.utf8CodeUnitCount)
                else { continue }
                var end = close + 1
                while end < count, LineBytes.isSpace(buffer[end]) { end += 1 }
                if end == count, !eof {
                    scanFrom = close  // looked at again once more is read
                    break
                }
                guard end == count || isLineBreak(buffer[end]) else { continue }
                guard let lineStart = lastLineBreak(before: markerStart).map({ $0 + 1 }) ?? (startsLine ? 0 : nil),
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
