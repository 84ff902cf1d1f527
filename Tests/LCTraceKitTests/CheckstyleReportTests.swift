import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import Testing
@testable import LCTraceKit

/// The Checkstyle report over real sample logs.
@Suite struct CheckstyleReportTests {
    @Test func checkstyleHasAFilePerInputAndAnErrorPerFinding() throws {
        let output = Output()
        let hostile = try hostileLog()
        let inputs = CIReports.samples.map(ReportInput.sample) + [hostile]
        let run = try report(inputs, into: CheckstyleReporter(output: output))
        let root = try #require(try XMLDocument(xmlString: output.text, options: []).rootElement())
        #expect(root.name == "checkstyle")
        #expect(root.attribute(forName: "version")?.stringValue == "4.3")
        let files = root.elements(forName: "file")
        #expect(files.map { $0.attribute(forName: "name")?.stringValue }
                    == inputs.map { $0.name.replacingOccurrences(of: "\u{1}", with: "\u{FFFD}") })
        let errors = files.flatMap { file in file.elements(forName: "error").map { (file, $0) } }
        #expect(errors.count == run.findings.count)
        for ((file, error), finding) in zip(errors, run.findings) {
            #expect(file.attribute(forName: "name")?.stringValue == finding.input.replacingOccurrences(of: "\u{1}", with: "\u{FFFD}"))
            #expect(error.attribute(forName: "line")?.stringValue == String(max(finding.line, 1)))
            #expect(error.attribute(forName: "severity")?.stringValue == finding.severity.rawValue)
            #expect(error.attribute(forName: "source")?.stringValue == "lctrace." + finding.rule.rawValue)
            #expect(error.attribute(forName: "message")?.stringValue == finding.message.replacingOccurrences(of: "\u{1}", with: "\u{FFFD}"))
        }
    }

    @Test func golden() throws {
        try CIReports.assertGolden("ci.checkstyle.xml") { CheckstyleReporter(output: $0) }
    }
}
