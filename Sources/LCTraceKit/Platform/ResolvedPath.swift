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
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }
}
