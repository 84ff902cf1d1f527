import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import Testing
@testable import LCTraceKit

/// The JUnit report over real sample logs.
@Suite struct JUnitReportTests {
    func junit(_ text: String) throws -> XMLElement {
        try #require(try XMLDocument(xmlString: text, options: []).rootElement())
    }

    @Test func junitHasASuitePerInputAndATestcasePerSession() throws {
        for failureSeverity in [Severity.error, .warning, .info] {
            let output = Output()
            let run = try report(CIReports.samples.map(ReportInput.sample), into: JUnitReporter(output: output, failureSeverity: failureSeverity))
            let root = try junit(output.text)
            #expect(root.name == "testsuites")
            let suites = root.elements(forName: "testsuite")
            #expect(suites.map { $0.attribute(forName: "name")?.stringValue } == CIReports.samples.map { "SampleLogs/" + $0 })
            var failingCases = 0
            for suite in suites {
                let input = try #require(suite.attribute(forName: "name")?.stringValue)
                let cases = suite.elements(forName: "testcase")
                let sessions = run.sessions.filter { $0.input == input }
                let inputFindings = run.findings.filter { $0.input == input && $0.session == 0 }
                #expect(cases.count == sessions.count + (sessions.isEmpty || !inputFindings.isEmpty ? 1 : 0))
                #expect(suite.attribute(forName: "tests")?.stringValue == String(cases.count))
                let failing = cases.filter { !$0.elements(forName: "failure").isEmpty }
                #expect(suite.attribute(forName: "failures")?.stringValue == String(failing.count))
                failingCases += failing.count
                for (testcase, session) in zip(cases, sessions) {
                    let name = try #require(testcase.attribute(forName: "name")?.stringValue)
                    #expect(name.hasPrefix("session \(session.index)"))
                    if let process = session.process, let pid = session.pid { #expect(name.hasSuffix(" (\(process)[\(pid)])")) }
                    #expect(testcase.attribute(forName: "classname")?.stringValue
                                == "lctrace." + URL(fileURLWithPath: input).lastPathComponent.replacingOccurrences(of: ".", with: "_"))
                    let failures = session.findings.filter { $0.severity >= failureSeverity }
                    let failure = testcase.elements(forName: "failure").first
                    #expect(testcase.elements(forName: "failure").count == (failures.isEmpty ? 0 : 1))
                    for finding in failures {
                        #expect(failure?.stringValue?.contains("\(finding.input):\(finding.line): \(finding.severity.rawValue): [\(finding.rule.rawValue)] \(finding.message)") == true)
                        #expect(failure?.attribute(forName: "type")?.stringValue == finding.rule.rawValue)
                    }
                    let others = session.findings.filter { $0.severity < failureSeverity }
                    #expect(testcase.elements(forName: "system-out").count == (others.isEmpty ? 0 : 1))
                }
                if sessions.isEmpty {
                    #expect(cases.last?.attribute(forName: "name")?.stringValue == "input")
                }
            }
            let failingFindings = run.findings.filter { $0.severity >= failureSeverity }.count
            #expect(root.attribute(forName: "tests")?.stringValue == String(suites.reduce(0) { $0 + $1.elements(forName: "testcase").count }))
            #expect(root.attribute(forName: "failures")?.stringValue == String(failingCases))
            // Every sample here has at most one finding: one failing testcase per failing finding.
            #expect(failingCases == failingFindings)
        }
    }

    @Test func junitEscapesHostileNamesAndMessages() throws {
        let output = Output()
        let hostile = try hostileLog()
        let sink = JUnitReporter(output: output)
        try report([hostile], into: sink)
        let root = try junit(output.text)
        let suite = try #require(root.elements(forName: "testsuite").first)
        // U+0001 cannot be in an XML 1.0 document: it is replaced.
        let shown = hostile.name.replacingOccurrences(of: "\u{1}", with: "\u{FFFD}")
        #expect(suite.attribute(forName: "name")?.stringValue == shown)
        #expect(output.text.contains("A&lt;b&gt;&amp;&quot;c&apos;\u{FFFD}.log"))
        #expect(!output.text.contains("\u{1}"))

        // A controller and a message with markup, line breaks and control characters, straight to the renderer.
        let direct = Output()
        let renderer = JUnitReporter(output: direct, failureSeverity: .warning)
        renderer.inputBegan("in.log")
        renderer.finding(Finding(rule: .didAppearTwice, severity: .warning, input: "in.log", line: 3, session: 0,
                                 controller: "A<b>&\"c\"", message: "two\nlines\t<tab> & \u{1B}[31m ']]>", expected: nil, actual: nil))
        renderer.inputEnded(InputSummary(name: "in.log", format: "bare"))
        renderer.finish(RunSummary())
        let failure = try #require(try junit(direct.text).nodes(forXPath: "//failure").first as? XMLElement)
        #expect(failure.attribute(forName: "message")?.stringValue == "line 3: [did-appear-twice] two\nlines\t<tab> & \u{FFFD}[31m ']]>")
        #expect(failure.stringValue?.contains("in.log:3: warning: [did-appear-twice] two\nlines\t<tab> & \u{FFFD}[31m ']]>") == true)
    }

    /// Testcases put aside in temporary files, as a large input's are, give the same document as testcases kept in
    /// memory.
    @Test func junitPutAsideReadsTheSame() throws {
        let inputs = CIReports.samples.map(ReportInput.sample) + [.sample("tab-switch.log"), .sample("did-appear-twice.log")]
        let inMemory = Output(), putAside = Output(), everyInput = Output()
        try report(inputs, into: JUnitReporter(output: inMemory, failureSeverity: .warning, memoryBytes: 1 << 20))
        try report(inputs, into: JUnitReporter(output: putAside, failureSeverity: .warning, memoryBytes: 1))
        try report(inputs, into: JUnitReporter(output: everyInput, failureSeverity: .warning, memoryBytes: 400))
        #expect(putAside.text == inMemory.text)
        #expect(everyInput.text == inMemory.text)
        _ = try junit(inMemory.text)
    }

    @Test func xmlTextEscapesMarkupAndWhatXML10CannotHold() {
        let text = "a&b <c> \"d\" 'e' tab\t nl\n cr\r nul\u{0} esc\u{1B} \u{FFFE}\u{FFFF} é 🙂 \u{85}"
        #expect(XMLText.escaped(text) == "a&amp;b &lt;c&gt; &quot;d&quot; &apos;e&apos; tab&#9; nl&#10; cr&#13; nul\u{FFFD} esc\u{FFFD} \u{FFFD}\u{FFFD} é 🙂 \u{85}")
        #expect(XMLText.escaped(text, inAttribute: false) == "a&amp;b &lt;c&gt; &quot;d&quot; &apos;e&apos; tab\t nl\n cr&#13; nul\u{FFFD} esc\u{FFFD} \u{FFFD}\u{FFFD} é 🙂 \u{85}")
        #expect(XMLText.escaped("plain ascii and ünïcode") == "plain ascii and ünïcode")
    }

    @Test func golden() throws {
        try CIReports.assertGolden("ci.junit.xml") { JUnitReporter(output: $0, failureSeverity: .warning) }
    }
}
