#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// A temporary file that no path names: made with `mkstemp` and unlinked at once, so that it goes away with its
/// descriptor, however the process ends.
enum TemporaryFile {
    /// Opens a new file for reading and writing in `directory`, its name starting with `prefix`; nil when none can be
    /// made there.
    static func openUnlinked(in directory: String, prefix: String) -> Int32? {
        var template = Array((directory + "/" + prefix + "XXXXXX").utf8CString)
        let fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard fd >= 0 else { return nil }
        _ = template.withUnsafeBufferPointer { unlink($0.baseAddress!) }
        return fd
    }
}
