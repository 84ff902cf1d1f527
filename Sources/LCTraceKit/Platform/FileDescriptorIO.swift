#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Opening, reading, writing and closing files by descriptor. Every call is one system call: a signal that
/// interrupts one shows as a `SystemError` that `isInterrupted`, and the caller decides whether to call again (a
/// reader ends at SIGINT or SIGTERM, see `StopRequest`). `writeAll` and `readFully` are the loops, for the callers
/// that want a whole buffer moved.
public enum FileDescriptorIO {
    /// Opens `path` for reading.
    public static func openForReading(_ path: String) throws(SystemError) -> Int32 {
        let fd = open(SystemPath.bytes(path), O_RDONLY)
        guard fd >= 0 else { throw .last }
        return fd
    }

    /// Opens `path` for writing, made if it does not exist (permissions 0666 less the umask) and emptied if it does.
    public static func createForWriting(_ path: String) throws(SystemError) -> Int32 {
        let fd = open(SystemPath.bytes(path), O_WRONLY | O_CREAT | O_TRUNC, 0o666)
        guard fd >= 0 else { throw .last }
        return fd
    }

    /// Opens `path` for writing at its end, made if it does not exist (permissions 0666 less the umask).
    public static func openForAppending(_ path: String) throws(SystemError) -> Int32 {
        let fd = open(SystemPath.bytes(path), O_WRONLY | O_CREAT | O_APPEND, 0o666)
        guard fd >= 0 else { throw .last }
        return fd
    }

    public static func close(_ fd: Int32) {
        _ = closeDescriptor(fd)
    }

    /// Reads up to `count` bytes at the descriptor's position; 0 at the end of the input.
    @inline(__always)
    static func read(_ fd: Int32, into buffer: UnsafeMutableRawPointer, count: Int) throws(SystemError) -> Int {
        let read = readDescriptor(fd, buffer, count)
        guard read >= 0 else { throw .last }
        return read
    }

    /// Reads up to `count` bytes at `offset` of the file, leaving the descriptor's position where it is; 0 at the
    /// end of the file.
    @inline(__always)
    static func read(_ fd: Int32, into buffer: UnsafeMutableRawPointer, count: Int, atOffset offset: Int) throws(SystemError) -> Int {
        let read = pread(fd, buffer, count, off_t(offset))
        guard read >= 0 else { throw .last }
        return read
    }

    /// Whether the descriptor is a terminal.
    static func isTerminal(_ fd: Int32) -> Bool { isatty(fd) == 1 }

    /// Writes up to `count` bytes; returns how many it wrote.
    static func write(_ fd: Int32, from bytes: UnsafeRawPointer, count: Int) throws(SystemError) -> Int {
        let written = writeDescriptor(fd, bytes, count)
        guard written >= 0 else { throw .last }
        return written
    }

    /// Writes all of `bytes`, calling again after a signal; throws the first other error (EIO when the descriptor
    /// takes nothing).
    public static func writeAll(_ fd: Int32, _ bytes: UnsafeRawBufferPointer) throws(SystemError) {
        var written = 0
        try writeAll(fd, bytes, written: &written)
    }

    /// `writeAll`, counting in `written` the bytes that reached the descriptor, also when it throws.
    static func writeAll(_ fd: Int32, _ bytes: UnsafeRawBufferPointer, written: inout Int) throws(SystemError) {
        guard let base = bytes.baseAddress else { return }
        var offset = 0
        defer { written = offset }
        while offset < bytes.count {
            let count: Int
            do {
                count = try write(fd, from: base + offset, count: bytes.count - offset)
            } catch where error.isInterrupted {
                continue
            }
            guard count > 0 else { throw SystemError(code: EIO) }
            offset += count
        }
    }

    /// Reads `buffer.count` bytes at `offset` of the file, calling again after a signal and after a short read;
    /// returns fewer only at the end of the file. Throws the first other error.
    static func readFully(_ fd: Int32, into buffer: UnsafeMutableRawBufferPointer, atOffset offset: Int) throws(SystemError) -> Int {
        guard let base = buffer.baseAddress else { return 0 }
        var total = 0
        while total < buffer.count {
            let count: Int
            do {
                count = try read(fd, into: base + total, count: buffer.count - total, atOffset: offset + total)
            } catch where error.isInterrupted {
                continue
            }
            guard count > 0 else { break }
            total += count
        }
        return total
    }

    /// The bytes of the file at `path`, read to its end, or to one byte past `limit` when it is longer (so that a
    /// caller can tell a file that is too large). Throws the error of the first call that fails, EINTR excepted.
    public static func readFile(atPath path: String, limit: Int = .max) throws(SystemError) -> [UInt8] {
        let fd = try openForReading(path)
        defer { close(fd) }
        var bytes: [UInt8] = []
        let chunk = UnsafeMutableRawBufferPointer.allocate(byteCount: 64 << 10, alignment: 1)
        defer { chunk.deallocate() }
        while bytes.count <= limit {
            let count: Int
            do {
                count = try read(fd, into: chunk.baseAddress!, count: chunk.count)
            } catch where error.isInterrupted {
                continue
            }
            if count == 0 { break }
            bytes.append(contentsOf: UnsafeRawBufferPointer(rebasing: chunk[..<count]))
        }
        if bytes.count - limit > 1 { bytes.removeLast(bytes.count - limit - 1) }
        return bytes
    }

    /// Moves the descriptor's position back to the start of the file.
    static func rewind(_ fd: Int32) {
        _ = lseek(fd, 0, SEEK_SET)
    }
}

// The C library's calls by names that FileDescriptorIO's own do not hide.
private func readDescriptor(_ fd: Int32, _ buffer: UnsafeMutableRawPointer, _ count: Int) -> Int { read(fd, buffer, count) }
private func writeDescriptor(_ fd: Int32, _ bytes: UnsafeRawPointer, _ count: Int) -> Int { write(fd, bytes, count) }
private func closeDescriptor(_ fd: Int32) -> Int32 { close(fd) }
