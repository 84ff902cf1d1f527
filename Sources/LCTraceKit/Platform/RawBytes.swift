#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The C library's routines for searching, comparing and copying raw bytes (vectorised by it), for the hot paths.
enum RawBytes {
    /// The offset from `start` of the first `byte` in the `count` bytes there, or nil (`memchr`).
    @inline(__always)
    static func firstOffset(of byte: UInt8, in start: UnsafeRawPointer, count: Int) -> Int? {
        guard let found = memchr(start, Int32(byte), count) else { return nil }
        return start.distance(to: UnsafeRawPointer(found))
    }

    /// Whether the `count` bytes at `first` and at `second` are the same (`memcmp`).
    @inline(__always)
    static func equal(_ first: UnsafeRawPointer, _ second: UnsafeRawPointer, count: Int) -> Bool {
        memcmp(first, second, count) == 0
    }

    /// Copies `count` bytes from `source` to `destination`; the two do not overlap (`memcpy`).
    @inline(__always)
    static func copy(_ count: Int, from source: UnsafeRawPointer, to destination: UnsafeMutableRawPointer) {
        memcpy(destination, source, count)
    }

    /// Copies `count` bytes from `source` to `destination`, which may overlap (`memmove`).
    @inline(__always)
    static func move(_ count: Int, from source: UnsafeRawPointer, to destination: UnsafeMutableRawPointer) {
        memmove(destination, source, count)
    }
}
