#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Pausing the calling thread.
enum Sleep {
    /// Pauses for `microseconds`, or less when a signal arrives meanwhile.
    static func pause(microseconds: UInt32) {
        usleep(microseconds)
    }
}
