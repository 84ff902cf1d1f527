#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// A failed system call's error number (`errno`), described as the C library describes it.
public struct SystemError: Error, Equatable, CustomStringConvertible {
    public let code: Int32

    public init(code: Int32) { self.code = code }

    /// The error of the system call that just failed.
    public static var last: SystemError { SystemError(code: errno) }

    /// A signal arrived while the call was blocked (EINTR).
    public var isInterrupted: Bool { code == EINTR }

    /// The path names nothing (ENOENT).
    public var isNoSuchFile: Bool { code == ENOENT }

    public var description: String { String(cString: strerror(code)) }
}
