/// A file read as `tail -F` reads it (`--follow`): on at its end as it grows; from its start again when it is
/// truncated; when its path is renamed away and made again (log rotation), to the end of the old file and then from
/// the start of the new one. A path that does not exist yet, or no longer does after a rotation, is waited for. The
/// file is looked at again every 200 ms; SIGINT or SIGTERM (`StopRequest`) ends the reading.
///
/// A truncation is seen when the file is shorter than what was read, and also when it has grown past that again
/// before it was looked at: after each read, and at its end, the file must still hold the first and the last bytes
/// read at their offsets, or it was truncated and written anew and is read from its start again (bytes just read at
/// the old offset are dropped: they come again in turn).
///
/// What happens is told through `notice`, one line at a time (without a newline), for the user: the text is not part
/// of the report.
final class FollowedFile {
    /// What a read gave.
    enum Reading: Equatable {
        /// Bytes of the file, in order.
        case bytes(Int)
        /// The file starts again (it was truncated, or replaced by a new file): what was read before it is complete,
        /// and the next bytes are the file's first.
        case restarted
        /// SIGINT or SIGTERM: the end of the input.
        case stopped
    }

    static let pollMicroseconds: UInt32 = 200_000

    /// The path followed; nil when only an open descriptor is followed (no rotation to look for).
    private let path: String?
    /// How the input is named in notices.
    private let name: String
    private let notice: ((String) -> Void)?
    /// The descriptor read, -1 while the path is waited for.
    private var fd: Int32 = -1
    private let ownsDescriptor: Bool
    /// The device and inode of the open file: a path that names another file was rotated.
    private var identity: FileIdentity?
    /// The bytes read from the open file since it was opened or seen truncated: its size drops below this when it
    /// is truncated.
    private var offset = 0
    /// Whether `offset` is the descriptor's position in the file: so for a file opened here and after a rewind, not
    /// for a descriptor opened by the caller (its first read may start anywhere).
    private var offsetIsPosition = false
    /// Whether the open file is a regular file, whose bytes can be read again at their offsets.
    private var isRegularFile = false
    /// The first and the last bytes read since the file was opened or started again (up to `sampleBytes` of each),
    /// and room to read them again: a file that no longer holds them was written anew.
    private var head: [UInt8] = []
    private var tail: [UInt8] = []
    private var again = [UInt8](repeating: 0, count: FollowedFile.sampleBytes)
    static let sampleBytes = 256
    /// Set when the old file of a rotation was closed and a new one is waited for.
    private var replaced = false
    /// The last notice about waiting, not said twice in a row.
    private var lastWaitingNotice: String?

    /// Follows `path`, which need not exist yet.
    init(path: String, name: String, notice: ((String) -> Void)?) {
        self.path = path
        self.name = name
        self.notice = notice
        self.ownsDescriptor = true
    }

    /// Follows an open descriptor (its size is watched for truncation); the caller closes it.
    init(fileDescriptor fd: Int32, name: String, notice: ((String) -> Void)?) {
        self.path = nil
        self.name = name
        self.notice = notice
        self.fd = fd
        self.ownsDescriptor = false
        self.identity = FileIdentity(descriptor: fd)
        self.isRegularFile = identity?.isRegularFile ?? false
    }

    deinit {
        if ownsDescriptor, fd >= 0 { FileDescriptorIO.close(fd) }
    }

    /// Reads up to `count` bytes into `pointer`, waiting until there are some, the file starts again, or a stop is
    /// requested.
    func read(into pointer: UnsafeMutablePointer<UInt8>, count: Int) throws -> Reading {
        while true {
            if StopRequest.isRequested { return .stopped }
            guard fd >= 0 else {
                if try openPath() {
                    if replaced {
                        replaced = false
                        say("file replaced; reading the new file from the start")
                        return .restarted
                    }
                    if lastWaitingNotice != nil { say("file appeared; reading it") }
                    lastWaitingNotice = nil
                    continue
                }
                pause()
                continue
            }
            let read: Int
            do {
                read = try FileDescriptorIO.read(fd, into: pointer, count: count)
            } catch where error.isInterrupted {
                continue
            } catch {
                throw InputError.readFailed(reason: error.description)
            }
            if read > 0 {
                // Read at the old offset of a file truncated and written anew: dropped; the file is read afresh.
                guard stillHoldsWhatWasRead() else { return restartAfterTruncation() }
                took(pointer, count: read)
                return .bytes(read)
            }
            // At the end of what the file holds now.
            if let size = FileStatus(fileDescriptor: fd)?.regularFileSize, size < offset || !stillHoldsWhatWasRead() {
                return restartAfterTruncation()
            }
            if let path {
                if let now = FileIdentity(path: path) {
                    lastWaitingNotice = nil
                    if now != identity {
                        // Rotated: what was written to the old file until now is read first.
                        let more = (try? FileDescriptorIO.read(fd, into: pointer, count: count)) ?? 0
                        if more > 0 {
                            took(pointer, count: more)
                            return .bytes(more)
                        }
                        if ownsDescriptor { FileDescriptorIO.close(fd) }
                        fd = -1
                        replaced = true
                        continue
                    }
                } else {
                    // Renamed away or removed: the old file is still read (a writer may still hold it) until a new
                    // one appears.
                    waiting("file removed or renamed; waiting for a new one")
                }
            }
            pause()
        }
    }

