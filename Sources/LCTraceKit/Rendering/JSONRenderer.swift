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
        let directory = Environment.value(of: "TMPDIR").flatMap { $0.isEmpty ? nil : $0 } ?? "/tmp"
        return TemporaryFile.openUnlinked(in: directory, prefix: "lctrace-findings-")
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
            let written: Int
            do {
                written = try pending.withUnsafeBytes { bytes in
                    Result { () throws(SystemError) in
                        try FileDescriptorIO.write(fd, from: bytes.baseAddress! + offset, count: bytes.count - offset)
                    }
                }.get()
            } catch where error.isInterrupted {
                continue
            } catch {
                pending.removeFirst(offset)  // those are in the file now
                return giveUpFile(error.description)
            }
            guard written > 0 else {
                pending.removeFirst(offset)
                return giveUpFile("nothing written")
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
        FileDescriptorIO.close(fd)
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
            let count: Int
            do {
                count = try buffer.withUnsafeMutableBytes { bytes in
                    Result { () throws(SystemError) in
                        try FileDescriptorIO.read(fd, into: bytes.baseAddress! + total, count: bytes.count - total, atOffset: total)
                    }
                }.get()
            } catch where error.isInterrupted {
                continue
            } catch {
                break
            }
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
            let count: Int
            do {
                count = try chunk.withUnsafeMutableBytes { bytes in
                    Result { () throws(SystemError) in
                        try FileDescriptorIO.read(fd!, into: bytes.baseAddress!, count: min(bytes.count, fileBytes - offset), atOffset: offset)
                    }
                }.get()
            } catch where error.isInterrupted {
                continue
            } catch {
                output.fail("the findings put aside in a temporary file could not be read back (\(error))")
                return
            }
            guard count > 0 else {
                output.fail("the findings put aside in a temporary file could not be read back (it ended early)")
                return
            }
            chunk.withUnsafeBytes { output.write(UnsafeRawBufferPointer(rebasing: $0[..<count])) }
            offset += count
        }
    }

    deinit { if let fd { FileDescriptorIO.close(fd) } }
}
