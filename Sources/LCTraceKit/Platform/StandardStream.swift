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

    /// Whether the stream is a terminal.
    public var isTerminal: Bool { isatty(fileDescriptor) == 1 }

    /// Writes `text` at once, unbuffered (standard error's messages and progress line); a failure is ignored, as there
    /// is nowhere left to report it.
    public func write(_ text: String) {
        var text = text
        text.withUTF8 { try? FileDescriptorIO.writeAll(fileDescriptor, UnsafeRawBufferPointer($0)) }
    }
}
