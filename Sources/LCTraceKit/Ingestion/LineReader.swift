/// Reads a file descriptor in large chunks and hands out its lines as byte buffers, without ever holding the
/// whole input: memory is one chunk plus the longest kept line. It also hands out the lines of bytes already in
/// memory (a section of a file a worker read), where they are. Lines end at `\n`, `\r\n` or a lone `\r` (old Mac
/// OS files); the last line may lack its line break. A line longer than `maxLineBytes` is cut to that length (the rest is
/// discarded up to the next newline) and reported as truncated. An input that starts with the gzip magic number is
/// inflated as it is read (`GzipInflater`); the lines are those of the inflated text. A followed file
/// (`FollowedFile`) that starts again ends the line it was in, and its lines are read from its new start.
public final class LineReader {
    public static let defaultMaxLineBytes = 64 * 1024
    public static let defaultChunkBytes = 1 << 20

    private let fd: Int32
    /// The file read instead of `fd`, as `tail -F` does, until SIGINT or SIGTERM.
    private let followed: FollowedFile?
    /// Set when the followed file starts again: the reader ends what it holds, then reads on from the file's start.
    private var restarting = false
    private let maxLineBytes: Int
    private let capacity: Int
    /// The most bytes one read asks for: `chunkBytes` (the buffer has room for more, for a kept partial line).
    private let readBytes: Int
    private let buffer: UnsafeMutablePointer<UInt8>
    /// Set when the input is bytes already in memory (`LineInput.memory`): `buffer` is theirs, `capacity` bytes all
    /// held from the start, and nothing is read.
    private let readsMemory: Bool
    private let ownsBuffer: Bool
    /// Where the next read starts and where reading stops, when only a byte range of a file is read (`pread`).
    private var nextOffset: Int?
    private let endOffset: Int?
    /// The input offset of `buffer[0]`.
    private var bufferOffset = 0
    /// Set when the input turned out to be gzip data (only a whole input is looked at, not a byte range).
    private var gzip: GzipInflater?
    private var lookedForGzip: Bool

    /// Reads `range` of the file when given (its start must be a line start), otherwise the descriptor to its end.
    public convenience init(fileDescriptor fd: Int32, maxLineBytes: Int = LineReader.defaultMaxLineBytes,
                            chunkBytes: Int = LineReader.defaultChunkBytes, range: Range<Int>? = nil) {
        self.init(.descriptor(fd, range: range), maxLineBytes: maxLineBytes, chunkBytes: chunkBytes)
    }

    init(_ input: LineInput, maxLineBytes: Int = LineReader.defaultMaxLineBytes, chunkBytes: Int = LineReader.defaultChunkBytes) {
        var range: Range<Int>?
        self.maxLineBytes = max(1, maxLineBytes)
        switch input {
        case .descriptor(let fd, let byteRange):
            self.fd = fd
            self.followed = nil
            range = byteRange
        case .followed(let file):
            self.fd = -1
            self.followed = file
        case .memory(let bytes, let offset):
            // The lines are handed out where they are: no byte is read or copied.
            self.fd = -1
            self.followed = nil
            self.nextOffset = nil
            self.endOffset = nil
            self.bufferOffset = offset
            self.lookedForGzip = true
            self.capacity = bytes.count
            self.readBytes = 0
            self.readsMemory = true
            self.bytesRead = bytes.count
            let base = bytes.baseAddress.map { UnsafeMutablePointer(mutating: $0.assumingMemoryBound(to: UInt8.self)) }
            self.ownsBuffer = base == nil
            self.buffer = base ?? .allocate(capacity: 1)
            return
        }
        self.nextOffset = range?.lowerBound
        self.endOffset = range?.upperBound
        self.bufferOffset = range?.lowerBound ?? 0
        self.lookedForGzip = range != nil
        // Room for a read of `chunkBytes` after a kept partial line and a last `\r` (maybe half of a `\r\n`).
        self.capacity = max(chunkBytes, self.maxLineBytes) + self.maxLineBytes + 1
        // Two at least: the look for gzip data reads until it has two bytes.
        self.readBytes = max(chunkBytes, 2)
        self.buffer = .allocate(capacity: capacity)
        self.readsMemory = false
        self.ownsBuffer = true
    }

    deinit { if ownsBuffer { buffer.deallocate() } }

