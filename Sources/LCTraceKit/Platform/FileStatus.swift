#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// What `stat` tells of a file: its kind, its size, and which file it is (device and inode).
public struct FileStatus: Equatable, Sendable {
    public enum Kind: Sendable {
        case regularFile, directory, other
    }

    public let kind: Kind
    /// The size in bytes (meaningful for a regular file).
    public let size: Int
    public let device: UInt64
    public let inode: UInt64

    /// The file `path` names (symbolic links followed); nil when it cannot be looked at.
    public init?(path: String) {
        var info = stat()
        guard stat(SystemPath.bytes(path), &info) == 0 else { return nil }
        self.init(info)
    }

    /// The file open on `fd`; nil when it cannot be looked at.
    public init?(fileDescriptor fd: Int32) {
        var info = stat()
        guard fstat(fd, &info) == 0 else { return nil }
        self.init(info)
    }

    private init(_ info: stat) {
        switch info.st_mode & S_IFMT {
        case S_IFREG: kind = .regularFile
        case S_IFDIR: kind = .directory
        default: kind = .other
        }
        size = Int(info.st_size)
        device = UInt64(truncatingIfNeeded: info.st_dev)
        inode = UInt64(truncatingIfNeeded: info.st_ino)
    }

    /// The size when the file is a regular file; nil for a pipe, a terminal, a directory or anything else.
    public var regularFileSize: Int? { kind == .regularFile ? size : nil }

    /// Whether `path` names something (`access` with `F_OK`).
    public static func exists(atPath path: String) -> Bool {
        access(SystemPath.bytes(path), F_OK) == 0
    }

    /// Whether `path` names nothing: it cannot be looked at because it does not exist (ENOENT), not for another
    /// reason such as a directory on the way that cannot be searched.
    public static func isMissing(atPath path: String) -> Bool {
        access(SystemPath.bytes(path), F_OK) != 0 && SystemError.last.isNoSuchFile
    }
}
