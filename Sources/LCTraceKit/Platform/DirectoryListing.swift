#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The entries of one directory, as `opendir`, `readdir` and `closedir` give them (<dirent.h>), and what kind of file
/// a path names without following a last symbolic link (`lstat`, <sys/stat.h>). Paths are bytes (`SystemPath`): a
/// name read from a directory need not be UTF-8.
enum DirectoryListing {
    /// What a directory entry is. `unknown` when the file system does not say in the entry (`DT_UNKNOWN`: some
    /// network and older file systems), so that the caller looks with `kind(ofPath:)`.
    enum Kind: Equatable {
        case regularFile, directory, symbolicLink, other, unknown
    }

    struct Entry {
        /// The name's bytes, without a terminating nul.
        var name: [UInt8]
        var kind: Kind
    }

    /// Which file a directory is (device and inode), so that a walk never enters one twice.
    struct Identity: Hashable {
        var device: UInt64
        var inode: UInt64
    }

    // `opendir` returns a pointer to a complete `DIR` struct on Darwin, and to an incomplete one (imported as an
    // opaque pointer) on glibc and musl.
    #if canImport(Darwin)
    private typealias DirectoryStream = UnsafeMutablePointer<DIR>
    #else
    private typealias DirectoryStream = OpaquePointer
    #endif

    /// The entries of the directory at `path` (nul-terminated bytes), `.` and `..` left out, in the order the file
    /// system gives them. Throws the error of `opendir`, or of a `readdir` that fails.
    static func entries(ofDirectory path: [CChar]) throws(SystemError) -> [Entry] {
        guard let stream: DirectoryStream = opendir(path) else { throw .last }
        defer { closedir(stream) }
        var entries: [Entry] = []
        while true {
            // readdir returns nil both at the end and on an error; only errno tells them apart.
            errno = 0
            guard let entry = readdir(stream) else {
                if errno != 0 { throw .last }
                break
            }
            let name = nameBytes(entry)
            if name == [0x2E] || name == [0x2E, 0x2E] { continue }
            entries.append(Entry(name: name, kind: kind(ofEntryType: entry.pointee.d_type)))
        }
        return entries
    }

    /// The kind of file `path` names; `followingLinks: false` tells a symbolic link as one (`lstat`), `true` tells
    /// what it points to (`stat`). Throws when the path cannot be looked at (a link to nothing, no permission).
    static func kind(ofPath path: [CChar], followingLinks: Bool) throws(SystemError) -> (kind: Kind, identity: Identity) {
        var info = stat()
        guard (followingLinks ? stat(path, &info) : lstat(path, &info)) == 0 else { throw .last }
        let kind: Kind
        switch info.st_mode & S_IFMT {
        case S_IFREG: kind = .regularFile
        case S_IFDIR: kind = .directory
        case S_IFLNK: kind = .symbolicLink
        default: kind = .other
        }
        return (kind, Identity(device: UInt64(truncatingIfNeeded: info.st_dev), inode: UInt64(truncatingIfNeeded: info.st_ino)))
    }

    /// `d_name` is a fixed array of `CChar` in `struct dirent` on Darwin (1024) and glibc/musl (256), nul-terminated.
    private static func nameBytes(_ entry: UnsafeMutablePointer<dirent>) -> [UInt8] {
        withUnsafeBytes(of: &entry.pointee.d_name) { raw in
            let bytes = raw.bindMemory(to: UInt8.self)
            let end = bytes.firstIndex(of: 0) ?? bytes.count
            return Array(bytes[..<end])
        }
    }

    /// `d_type` is in `struct dirent` on Darwin, glibc and musl. Its `DT_` constants are macros on Darwin (imported
    /// as `Int32`) and enumerators on glibc (imported as `Int`): compared as `Int`.
    private static func kind(ofEntryType type: UInt8) -> Kind {
        switch Int(type) {
        case Int(DT_REG): return .regularFile
        case Int(DT_DIR): return .directory
        case Int(DT_LNK): return .symbolicLink
        case Int(DT_UNKNOWN): return .unknown
        default: return .other
        }
    }
}
