#if canImport(Glibc)
import Glibc
#endif

/// `--format json`: one document, written session by session as sessions close, so its memory is bounded by
/// the largest session. Findings are listed after the sessions, then the summary; until then they wait in an
/// unlinked temporary file, so their number does not grow the memory either.
public final class JSONRenderer: ReportSink {
    private let output: Output
    private var sessionsWritten = 0
    private var findingsWritten = 0
    private let findings: Spool
    /// Reused for every item, so its buffer is allocated once.
    private var writer = JSONWriter(indent: 2)

    /// `config` is the configuration file the run used, named in the report.
    public convenience init(output: Output, includeEvents: Bool, config: String? = nil) {
        self.init(output: output, includeEvents: includeEvents, config: config, findings: Spool())
    }

    /// `findings`: where findings wait for the end of the run.
    init(output: Output, includeEvents: Bool, config: String? = nil, findings: Spool) {
        self.output = output
        self.findings = findings
        sessionElement = SessionRendering(head: "{\n      \"index\": ") { session, text in
            var writer = JSONWriter(appendingTo: text, indent: 2)
            writer.object { ReportJSON.sessionMembers(session, events: includeEvents, into: &$0) }
        }
        var configValue = JSONWriter(indent: nil)
        configValue.value(config)
        output.write("{\n  \"schemaVersion\": \(ReportJSON.schemaVersion),\n  \"lctraceVersion\": \"\(LCTraceVersion.current)\",\n  \"config\": ")
        output.write(configValue.buffer.bytes)
        output.write(",\n  \"sessions\": [")
    }

    public func beginInput(_ name: String) {}

    public func finding(_ finding: Finding) {
        writer.reset()
        writer.object { ReportJSON.findingMembers(finding, into: &$0) }
        findings.append(findingsWritten == 0 ? "\n    " : ",\n    ")
        findings.append(writer.buffer.bytes)
        findingsWritten += 1
    }

    public func sessionClosed(_ session: SessionReport) {
        writer.reset()
        sessionElement.render(session, writer.buffer)
        separateSession()
        output.write(writer.buffer.bytes)
    }

    /// A session is an element of the `sessions` array, indented under it.
    public var sessionRendering: SessionRendering? { sessionElement }

    private let sessionElement: SessionRendering

    public func writeSession(_ item: RenderedItem, index: Int) {
        separateSession()
        item.write(number: index, to: output)
    }

    private func separateSession() {
        output.write(sessionsWritten == 0 ? "\n    " : ",\n    ")
        sessionsWritten += 1
    }

    public func endInput(_ summary: InputSummary) {}

    public func finish(_ summary: RunSummary) {
        output.write(sessionsWritten == 0 ? "],\n" : "\n  ],\n")
        output.write("  \"findings\": [")
        findings.drain(into: output)
        output.write(findingsWritten == 0 ? "],\n" : "\n  ],\n")
        var summaryWriter = JSONWriter(indent: 1)
        summaryWriter.object { ReportJSON.summaryMembers(summary, into: &$0) }
        output.write("  \"summary\": ")
        output.write(summaryWriter.buffer.bytes)
        output.write("\n}\n")
        output.flush()
    }
}

/// Bytes put aside until the end of the run: in an unlinked temporary file (in `$TMPDIR`, else `/tmp`), or in
/// memory when none can be made or written. Nothing put aside is lost when the file fails: what the file holds so
/// far is read back into memory, and the rest stays there. If it cannot even be read back, `drain` says so on the
/// output, which then fails the run.
final class Spool {
    private var fd: Int32?
    /// Bytes the file holds, all written in full.
    private var fileBytes = 0
    /// Bytes waiting to be written to the file in one call, or everything when there is no file.
    private var pending: [UInt8] = []
    private static let writeBytes = 1 << 16
    /// Why the file was given up, if it was (and then `pending` holds everything).
    private var fileFailure: String?

    init() {
        fd = Spool.unlinkedTemporaryFile()
    }

    /// Puts bytes aside in `fileDescriptor` (tests give one that fails).
    init(fileDescriptor: Int32) {
        fd = fileDescriptor
    }

    private static func unlinkedTemporaryFile() -> Int32? {
        let directory = getenv("TMPDIR").map { String(cString: $0) }.flatMap { $0.isEmpty ? nil : $0 } ?? "/tmp"
        var template = Array((directory + "/lctrace-findings-XXXXXX").utf8CString)
        let fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard fd >= 0 else { return nil }
        unlink(template.withUnsafeBufferPointer { String(cString: $0.baseAddress!) })
        return fd
    }

    func append(_ bytes: UnsafeRawBufferPointer) {
        pending.append(contentsOf: bytes)
        if fd != nil, pending.count >= Spool.writeBytes { writePending() }
    }

    func append(_ text: StaticString) {
        text.withUTF8Buffer { append(UnsafeRawBufferPointer($0)) }
    }

    /// Moves the waiting bytes to the file; when the file fails, takes back what it holds and keeps all in memory.
    private func writePending() {
        guard let fd, !pending.isEmpty else { return }
        var offset = 0
        while offset < pending.count {
            let written = pending.withUnsafeBytes { write(fd, $0.baseAddress! + offset, $0.count - offset) }
            if written < 0, errno == EINTR { continue }
            guard written > 0 else {
                pending.removeFirst(offset)  // those are in the file now
                return giveUpFile(written == 0 ? "nothing written" : String(cString: strerror(errno)))
            }
            offset += written
            fileBytes += written
        }
        pending.removeAll(keepingCapacity: true)
    }

    /// Reads what the file holds back into memory, ahead of the bytes still waiting, and writes no more to it.
    private func giveUpFile(_ reason: String) {
        guard let fd else { return }
        var held = [UInt8](repeating: 0, count: fileBytes)
        let read = readBack(into: &held)
        close(fd)
        self.fd = nil
        if read == fileBytes {
            pending = held + pending
        } else {
            fileFailure = reason
        }
        fileBytes = 0
    }

    /// Reads the file's first `buffer.count` bytes; returns how many it could.
    private func readBack(into buffer: inout [UInt8]) -> Int {
        guard let fd else { return 0 }
        var total = 0
        while total < buffer.count {
            let count = buffer.withUnsafeMutableBytes { pread(fd, $0.baseAddress! + total, $0.count - total, off_t(total)) }
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { break }
            total += count
        }
        return total
    }

    /// Writes everything put aside to `output`, in order.
    func drain(into output: Output) {
        writePending()
        guard fd != nil else {
            if let fileFailure { output.fail("the findings put aside in a temporary file could not be read back (\(fileFailure))") }
            output.write(bytes: pending)
            return
        }
        var chunk = [UInt8](repeating: 0, count: Spool.writeBytes)
        var offset = 0
        while offset < fileBytes {
            let count = chunk.withUnsafeMutableBytes { pread(fd!, $0.baseAddress!, min($0.count, fileBytes - offset), off_t(offset)) }
            if count < 0, errno == EINTR { continue }
            guard count > 0 else {
                output.fail("the findings put aside in a temporary file could not be read back (\(String(cString: strerror(errno))))")
                return
            }
            chunk.withUnsafeBytes { output.write(UnsafeRawBufferPointer(rebasing: $0[..<count])) }
            offset += count
        }
    }

    deinit { if let fd { close(fd) } }
}
