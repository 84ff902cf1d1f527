#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// A path with every symbolic link, `.` and `..` resolved, as the file system sees it (`realpath` with a null buffer,
/// which allocates the result on Glibc, musl and Darwin alike: <stdlib.h>).
enum ResolvedPath {
    /// The resolved absolute path; nil when `path` names nothing or cannot be followed.
    static func of(_ path: String) -> String? {
        bytes(of: path).map { String(decoding: $0.dropLast().map { UInt8(bitPattern: $0) }, as: UTF8.self) }
    }

    /// The resolved path's bytes, nul-terminated (a name need not be UTF-8).
    static func bytes(of path: String) -> [CChar]? {
        guard let resolved = realpath(SystemPath.bytes(path), nil) else { return nil }
        defer { free(resolved) }
        return Array(UnsafeBufferPointer(start: resolved, count: strlen(resolved) + 1))
    }
}
