/// Where a reporter writes: a buffered file descriptor (standard output, a report file) or memory (tests). Written
/// by one thread at a time.
public final class Output: TextOutputStream {
    private let fd: Int32?
    /// The bytes not yet written or handed on (a constant, so that a write does not retain it: `handOn()` trades its
    /// contents with an empty buffer's).
    private let buffer = ByteBuffer(capacity: 1 << 17)
    /// Writes full buffers on a thread of its own (`BackgroundWriter`), once a report has filled one.
    private var writer: BackgroundWriter?
    /// Whether full buffers go to a thread of their own, a megabyte at a time, rather than being written at 64 KiB
    /// by the thread that fills them: for a report of a run over files, whose reader wants it whole and soon. Off
    /// by default: output read as it comes (a live run's, `lctrace lines` in a pipe) is written in the smaller
    /// pieces, and a terminal is never written to in the background, so that the report's lines and standard
    /// error's messages appear in the order they happen. Set before the first write.
    public var writesInBackground: Bool {
        get { backgroundAllowed }
        set { backgroundAllowed = newValue && fd.map { !FileDescriptorIO.isTerminal($0) } ?? false }
    }
    private var backgroundAllowed = false
    /// Everything written, when writing to memory.
    public private(set) var text = ""
    /// Why the report could not be written whole (a failed write to the descriptor, or a part of the report lost on
    /// the way), once that happened; nothing more is written to the descriptor after a failed write.
    public private(set) var failure: String?
    private var writeFailed = false

    /// Marks the report as not written whole, for `reason` (the first reason is kept).
    func fail(_ reason: String) {
        if failure == nil { failure = reason }
    }

    /// The new file this output writes, put in place of the old one by `commit()`.
    private let replacement: ReplacementFile?

    /// Buffered writes to a file descriptor, flushed at 64 KiB (or handed on at 1 MiB, `writesInBackground`) and on
    /// `flush()`.
    public init(fileDescriptor: Int32) {
        fd = fileDescriptor
        replacement = nil
    }

    /// Buffered writes to a new file that takes the place of `file`'s old one at `commit()`.
    init(replacement file: ReplacementFile) {
        fd = file.fileDescriptor
        replacement = file
    }

    /// Flushes; then, for an output that replaces a file, puts the new file in its place when all of it was written,
    /// and removes it otherwise (the old file stays as it was).
    public func commit() {
        flush()
        guard let replacement else { return }
        if failure != nil { replacement.discard(); return }
        do {
            try replacement.commit()
        } catch {
            fail("cannot put the report in place of \(replacement.path): \(error)")
        }
    }

    /// Collects everything in `text`.
    public init() {
        fd = nil
        replacement = nil
    }

    public func write(_ string: String) {
        guard fd != nil else { text += string; return }
        buffer.append(string)
        flushIfFull()
    }

    public func write(bytes: [UInt8]) {
        bytes.withUnsafeBytes { write($0) }
    }

    func write(_ bytes: UnsafeRawBufferPointer) {
        guard fd != nil else { text += String(decoding: bytes, as: UTF8.self); return }
        buffer.append(bytes)
        flushIfFull()
    }

    /// Writes at most `limit` bytes straight into the buffer (see `ByteBuffer.write(atMost:_:)`).
    func write(atMost limit: Int, _ body: (UnsafeMutableRawPointer) -> Int) {
        guard fd != nil else {
            let bytes = ByteBuffer(capacity: limit)
            bytes.write(atMost: limit, body)
            text += String(decoding: bytes.bytes, as: UTF8.self)
            return
        }
        buffer.write(atMost: limit, body)
        flushIfFull()
    }

    /// Written at 64 KiB, or handed to the background writer at 1 MiB: each hand-on wakes its thread, and at 64 KiB
    /// the wake-ups cost more than the writes they took away on a 100 MB report.
    private func flushIfFull() {
        if backgroundAllowed {
            if buffer.count >= 1 << 20 { handOn() }
        } else if buffer.count >= 1 << 16 {
            flush()
        }
    }

    /// Hands the full buffer to the background writer (started by the first one) and goes on in an empty one.
    private func handOn() {
        guard let fd, !writeFailed else { buffer.removeAll(); return }
        let writer = self.writer ?? BackgroundWriter(fileDescriptor: fd)
        self.writer = writer
        writer.write(takingContentsOf: buffer)
    }

    /// Writes everything written so far to the descriptor, and waits until it is written.
    public func flush() {
        guard let fd else { return }
        if let writer {
            if !buffer.isEmpty { handOn() }
            if let error = writer.finishWriting(), !writeFailed { noteFailedWrite(error) }
            return
        }
        guard !buffer.isEmpty else { return }
        defer { buffer.removeAll() }
        guard !writeFailed else { return }
        do {
            try FileDescriptorIO.writeAll(fd, buffer.bytes)
        } catch {
            noteFailedWrite(error)
        }
    }

    private func noteFailedWrite(_ error: SystemError) {
        writeFailed = true
        fail("cannot write to the output: " + error.description)
    }

    deinit {
        flush()
        writer?.end()
    }
}