    /// Total bytes read so far.
    public private(set) var bytesRead = 0
    /// Called after each read with the total so far (progress reporting).
    public var onRead: ((Int) -> Void)?
    /// The input offset of the line being handed out (inside the `forEachLine` body).
    ///
    /// Unchecked: written once a line, by the reader alone, before it calls the body, which may read it. No access to
    /// it spans another, so there is nothing for the run-time check to find, and the check cost about 60 instructions
    /// a line (the body is a closure the compiler cannot see through, so it could not leave the check out).
    @exclusivity(unchecked) public private(set) var lineOffset = 0

    /// Calls `body` with each line (without its terminator) and whether it was truncated.
    public func forEachLine(_ body: (UnsafeRawBufferPointer, _ truncated: Bool) throws -> Void) throws {
        while true {
            try readLines(body)
            guard restarting else { return }
            // The followed file starts again: so do its lines, from an empty buffer (and the look for gzip data).
            restarting = false
            bufferOffset = 0
            gzip = nil
            lookedForGzip = false
        }
    }

    /// Hands out the lines up to the end of the input, or of what the followed file held before it started again.
    @inline(__always)
    private func readLines(_ body: (UnsafeRawBufferPointer, _ truncated: Bool) throws -> Void) throws {
        var start = 0  // first unconsumed byte
        var end = readsMemory ? capacity : 0  // end of valid data
        var scanFrom = 0  // where the `\n` search resumes: there is none in start..<scanFrom
        // The first `\r` at or after `start`, or `end` when there is none: found once per read, so that a log
        // without any costs one search of each read, and the lines of one with `\r\n` one search each.
        var carriageReturn = readsMemory ? firstCarriageReturn(from: 0, to: end) : 0
        var discarding = false  // inside the unkept tail of an over-long line
        var eof = readsMemory

        while true {
            // On the common path (a line ended by `\n` alone) offsets within the buffer are added without overflow
            // checks (`LineOffsets`); the rarer paths keep them.
            var newline = end
            if let found = RawBytes.firstOffset(of: 0x0A, in: buffer + scanFrom, count: end &- scanFrom) {
                newline = scanFrom &+ found
            }
            let lineEnd: Int, next: Int
            if newline < carriageReturn {
                // A line ended by `\n` alone: the common case.
                lineEnd = newline
                next = newline &+ 1
                scanFrom = next
            } else if carriageReturn < end, carriageReturn + 1 < end || eof {
                // A line ended by `\r`: with the `\n` after it as one break (the `\n` found, if any, is that one
                // or a later one), or alone.
                lineEnd = carriageReturn
                next = carriageReturn + 1 < end && buffer[carriageReturn + 1] == 0x0A ? carriageReturn + 2 : carriageReturn + 1
                scanFrom = max(newline, next)
                carriageReturn = firstCarriageReturn(from: next, to: end)
            } else {
                // No line break in the buffer, or only a last `\r` whose next byte (maybe its `\n`) is not read yet.
                scanFrom = end
                let textEnd = carriageReturn
                if !discarding, textEnd - start > maxLineBytes {
                    try emit(from: start, to: start + maxLineBytes, truncated: true, body)
                    discarding = true
                }
                if discarding { start = textEnd }
                if eof {
                    if !discarding, start < end { try emit(from: start, to: end, truncated: false, body) }
                    return
                }
                // Make room: move the partial line to the front, then read more.
                if start > 0 {
                    let pending = end - start
                    if pending > 0 { RawBytes.move(pending, from: buffer + start, to: buffer) }
                    bufferOffset += start
                    end = pending
                    scanFrom -= start
                    carriageReturn -= start
                    start = 0
                }
                if StopRequest.isRequested { eof = true; continue }
                let count = try readText(into: buffer + end, max: Swift.min(capacity - end, readBytes))
                if count > 0 {
                    if carriageReturn == end { carriageReturn = firstCarriageReturn(from: end, to: end + count) }
                    end += count
                } else if restarting {
                    eof = true  // of the file as it was
                } else {
                    if let gzip, !gzip.isAtMemberEnd, !StopRequest.isRequested {
                        throw InputError.readFailed(reason: "gzip: the compressed data ends early (a truncated file?)")
                    }
                    eof = true
                }
                continue
            }
            // The same cut as when the line's end is not read yet: it must not depend on where a read ended.
            if !discarding {
                let truncated = lineEnd &- start > maxLineBytes
                try emit(from: start, to: truncated ? start &+ maxLineBytes : lineEnd, truncated: truncated, body)
            }
            discarding = false
            start = next
        }
    }

