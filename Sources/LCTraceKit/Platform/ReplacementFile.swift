#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// A file written under a temporary name beside the one it replaces, and renamed over it once complete
/// (`rename(2)` within one folder is atomic): whoever reads the path meanwhile, or after a run that failed, sees the
/// old file whole, never a part of the new one, and two runs writing one path leave one of their files, not a mix.
/// A path through a symbolic link replaces the file the link points to, and the link stays.
public final class ReplacementFile: @unchecked Sendable {
    /// The file that will be replaced (symbolic links followed), as text for messages.
    public let path: String
    public let fileDescriptor: Int32
    /// The two paths as the system calls take them (a name need not be UTF-8).
    private let targetBytes: [CChar]
    private let temporaryBytes: [CChar]
    private var done = false

    /// The temporary files not yet committed or discarded, removed by `discardAll()` when the process exits early.
    private static let pending = Lock<[ObjectIdentifier: ReplacementFile]>([:])

    /// Makes the temporary file beside `path`, with the permissions of the file it replaces (or of a new file: 0666
    /// less the umask). Throws the error of the call that failed: a folder that cannot be written, one that does not
    /// exist.
    public init(replacing path: String) throws(SystemError) {
        let target = ResolvedPath.bytes(of: path) ?? SystemPath.bytes(path)
        let name = target.dropLast()
        let slash = name.lastIndex(of: CChar(UInt8(ascii: "/")))
        let folder: [CChar] = slash.map { $0 == name.startIndex ? [CChar(UInt8(ascii: "/"))] : Array(name[..<$0]) } ?? [CChar(UInt8(ascii: "."))]
        let base = slash.map { Array(name[name.index(after: $0)...]) } ?? Array(name)
        var template = folder + Array("/.".utf8CString.dropLast()) + base + Array(".lctrace-XXXXXX".utf8CString)
        let fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard fd >= 0 else { throw .last }
        self.path = String(decoding: name.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        targetBytes = target
        temporaryBytes = template
        fileDescriptor = fd
        var existing = stat()
        let mode: mode_t
        if stat(target, &existing) == 0 {
            mode = existing.st_mode & 0o7777
        } else {
            let mask = umask(0)
            umask(mask)
            mode = 0o666 & ~mask
        }
        _ = fchmod(fd, mode)
        ReplacementFile.pending.withLock { $0[ObjectIdentifier(self)] = self }
    }

    /// Renames the new file over the old one and closes it.
    public func commit() throws(SystemError) {
        guard !done else { return }
        done = true
        ReplacementFile.pending.withLock { _ = $0.removeValue(forKey: ObjectIdentifier(self)) }
        _ = close(fileDescriptor)
        guard rename(temporaryBytes, targetBytes) == 0 else {
            let error = SystemError.last
            _ = unlink(temporaryBytes)
            throw error
        }
    }

    /// Removes the new file, leaving the old one as it was.
    public func discard() {
        guard !done else { return }
        done = true
        ReplacementFile.pending.withLock { _ = $0.removeValue(forKey: ObjectIdentifier(self)) }
        _ = close(fileDescriptor)
        _ = unlink(temporaryBytes)
    }

    /// Discards every file not yet committed: before the process exits on an error.
    public static func discardAll() {
        let files = pending.withLock { pending in
            defer { pending.removeAll() }
            return Array(pending.values)
        }
        for file in files { file.discard() }
    }
}
