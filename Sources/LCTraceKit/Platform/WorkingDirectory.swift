#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The process's working directory.
public enum WorkingDirectory {
    /// Its absolute path, or nil when it cannot be had (removed, or not reachable).
    public static var path: String? {
        guard let path = getcwd(nil, 0) else { return nil }
        defer { free(path) }
        return String(cString: path)
    }
}