    /// The offset of the first `\r` in `from..<to`, or `to`.
    @inline(__always)
    private func firstCarriageReturn(from: Int, to: Int) -> Int {
        guard let found = RawBytes.firstOffset(of: 0x0D, in: buffer + from, count: to - from) else { return to }
        return from + found
    }

    @inline(__always)
    private func emit(from: Int, to: Int, truncated: Bool,
                      _ body: (UnsafeRawBufferPointer, Bool) throws -> Void) throws {
        // The line's offset in the input: no more than the bytes read so far, which `bufferOffset` counts checked.
        lineOffset = bufferOffset &+ from
        try body(UnsafeRawBufferPointer(start: buffer + from, count: to &- from), truncated)
    }

    /// Reads the next bytes of text: the input's bytes, or what they inflate to when the input is gzip data (which the
    /// first read finds out).
    private func readText(into pointer: UnsafeMutablePointer<UInt8>, max: Int) throws -> Int {
        if let gzip { return try gzip.inflate(into: pointer, count: max, readRaw: readSome) }
        guard !lookedForGzip else { return try readSome(into: pointer, max: max) }
        lookedForGzip = true
        // Two bytes tell: read until there are two, or the input ends.
        var count = try readSome(into: pointer, max: max)
        while count == 1, max > 1 {
            let more = try readSome(into: pointer + 1, max: max - 1)
            if more == 0 { break }
            count += more
        }
        let first = UnsafeRawBufferPointer(start: pointer, count: count)
        guard GzipInflater.isGzip(first) else { return count }
        let inflater = try GzipInflater(first: first)
        gzip = inflater
        return try inflater.inflate(into: pointer, count: max, readRaw: readSome)
    }

    private func readSome(into pointer: UnsafeMutablePointer<UInt8>, max: Int) throws -> Int {
        if let followed {
            if restarting { return 0 }  // the rest of what the reader holds is read first
            switch try followed.read(into: pointer, count: max) {
            case .bytes(let count):
                bytesRead += count
                onRead?(bytesRead)
                return count
            case .restarted:
                restarting = true
                return 0
            case .stopped:
                return 0
            }
        }
        while true {
            let count: Int
            do {
                if let offset = nextOffset, let endOffset {
                    count = try FileDescriptorIO.read(fd, into: pointer, count: Swift.min(max, endOffset - offset), atOffset: offset)
                    if count > 0 { nextOffset = offset + count }
                } else {
                    count = try FileDescriptorIO.read(fd, into: pointer, count: max)
                }
            } catch where error.isInterrupted {
                if StopRequest.isRequested { return 0 }  // SIGINT/SIGTERM: end of input
                continue
            } catch {
                throw InputError.readFailed(reason: error.description)
            }
            bytesRead += count
            onRead?(bytesRead)
            return count
        }
    }
}

/// Where a line reader's bytes come from.
enum LineInput {
    /// A descriptor read to its end, or a byte range of the file it is open on.
    case descriptor(Int32, range: Range<Int>?)
    /// A file followed as `tail -F` does.
    case followed(FollowedFile)
    /// Bytes already in memory, the input's bytes from `offset` on (its line offsets count from there): the whole
    /// input, ending at the end of the bytes. They must stay valid while the reader reads them. Nothing is read, so
    /// SIGINT and SIGTERM do not end them early (the caller decides whether to hand them in).
    case memory(UnsafeRawBufferPointer, offset: Int)
}

/// Counts and finds line breaks in a file, read in large chunks at explicit offsets: what a reader that needs only
/// line numbers (not the lines) uses to move through a file quickly. Its line breaks are the line reader's: `\n`,
/// `\r\n` (one break, at its `\n`) and a lone `\r`.
struct NewlineCounter {
    private let fd: Int32
    private let capacity: Int
    private let buffer: UnsafeMutablePointer<UInt8>
    /// The file offset of `buffer[0]`, and how many bytes from there are in the buffer.
    private var bufferOffset = 0
    private var bufferCount = 0
    /// The file offset of the next byte to look at.
    private(set) var position = 0

    init(fileDescriptor fd: Int32, chunkBytes: Int = LineReader.defaultChunkBytes) {
        self.fd = fd
        capacity = max(chunkBytes, 64)
        buffer = .allocate(capacity: capacity)
    }

