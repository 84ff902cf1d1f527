#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// A clock that only moves forward (`CLOCK_MONOTONIC`), for measuring how long things take.
public enum MonotonicClock {
    /// Seconds since an arbitrary start.
    public static func seconds() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }
}
