#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The process's environment variables.
public enum Environment {
    /// The value of the variable `name`; nil when it is not set.
    public static func value(of name: String) -> String? {
        getenv(name).map { String(cString: $0) }
    }
}
