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
    private let findings = Spool()
    /// Reused for every item, so its buffer is allocated once.
    private var writer = JSONWriter(indent: 2)

    /// `config` is the configuration file the run used, named in the report.
    public init(output: Output, includeEvents: Bool, config: String? = nil) {
        self.output = output
        sessionElement = SessionRendering(head: "{\n      \"index\": ") { session, text in
            var writer = JSONWriter(appendingTo: text, indent: 2)
            writer.object { ReportJSON.sessionMembers(session, events: includeEvents, into: &$0) }
        }
        var configValue = JSONWriter(indent: nil)
        configValue.value(config)
        output.write("{\n  \"schemaVersion\": \(ReportJSON.schemaVersion),\n  \"config\": ")
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

/// Bytes put aside until the end of the run: in an unlinked temporary file, or in memory if none can be made.
final class Spool {
    private let file: UnsafeMutablePointer<FILE>? = tmpfile()
    private var memory: [UInt8] = []

    func append(_ bytes: UnsafeRawBufferPointer) {
        guard let file else { memory += bytes; return }
        _ = fwrite(bytes.baseAddress, 1, bytes.count, file)
    }

    func append(_ text: StaticString) {
        text.withUTF8Buffer { append(UnsafeRawBufferPointer($0)) }
    }

    /// Writes everything put aside to `output`, in order.
    func drain(into output: Output) {
        guard let file else { output.write(bytes: memory); return }
        rewind(file)
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count = chunk.withUnsafeMutableBytes { fread($0.baseAddress, 1, $0.count, file) }
            if count == 0 { break }
            output.write(bytes: Array(chunk[..<count]))
        }
    }

    deinit { if let file { fclose(file) } }
}
