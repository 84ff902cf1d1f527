import Foundation
import Testing
@testable import LCTraceKit

/// The Code Climate (GitLab Code Quality) report over real sample logs.
@Suite struct CodeClimateReportTests {
    func issues(_ text: String) throws -> [[String: Any]] {
        try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [[String: Any]])
    }

    @Test func codeClimateHasAnIssuePerFindingWithRelativePaths() throws {
        let output = Output()
        let hostile = try hostileLog()
        let run = try report(CIReports.samples.map(ReportInput.sample) + [hostile],
                             into: CodeClimateReporter(output: output, workingDirectory: CIReports.root))
        let issues = try issues(output.text)
        #expect(issues.count == run.findings.count)
        for (issue, finding) in zip(issues, run.findings) {
            #expect(issue["type"] as? String == "issue")
            #expect(issue["check_name"] as? String == finding.rule.rawValue)
            #expect(issue["description"] as? String == finding.message)
            #expect(issue["categories"] as? [String] == ["Bug Risk"])
            #expect(issue["severity"] as? String == ["error": "major", "warning": "minor", "info": "info"][finding.severity.rawValue])
            let location = try #require(issue["location"] as? [String: Any])
            // Samples are named relative to the repository; the hostile file is elsewhere, by its absolute path.
            #expect(location["path"] as? String == finding.input)
            #expect((location["lines"] as? [String: Int])?["begin"] == max(finding.line, 1))
        }
        let fingerprints = issues.compactMap { $0["fingerprint"] as? String }
        #expect(Set(fingerprints).count == issues.count)
    }

    /// The same finding twice gets two fingerprints; both stay when the log shifts by a few lines.
    @Test func codeClimateFingerprintsAreUniqueAndSurviveShifts() throws {
        let log = "A viewDidLoad()\nA viewWillAppear(_:)\nA viewDidAppear(_:)\nA viewDidAppear(_:)\nA viewDidAppear(_:)\n"
        func fingerprints(_ text: String) throws -> [String] {
            let directory = TestFiles.root.appendingPathComponent("lctrace-tests-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            try Data(text.utf8).write(to: directory.appendingPathComponent("app.log"))
            let output = Output()
            let run = try report([ReportInput(path: directory.appendingPathComponent("app.log").path, name: "app.log")],
                                 into: CodeClimateReporter(output: output, workingDirectory: directory.path))
            #expect(run.findings.filter { $0.rule == .didAppearTwice }.count == 2)
            return try issues(output.text).compactMap { $0["fingerprint"] as? String }
        }
        let original = try fingerprints(log)
        #expect(Set(original).count == original.count)
        let shifted = try fingerprints("app started\n\nsome other line\n" + log)
        #expect(shifted == original)
    }

    @Test func golden() throws {
        try CIReports.assertGolden("ci.codeclimate.json") { CodeClimateReporter(output: $0, workingDirectory: "/src/lctrace") }
    }
}