    func deallocate() { buffer.deallocate() }

    /// Goes on from `offset`.
    mutating func seek(to offset: Int) { position = offset }

    /// The line breaks ending in `position..<target` (fewer at the end of the file); moves `position` to `target`.
    mutating func count(upTo target: Int) throws -> Int {
        var total = 0
        while position < target, try fill() {
            let from = position - bufferOffset
            let to = min(target - bufferOffset, bufferCount)
            let chunk = UnsafeRawBufferPointer(start: buffer + from, count: to - from)
            let breaks = NewlineCounter.newlinesAndCarriageReturn(in: chunk)
            total += breaks.newlines
            // A log with `\r` in it is rare: the count found whether the chunk holds one.
            if breaks.hasCarriageReturn {
                total += try NewlineCounter.loneCarriageReturns(in: chunk) { try !isLoneCarriageReturn(at: to - 1) }
            }
            position = bufferOffset + to
        }
        return total
    }

    /// The offset where the first line break ending at or after `position` ends (its `\n`, or a lone `\r`), which
    /// `position` moves past; nil at the end of the file.
    /// (`LineBytes.firstLineBreak` is the same rule over bytes held in memory.)
    mutating func next() throws -> Int? {
        while try fill() {
            let from = position - bufferOffset
            var newline = bufferCount
            if let found = RawBytes.firstOffset(of: 0x0A, in: buffer + from, count: bufferCount - from) {
                newline = from + found
            }
            // A `\r` before it ends a line when it is alone (if not, the `\n` after it is the one found, or the
            // first byte of the next chunk).
            var at = from
            while at < newline, let found = RawBytes.firstOffset(of: 0x0D, in: buffer + at, count: newline - at) {
                let index = at + found
                if try isLoneCarriageReturn(at: index) {
                    position = bufferOffset + index + 1
                    return bufferOffset + index
                }
                at = index + 1
            }
            if newline < bufferCount {
                position = bufferOffset + newline + 1
                return bufferOffset + newline
            }
            position = bufferOffset + bufferCount
        }
        return nil
    }

    /// Whether the `\r` at `buffer[index]` is a line break of its own, not the first half of a `\r\n`.
    private func isLoneCarriageReturn(at index: Int) throws -> Bool {
        if index + 1 < bufferCount { return buffer[index + 1] != 0x0A }
        // The next byte is past the chunk: look at the file.
        var byte: UInt8 = 0
        while true {
            do {
                let count = try FileDescriptorIO.read(fd, into: &byte, count: 1, atOffset: bufferOffset + index + 1)
                return count == 0 || byte != 0x0A
            } catch where error.isInterrupted {
                continue
            } catch {
                throw InputError.readFailed(reason: error.description)
            }
        }
    }

    /// Makes sure the byte at `position` is in the buffer; false at the end of the file.
    private mutating func fill() throws -> Bool {
        if position >= bufferOffset, position < bufferOffset + bufferCount { return true }
        while true {
            let count: Int
            do {
                count = try FileDescriptorIO.read(fd, into: buffer, count: capacity, atOffset: position)
            } catch where error.isInterrupted {
                continue
            } catch {
                throw InputError.readFailed(reason: error.description)
            }
            if count == 0 { return false }
            bufferOffset = position
            bufferCount = count
            return true
        }
    }

    /// The line breaks in `bytes` as the line reader finds them: `\n`, `\r\n` as one, and a lone `\r` (one at the
    /// very end counts: what follows it is not there).
    static func lineBreakCount(in bytes: UnsafeRawBufferPointer) -> Int {
        let breaks = newlinesAndCarriageReturn(in: bytes)
        guard breaks.hasCarriageReturn else { return breaks.newlines }
        return breaks.newlines + loneCarriageReturns(in: bytes) { false }
    }

    /// The `\r` bytes in `bytes` that end a line of their own, not followed by `\n`; `newlineFollows` says whether the
    /// byte after the last one is a `\n` (asked only when the last byte is a `\r`).
    static func loneCarriageReturns(in bytes: UnsafeRawBufferPointer, newlineFollows: () throws -> Bool) rethrows -> Int {
        guard let base = bytes.baseAddress else { return 0 }
        var total = 0
        var at = 0
        while at < bytes.count, let found = RawBytes.firstOffset(of: 0x0D, in: base + at, count: bytes.count - at) {
            let index = at + found
            let lone = index + 1 < bytes.count ? bytes[index + 1] != 0x0A : try !newlineFollows()
            if lone { total += 1 }
            at = index + 1
        }
        return total
    }

