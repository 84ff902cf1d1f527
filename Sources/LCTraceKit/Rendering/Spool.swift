/// Bytes put aside until the end of the run: in an unlinked temporary file (in `$TMPDIR`, else `/tmp`), or in
/// memory when none can be made or written. Nothing put aside is lost when the file fails: what the file holds so
/// far is read back into memory, and the rest stays there. If it cannot even be read back, `drain` says so on the
/// output, which then fails the run.
final class Spool {
    private var fd: Int32?
    /// Bytes the file holds, all written in full.
    private var fileBytes = 0
    /// Bytes waiting to be written to the file in one call, or everything when there is no file.
    private var pending: [UInt8] = []
    private static let writeBytes = 1 << 16
    /// Why the file was given up, if it was (and then `pending` holds everything).
    private var fileFailure: String?

    init() {
        fd = Spool.unlinkedTemporaryFile()
    }

    /// Puts bytes aside in `fileDescriptor` (tests give one that fails).
    init(fileDescriptor: Int32) {
        fd = fileDescriptor
    }

    private static func unlinkedTemporaryFile() -> Int32? {
        let directory = Environment.value(of: "TMPDIR").flatMap { $0.isEmpty ? nil : $0 } ?? "/tmp"
        return TemporaryFile.openUnlinked(in: directory, prefix: "lctrace-findings-")
    }

    func append(_ bytes: UnsafeRawBufferPointer) {
        pending.append(contentsOf: bytes)
        if fd != nil, pending.count >= Spool.writeBytes { writePending() }
    }

    func append(_ text: StaticString) {
        text.withUTF8Buffer { append(UnsafeRawBufferPointer($0)) }
    }

    /// Moves the waiting bytes to the file; when the file fails, takes back what it holds and keeps all in memory.
    private func writePending() {
        guard let fd, !pending.isEmpty else { return }
        var written = 0
        do {
            try pending.withUnsafeBytes { bytes in
                try Result { () throws(SystemError) in try FileDescriptorIO.writeAll(fd, bytes, written: &written) }.get()
            }
            fileBytes += written
            pending.removeAll(keepingCapacity: true)
        } catch {
            fileBytes += written
            pending.removeFirst(written)  // those are in the file now
            giveUpFile("\(error)")
        }
    }

    /// Reads what the file holds back into memory, ahead of the bytes still waiting, and writes no more to it.
    private func giveUpFile(_ reason: String) {
        guard let fd else { return }
        var held = [UInt8](repeating: 0, count: fileBytes)
        let read = try? held.withUnsafeMutableBytes { bytes in
            try Result { () throws(SystemError) in try FileDescriptorIO.readFully(fd, into: bytes, atOffset: 0) }.get()
        }
        FileDescriptorIO.close(fd)
        self.fd = nil
        if read == fileBytes {
            pending = held + pending
        } else {
            fileFailure = reason
        }
        fileBytes = 0
    }

    /// Writes everything put aside to `output`, in order.
    func drain(into output: Output) {
        writePending()
        guard fd != nil else {
            if let fileFailure { output.fail("the findings put aside in a temporary file could not be read back (\(fileFailure))") }
            output.write(bytes: pending)
            return
        }
        var chunk = [UInt8](repeating: 0, count: Spool.writeBytes)
        var offset = 0
        while offset < fileBytes {
            let wanted = min(chunk.count, fileBytes - offset)
            let count: Int
            do {
                count = try chunk.withUnsafeMutableBytes { bytes in
                    try Result { () throws(SystemError) in
                        try FileDescriptorIO.readFully(fd!, into: UnsafeMutableRawBufferPointer(rebasing: bytes[..<wanted]), atOffset: offset)
                    }.get()
                }
            } catch {
                output.fail("the findings put aside in a temporary file could not be read back (\(error))")
                return
            }
            chunk.withUnsafeBytes { output.write(UnsafeRawBufferPointer(rebasing: $0[..<count])) }
            guard count == wanted else {
                output.fail("the findings put aside in a temporary file could not be read back (it ended early)")
                return
            }
            offset += count
        }
    }

    deinit { if let fd { FileDescriptorIO.close(fd) } }
}
