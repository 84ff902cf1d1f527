#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// A file a report is written to (`--output`, `--reporter NAME=PATH`, `--write-baseline`, a job summary).
public struct OutputFileError: Error, CustomStringConvertible {
    public let path: String
    public let reason: String
    public var description: String { "cannot write \(path): \(reason)" }
}

extension Output {
    /// Buffered writes to standard output.
    public static func standardOutput() -> Output { Output(fileDescriptor: STDOUT_FILENO) }

    /// Buffered writes to the file at `path`: created, and emptied first unless `appending`. The descriptor stays
    /// open until the process ends.
    public convenience init(path: String, appending: Bool = false) throws(OutputFileError) {
        let flags = O_WRONLY | O_CREAT | O_CLOEXEC | (appending ? O_APPEND : O_TRUNC)
        let fd = open(path, flags, mode_t(0o644))
        guard fd >= 0 else { throw OutputFileError(path: path, reason: String(cString: strerror(errno))) }
        self.init(fileDescriptor: fd)
    }
}