    /// The `\n` bytes in `bytes`, and whether any `\r` is there. The newlines are counted sixteen at a time: each
    /// lane of a vector counts those at its place, up to 255 blocks of sixteen bytes before the lanes are added up (a
    /// lane holds 255 at most). One `memchr` call a line, as this was counted before, took about twice the
    /// instructions on lines of 90 bytes, and a branch the processor could not foresee at every line's end. A `\r` is
    /// looked for in the same loop: every block's `\r` bytes OR-ed into one vector, looked at after the loop, and the
    /// bytes after the last whole block checked one by one. That takes about half of the loop's instructions and
    /// keeps the compiler from unrolling it (17 instructions for 32 bytes, against 15 for 64 without it), yet `check`
    /// with two jobs on 1 GiB took 1.3 to 2.6 % less time than with a `memchr` after the loop (four loops of 15 and
    /// 21 runs): that was a second pass over the section (2 MiB when a run keeps no events), probably no longer in
    /// each core's second-level cache.
    static func newlinesAndCarriageReturn(in bytes: UnsafeRawBufferPointer) -> (newlines: Int, hasCarriageReturn: Bool) {
        guard let base = bytes.baseAddress else { return (0, false) }
        let count = bytes.count
        let newline = SIMD16<UInt8>(repeating: 0x0A)
        let carriageReturn = SIMD16<UInt8>(repeating: 0x0D)
        let one = SIMD16<UInt8>(repeating: 1)
        var total = 0
        var offset = 0
        var returns = SIMD16<UInt8>()
        while count - offset >= 16 {
            let blocks = min((count - offset) / 16, 255)
            var lanes = SIMD16<UInt8>()
            for _ in 0..<blocks {
                let block = base.loadUnaligned(fromByteOffset: offset, as: SIMD16<UInt8>.self)
                lanes &+= one.replacing(with: 0, where: block .!= newline)
                returns |= one.replacing(with: 0, where: block .!= carriageReturn)
                offset += 16
            }
            total += Int(SIMD16<UInt16>(truncatingIfNeeded: lanes).wrappedSum())
        }
        var hasCarriageReturn = returns != SIMD16<UInt8>()
        while offset < count {
            let byte = base.load(fromByteOffset: offset, as: UInt8.self)
            if byte == 0x0A { total += 1 }
            if byte == 0x0D { hasCarriageReturn = true }
            offset += 1
        }
        return (total, hasCarriageReturn)
    }
}

/// Why an input could not be read.
public enum InputError: Error, Equatable, CustomStringConvertible {
    case cannotOpen(path: String, reason: String)
    case isDirectory(path: String)
    case readFailed(reason: String)
    /// So many lines in a row hit PCRE2's match limits that the input was given up (`EventReader.regexLimitBudget`).
    case matchLimit(lines: Int)

    public var description: String {
        switch self {
        case let .cannotOpen(path, reason): return "\(path): cannot open: \(reason)"
        case let .isDirectory(path): return "\(path): is a directory"
        case let .readFailed(reason): return "read failed: \(reason)"
        case let .matchLimit(lines):
            return "\(lines) lines in a row hit the regular expression match limit; the line pattern backtracks too much"
        }
    }
}

/// A named input: a file, or standard input.
public struct InputSource: Sendable {
    /// How the input is named in reports: the path as given, or `<stdin>`.
    public let name: String
    /// The file's path; nil for standard input.
    public let path: String?

    public static let standardInput = InputSource(name: "<stdin>", path: nil)
    public static func file(_ path: String) -> InputSource {
        path == "-" ? .standardInput : InputSource(name: path, path: path)
    }

    /// Opens the input for reading; the caller closes the descriptor.
    public func openDescriptor() throws(InputError) -> Int32 {
        guard let path else { return 0 }
        let fd: Int32
        do {
            fd = try FileDescriptorIO.openForReading(path)
        } catch {
            throw .cannotOpen(path: path, reason: error.description)
        }
        if FileStatus(fileDescriptor: fd)?.kind == .directory {
            FileDescriptorIO.close(fd)
            throw .isDirectory(path: path)
        }
        return fd
    }
}
