import Foundation
import Testing
@testable import LCTraceKit

/// SampleLogs/README.md lists every sample with its format, transitions and findings; this keeps it true.
@Suite struct SampleLogsReadmeTests {
    struct Row { var file, format, transitions, findings: String }

    static func rows() throws -> [Row] {
        let text = try String(contentsOf: Fixtures.sampleLogs.appendingPathComponent("README.md"), encoding: .utf8)
        return text.split(separator: "\n").compactMap { line in
            let cells = line.split(separator: "|", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
            guard cells.count == 7, cells[1].hasSuffix(".log") else { return nil }
            return Row(file: cells[1], format: cells[2], transitions: cells[4], findings: cells[5])
        }
    }

    @Test func everySampleIsListed() throws {
        let listed = Set(try Self.rows().map(\.file))
        let files = try FileManager.default.contentsOfDirectory(atPath: Fixtures.sampleLogs.path).filter { $0.hasSuffix(".log") }
        #expect(listed == Set(files))
    }

    @Test func tableMatchesWhatLctraceReports() throws {
        var options = AnalysisOptions()
        options.rules.slowTransitionMs = 1000  // as the README says: --slow-transition 1000
        for row in try Self.rows() {
            let result = try analyze(sample: row.file, options: try LCTraceKitTests.options(forSample: row.file, options))
            let transitions = result.sessions.flatMap(\.transitions).map(\.kind.rawValue).joined(separator: ", ")
            let findings = result.findings.map { "\($0.severity.rawValue) \($0.rule.rawValue) line \($0.line)" }.joined(separator: "; ")
            #expect(result.inputs.first?.format == row.format, "\(row.file)")
            #expect((transitions.isEmpty ? "—" : transitions) == row.transitions, "\(row.file)")
            #expect((findings.isEmpty ? "none" : findings) == row.findings, "\(row.file)")
        }
    }
}
