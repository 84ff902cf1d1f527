#if canImport(Glibc)
import Glibc
#endif

/// `--format json`: one document, written session by session as sessions close, so its memory is bounded by
/// the largest session. Findings are listed after the sessions, then the summary; until then they wait in an
/// unlinked temporary file, so their number does not grow the memory either.
public final class JSONRenderer: ReportSink {
    private let output: Output
    private let includeEvents: Bool
    private var sessionsWritten = 0
    private var findingsWritten = 0
    private let findings = Spool()

    /// `config` is the configuration file the run used, named in the report.
    public init(output: Output, includeEvents: Bool, config: String? = nil) {
        self.output = output
        self.includeEvents = includeEvents
        output.write("{\n  \"schemaVersion\": \(ReportJSON.schemaVersion),\n  \"config\": \(JSONValue.optional(config).compact()),\n  \"sessions\": [")
    }

    public func beginInput(_ name: String) {}

    public func finding(_ finding: Finding) {
        findings.append(Array((findingsWritten == 0 ? "\n    " : ",\n    ").utf8))
        findings.append(ReportJSON.finding(finding).bytes(indent: 2))
        findingsWritten += 1
    }

    public func sessionClosed(_ session: SessionReport) {
        output.write(sessionsWritten == 0 ? "\n    " : ",\n    ")
        output.write(bytes: ReportJSON.session(session, events: includeEvents).bytes(indent: 2))
        sessionsWritten += 1
    }

    public func endInput(_ summary: InputSummary) {}

    public func finish(_ summary: RunSummary) {
        output.write(sessionsWritten == 0 ? "],\n" : "\n  ],\n")
        output.write("  \"findings\": [")
        findings.drain(into: output)
        output.write(findingsWritten == 0 ? "],\n" : "\n  ],\n")
        output.write("  \"summary\": " + ReportJSON.summary(summary).serialized(indent: 1) + "\n}\n")
        output.flush()
    }
}

/// Bytes put aside until the end of the run: in an unlinked temporary file, or in memory if none can be made.
final class Spool {
    private let file: UnsafeMutablePointer<FILE>? = tmpfile()
    private var memory: [UInt8] = []

    func append(_ bytes: [UInt8]) {
        guard let file else { memory += bytes; return }
        bytes.withUnsafeBytes { _ = fwrite($0.baseAddress, 1, $0.count, file) }
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
