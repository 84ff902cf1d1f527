/// Writes an output's full buffers to its descriptor on a thread of its own, in the order they are handed in, so that
/// the thread that fills them goes on with the report while the descriptor takes the bytes (a file in memory takes
/// about a second a gigabyte, a pipe as long as its reader). At most `depth` buffers wait to be written; the thread
/// that hands in one more waits until one is. After a failed write nothing more is written, as `Output` does.
final class BackgroundWriter: @unchecked Sendable {
    private struct State {
        /// Buffers handed in and not yet written, oldest first.
        var waiting: [ByteBuffer] = []
        /// Written buffers, emptied, for the next ones to be filled.
        var emptied: [ByteBuffer] = []
        /// Whether the thread is writing a buffer taken from `waiting`.
        var writing = false
        /// The first write that failed.
        var failure: SystemError?
        /// Set by `end()`: the thread ends once `waiting` is empty.
        var ending = false
    }

    static let depth = 4
    private let fd: Int32
    private let state = Lock(State())

    /// Starts the thread that writes to `fd`.
    init(fileDescriptor: Int32) {
        fd = fileDescriptor
        // The thread holds the writer until `end()`.
        DetachedThread.start { self.run() }
    }

    /// Takes the bytes of `buffer` to be written, leaving it empty (with the memory of a buffer already written, or
    /// new memory of its capacity).
    func write(takingContentsOf buffer: ByteBuffer) {
        let full = state.withLock(when: { $0.waiting.count < BackgroundWriter.depth }) { state in
            state.emptied.popLast()
        } ?? ByteBuffer(capacity: buffer.capacity)
        full.exchangeContents(with: buffer)
        state.withLock { $0.waiting.append(full) }
    }

    /// Waits until every buffer handed in is written; returns the first write that failed.
    func finishWriting() -> SystemError? {
        state.withLock(when: { $0.waiting.isEmpty && !$0.writing }) { $0.failure }
    }

    /// Lets the thread end once every buffer handed in is written.
    func end() {
        state.withLock { $0.ending = true }
    }

    private func run() {
        var failed = false
        while let next = state.withLock(when: { !$0.waiting.isEmpty || $0.ending }, { state -> ByteBuffer? in
            guard !state.waiting.isEmpty else { return nil }
            state.writing = true
            return state.waiting.removeFirst()
        }) {
            var failure: SystemError?
            if !failed {
                do {
                    try FileDescriptorIO.writeAll(fd, next.bytes)
                } catch {
                    failure = error
                    failed = true
                }
            }
            next.removeAll()
            state.withLock { state in
                state.writing = false
                if state.failure == nil { state.failure = failure }
                state.emptied.append(next)
            }
        }
    }
}