    /// Opens the path; false when it cannot be opened (yet). Only a path that does not exist is waited for at first:
    /// another reason not to open it is an input error then, and is waited out only after a rotation.
    private func openPath() throws -> Bool {
        guard let path else { return false }
        let opened: Int32
        do {
            opened = try FileDescriptorIO.openForReading(path)
        } catch {
            let reason = error.description
            if !error.isNoSuchFile {
                guard identity != nil else { throw InputError.cannotOpen(path: path, reason: reason) }
                waiting("cannot open: \(reason); waiting for it")
            } else if identity == nil {
                waiting("no such file yet; waiting for it to appear")
            } else {
                waiting("file removed or renamed; waiting for a new one")
            }
            return false
        }
        guard let openedIdentity = FileIdentity(descriptor: opened), !openedIdentity.isDirectory else {
            FileDescriptorIO.close(opened)
            guard identity != nil else { throw InputError.isDirectory(path: path) }
            waiting("is a directory; waiting for a file")
            return false
        }
        fd = opened
        identity = openedIdentity
        isRegularFile = openedIdentity.isRegularFile
        startOver()
        return true
    }

    /// The file was truncated: it is read from its start again.
    private func restartAfterTruncation() -> Reading {
        say("file truncated; reading from the start")
        FileDescriptorIO.rewind(fd)
        startOver()
        return .restarted
    }

    /// Nothing read yet, at the start of the file.
    private func startOver() {
        offset = 0
        offsetIsPosition = true
        head.removeAll(keepingCapacity: true)
        tail.removeAll(keepingCapacity: true)
    }

    /// Counts `count` bytes read into `pointer`, and keeps the first and the last of them.
    private func took(_ pointer: UnsafeMutablePointer<UInt8>, count: Int) {
        offset += count
        let sample = FollowedFile.sampleBytes
        if head.count < sample {
            head.append(contentsOf: UnsafeBufferPointer(start: pointer, count: min(count, sample - head.count)))
        }
        let kept = min(count, sample)
        if tail.count + kept > sample { tail.removeFirst(tail.count + kept - sample) }
        tail.append(contentsOf: UnsafeBufferPointer(start: pointer + count - kept, count: kept))
    }

    /// Whether the file still holds the first and the last bytes read, where they were read: true when that cannot
    /// be told (not a regular file, or a descriptor whose start is not known) or the bytes cannot be read again.
    private func stillHoldsWhatWasRead() -> Bool {
        guard isRegularFile, offsetIsPosition, !head.isEmpty else { return true }
        // The last bytes read are among the first while fewer than `sampleBytes` were read.
        return holds(head, at: 0) && (offset <= head.count || holds(tail, at: offset - tail.count))
    }

    private func holds(_ bytes: [UInt8], at fileOffset: Int) -> Bool {
        let read = again.withUnsafeMutableBytes { buffer in
            (try? FileDescriptorIO.readFully(fd, into: UnsafeMutableRawBufferPointer(rebasing: buffer[..<bytes.count]),
                                             atOffset: fileOffset)) ?? -1
        }
        return read < 0 || (read == bytes.count && again.prefix(read).elementsEqual(bytes))
    }

    private func say(_ message: String) { notice?("\(name): \(message)") }

    private func waiting(_ message: String) {
        guard lastWaitingNotice != message else { return }
        lastWaitingNotice = message
        say(message)
    }

    /// Waits before looking again (a signal ends the wait early).
    private func pause() {
        if !StopRequest.isRequested { Sleep.pause(microseconds: FollowedFile.pollMicroseconds) }
    }
}

/// Which file a descriptor or path is: its device and inode.
struct FileIdentity: Equatable {
    var device: UInt64
    var inode: UInt64
    var isDirectory: Bool
    var isRegularFile: Bool

    init?(descriptor fd: Int32) {
        guard let status = FileStatus(fileDescriptor: fd) else { return nil }
        self.init(status)
    }

    init?(path: String) {
        guard let status = FileStatus(path: path) else { return nil }
        self.init(status)
    }

    private init(_ status: FileStatus) {
        device = status.device
        inode = status.inode
        isDirectory = status.kind == .directory
        isRegularFile = status.kind == .regularFile
    }
}
