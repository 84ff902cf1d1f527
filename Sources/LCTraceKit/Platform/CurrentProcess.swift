#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The running process: ending it, and what it used.
public enum CurrentProcess {
    /// Ends the process with `status` (buffers of the C library flushed, as `exit` does).
    public static func exit(_ status: Int32) -> Never {
        #if canImport(Darwin)
        Darwin.exit(status)
        #elseif canImport(Glibc)
        Glibc.exit(status)
        #elseif canImport(Musl)
        Musl.exit(status)
        #endif
    }

    /// The peak resident memory of the process so far, in bytes.
    public static func peakResidentBytes() -> Int {
        var usage = rusage()
        // Glibc declares `getrusage(__rusage_who_t, struct rusage *)` with an enum (<sys/resource.h>,
        // <bits/resource.h>); Darwin and musl take an `int` (<sys/resource.h>), and RUSAGE_SELF is a plain macro.
        #if canImport(Glibc)
        getrusage(__rusage_who_t(RUSAGE_SELF.rawValue), &usage)
        #else
        getrusage(RUSAGE_SELF, &usage)
        #endif
        // `ru_maxrss` is in bytes on Darwin (getrusage(2)), in KiB on Linux (getrusage(2), "in kilobytes").
        #if canImport(Darwin)
        return Int(usage.ru_maxrss)
        #else
        return Int(usage.ru_maxrss) * 1024
        #endif
    }
}
