#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Opening, reading, writing and closing files by descriptor. Every call is one system call: a signal that
/// interrupts one shows as a `SystemError` that `isInterrupted`, and the caller decides whether to call again (a
/// reader ends at SIGINT or SIGTERM, see `StopRequest`). `writeAll` is the one loop.
public enum FileDescriptorIO {
    /// Opens `path` for reading.
    public static func openForReading(_ path: String) throws(SystemError) -> Int32 {
        let fd = open(path, O_RDONLY)
        guard fd >= 0 else { throw .last }
        return fd
    }

    /// Opens `path` for writing, made if it does not exist (permissions 0666 less the umask) and emptied if it does.
    public static func createForWriting(_ path: String) throws(SystemError) -> Int32 {
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o666)
        guard fd >= 0 else { throw .last }
        return fd
    }

    public static func close(_ fd: Int32) {
        #if canImport(Darwin)
        _ = Darwin.close(fd)
        #elseif canImport(Glibc)
        _ = Glibc.close(fd)
        #elseif canImport(Musl)
        _ = Musl.close(fd)
        #endif
    }

    /// Reads up to `count` bytes at the descriptor's position; 0 at the end of the input.
    @inline(__always)
    static func read(_ fd: Int32, into buffer: UnsafeMutableRawPointer, count: Int) throws(SystemError) -> Int {
        #if canImport(Darwin)
        let read = Darwin.read(fd, buffer, count)
        #elseif canImport(Glibc)
        let read = Glibc.read(fd, buffer, count)
        #elseif canImport(Musl)
        let read = Musl.read(fd, buffer, count)
        #endif
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

    /// Writes up to `count` bytes; returns how many it wrote.
    static func write(_ fd: Int32, from bytes: UnsafeRawPointer, count: Int) throws(SystemError) -> Int {
        #if canImport(Darwin)
        let written = Darwin.write(fd, bytes, count)
        #elseif canImport(Glibc)
        let written = Glibc.write(fd, bytes, count)
        #elseif canImport(Musl)
        let written = Musl.write(fd, bytes, count)
        #endif
        guard written >= 0 else { throw .last }
        return written
    }

    /// Writes all of `bytes`, calling again after a signal; throws the first other error.
    public static func writeAll(_ fd: Int32, _ bytes: UnsafeRawBufferPointer) throws(SystemError) {
        guard let base = bytes.baseAddress else { return }
        var offset = 0
        while offset < bytes.count {
            do {
                offset += try write(fd, from: base + offset, count: bytes.count - offset)
            } catch where error.isInterrupted {
                continue
            }
        }
    }

    /// Moves the descriptor's position back to the start of the file.
    static func rewind(_ fd: Int32) {
        _ = lseek(fd, 0, SEEK_SET)
    }
}
