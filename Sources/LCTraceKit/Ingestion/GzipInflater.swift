import CZlib

/// Inflates a gzip stream as it is read, in bounded memory: what lets a `.gz` log, or gzip data piped to standard
/// input, be read like any other. Members written one after another (`cat a.gz b.gz`) are read as one stream. Zero
/// bytes after a member (the padding some tools write to fill a block, which GNU gzip ignores too) are skipped; any
/// other byte there starts another member, and bytes that are not one are an error.
final class GzipInflater {
    /// Whether `bytes` begin with the gzip magic number.
    static func isGzip(_ bytes: UnsafeRawBufferPointer) -> Bool {
        bytes.count >= 2 && bytes[0] == 0x1F && bytes[1] == 0x8B
    }

    private var stream = z_stream()
    private let input: UnsafeMutablePointer<UInt8>
    private let inputCapacity: Int
    /// Whether the last member read so far ended (its trailer checked): the stream may end here.
    private(set) var isAtMemberEnd = false

    /// Starts inflating with `first`, the bytes read already (they begin with the magic number).
    init(first: UnsafeRawBufferPointer, inputCapacity: Int = 256 << 10) throws(InputError) {
        self.inputCapacity = max(inputCapacity, first.count)
        input = .allocate(capacity: self.inputCapacity)
        if let base = first.baseAddress { input.update(from: base.assumingMemoryBound(to: UInt8.self), count: first.count) }
        guard lctrace_inflate_init_gzip(&stream) == Z_OK else {
            input.deallocate()
            throw .readFailed(reason: "gzip: cannot start inflating")
        }
        stream.next_in = input
        stream.avail_in = UInt32(first.count)
    }

    deinit {
        inflateEnd(&stream)
        input.deallocate()
    }

    /// Inflates up to `count` bytes into `output`, reading compressed bytes with `readRaw` when it needs more.
    /// Returns 0 when `readRaw` has no more for now (the end of the input, or of what a followed file holds so far).
    func inflate(into output: UnsafeMutablePointer<UInt8>, count: Int,
                 readRaw: (UnsafeMutablePointer<UInt8>, Int) throws -> Int) throws -> Int {
        let capacity = UInt32(min(count, Int(UInt32.max)))
        stream.next_out = output
        stream.avail_out = capacity
        while stream.avail_out == capacity {
            if stream.avail_in == 0 {
                let read = try readRaw(input, inputCapacity)
                guard read > 0 else { return 0 }
                stream.next_in = input
                stream.avail_in = UInt32(read)
            }
            if isAtMemberEnd {
                // Zero bytes after a member are padding: skipped, and the stream may still end after them.
                while stream.avail_in > 0, stream.next_in.pointee == 0 {
                    stream.next_in += 1
                    stream.avail_in -= 1
                }
                if stream.avail_in == 0 { continue }
                // More bytes after a member: another member.
                guard inflateReset(&stream) == Z_OK else { throw InputError.readFailed(reason: "gzip: cannot read the next member") }
                isAtMemberEnd = false
            }
            switch CZlib.inflate(&stream, Z_NO_FLUSH) {
            case Z_OK, Z_BUF_ERROR:
                break
            case Z_STREAM_END:
                isAtMemberEnd = true
            default:
                let reason = stream.msg.map { String(cString: $0) } ?? "invalid compressed data"
                throw InputError.readFailed(reason: "gzip: \(reason)")
            }
        }
        return Int(capacity - stream.avail_out)
    }
}
