#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Standard input, output and error.
public enum StandardStream: Sendable {
    case input, output, error

    public var fileDescriptor: Int32 {
        switch self {
        case .input: STDIN_FILENO
        case .output: STDOUT_FILENO
        case .error: STDERR_FILENO
        }
    }

    /// Opens `/dev/null` on each of descriptors 0, 1 and 2 that is closed, as a process started with one closed
    /// needs before it opens any file: the first file it opened would otherwise take that number, and what it then
    /// wrote to standard output or error would land in that file.
    /// The streams stand-ins were opened for; `wasClosed` tells them.
    public static func openClosedStandardDescriptors() {
        for stream in [StandardStream.input, .output, .error] where FileStatus(fileDescriptor: stream.fileDescriptor) == nil {
            guard SystemError.last.code == EBADF else { continue }
            // The lowest free descriptor: this one, since those below it are open by now.
            let fd = open("/dev/null", stream == .input ? O_RDONLY : O_WRONLY)
            if fd >= 0, fd != stream.fileDescriptor { _ = dup2(fd, stream.fileDescriptor); _ = close(fd) }
            _ = closedAtStart.withLock { $0.insert(stream) }
        }
    }

    /// Whether the stream was closed when the process started (and `/dev/null` now stands in for it): a report meant
    /// for a closed standard output is an error, not a success that went nowhere.
    public var wasClosed: Bool { StandardStream.closedAtStart.withLock { $0.contains(self) } }

    private static let closedAtStart = Lock<Set<StandardStream>>([])

    /// Whether the stream is a terminal.
    public var isTerminal: Bool { isatty(fileDescriptor) == 1 }

    /// Writes `text` at once, unbuffered (standard error's messages and progress line); a failure is ignored, as there
    /// is nowhere left to report it.
    public func write(_ text: String) {
        var text = text
        text.withUTF8 { try? FileDescriptorIO.writeAll(fileDescriptor, UnsafeRawBufferPointer($0)) }
    }
}
