/// JUnit XML, for the test views of CI servers (GitLab, Jenkins): a `<testsuite>` per input and a `<testcase>` per
/// session (`session N (process[pid])`), plus a testcase `input` for the findings about a whole input, or for an input
/// with no session. A testcase fails when it has findings at or above `failureSeverity`: one `<failure>` lists them
/// all, and the findings below it go to its `<system-out>`.
///
/// The counts go in the opening tags, so the document is put aside until `finish`: a suite's testcases in memory
/// while they are small, in a `Spool` once they are not, and each finished suite in a `Spool` too. Memory stays
/// bounded by the largest session's listed findings, and a run takes one temporary file, plus one per input whose
/// testcases outgrew memory.
public final class JUnitReporter: Reporter {
    private let output: Output
    private let failureSeverity: Severity

    /// The document after its opening tag: finished suites, in order.
    private var body: [Part] = []
    private enum Part {
        /// A suite's opening tag, known only at its end, before the spool holding its testcases.
        case text([UInt8])
        /// Anything written in order; only the last part is appended to.
        case spool(Spool)
    }

    private var tests = 0
    private var failures = 0

    // The input being read.
    private var input = ""
    private var suiteTests = 0
    private var suiteFailures = 0
    private var sessions = 0
    /// Its testcases, until they reach `memoryBytes`; then in `spilled`.
    private let cases = ByteBuffer(capacity: 1 << 12)
    private var spilled: Spool?
    private let memoryBytes: Int
    /// Findings about the whole input (session 0): the first `SessionLimits().listedFindings`, and the counts.
    private var inputFindings: [Finding] = []
    private var inputCounts = Counts()

    /// Findings counted per open session, by session number (the session's report lists only the first ones).
    private var sessionCounts: [Int: Counts] = [:]
    private struct Counts {
        var failing = 0
        var other = 0

        mutating func count(_ failing: Bool) {
            if failing { self.failing += 1 } else { other += 1 }
        }
    }

    /// Reused for each element.
    private let element = ByteBuffer(capacity: 1 << 12)

    /// `failureSeverity`: findings at or above it fail their testcase. `rules` is accepted as by the other CI reports.
    /// `declarations` (`--sources`): each finding's text is followed by a note at its class's declaration, as in the
    /// compiler form (a JUnit testcase has no place for a second file).
    public convenience init(output: Output, failureSeverity: Severity = .error, rules: RuleSettings = RuleSettings(),
                            declarations: ControllerDeclarations? = nil) {
        self.init(output: output, failureSeverity: failureSeverity, memoryBytes: 1 << 20, declarations: declarations)
    }

    /// `memoryBytes`: how many bytes of an input's testcases are kept in memory before they go to a temporary file.
    init(output: Output, failureSeverity: Severity, memoryBytes: Int, declarations: ControllerDeclarations? = nil) {
        self.output = output
        self.failureSeverity = failureSeverity
        self.memoryBytes = memoryBytes
        self.declarations = declarations
    }

    private let declarations: ControllerDeclarations?

    public func inputBegan(_ name: String) {
        input = name
        suiteTests = 0
        suiteFailures = 0
        sessions = 0
        inputFindings = []
        inputCounts = Counts()
    }

    public func finding(_ finding: Finding) {
        let failing = finding.severity >= failureSeverity
        guard finding.session > 0 else {
            inputCounts.count(failing)
            if inputFindings.count < SessionLimits().listedFindings { inputFindings.append(finding) }
            return
        }
        sessionCounts[finding.session, default: Counts()].count(failing)
    }

    public func sessionClosed(_ session: SessionReport) {
        sessions += 1
        var name = "session \(session.index)"
        switch (session.process, session.pid) {
        case let (process?, pid?): name += " (\(process)[\(pid)])"
        case let (process?, nil): name += " (\(process))"
        case let (nil, pid?): name += " (pid \(pid))"
        case (nil, nil): break
        }
        let counted = sessionCounts.removeValue(forKey: session.index)
        writeTestcase(name, findings: session.findings, counts: counted ?? counts(of: session.findings))
    }

    private func counts(of findings: [Finding]) -> Counts {
        var counts = Counts()
        for finding in findings { counts.count(finding.severity >= failureSeverity) }
        return counts
    }

    public func inputEnded(_ summary: InputSummary) {
        if sessions == 0 || !inputFindings.isEmpty { writeTestcase("input", findings: inputFindings, counts: inputCounts) }
        endSuite()
    }

    /// Writes the suite of the input that ended (`input`), or of the whole run, and starts the next one.
    private func endSuite() {
        tests += suiteTests
        failures += suiteFailures
        let head = ByteBuffer(capacity: 256)
        head.append("  <testsuite" as StaticString)
        XMLText.attribute("name", input, to: head)
        XMLText.attribute("tests", suiteTests, to: head)
        XMLText.attribute("failures", suiteFailures, to: head)
        XMLText.attribute("errors", 0, to: head)
        head.append(">\n" as StaticString)
        let tail: StaticString = "  </testsuite>\n"
        if let spilled {
            body.insert(.text(head.array), at: body.count - 1)
            spilled.append(tail)
            self.spilled = nil
        } else {
            appendToBody(head.bytes)
            appendToBody(cases.bytes)
            tail.withUTF8Buffer { appendToBody(UnsafeRawBufferPointer($0)) }
        }
        cases.removeAll()
        suiteTests = 0
        suiteFailures = 0
        inputFindings = []
        inputCounts = Counts()
    }

    public func finish(_ summary: RunSummary) {
        // Findings about the whole run (held against a model, `--against`) come after its last input: a suite of their own.
        if !inputFindings.isEmpty {
            input = "run"
            writeTestcase("run", findings: inputFindings, counts: inputCounts)
            endSuite()
        }
        let head = ByteBuffer(capacity: 256)
        head.append(XMLText.declaration)
        head.append("<testsuites" as StaticString)
        XMLText.attribute("name", "lctrace", to: head)
        XMLText.attribute("tests", tests, to: head)
        XMLText.attribute("failures", failures, to: head)
        XMLText.attribute("errors", 0, to: head)
        head.append(">\n" as StaticString)
        output.write(head.bytes)
        for part in body {
            switch part {
            case .text(let bytes): output.write(bytes: bytes)
            case .spool(let spool): spool.drain(into: output)
            }
        }
        body = []
        output.write("</testsuites>\n")
        output.flush()
    }

    // MARK: Testcases

    private func writeTestcase(_ name: String, findings: [Finding], counts: Counts) {
        suiteTests += 1
        if counts.failing > 0 { suiteFailures += 1 }
        element.removeAll()
        element.append("    <testcase" as StaticString)
        XMLText.attribute("name", name, to: element)
        XMLText.attribute("classname", "lctrace." + FindingKey.baseName(input).replacingDots(), to: element)
        if counts.failing + counts.other == 0 {
            element.append("/>\n" as StaticString)
        } else {
            element.append(">\n" as StaticString)
            if counts.failing > 0 { writeFailure(findings.filter { $0.severity >= failureSeverity }, count: counts.failing) }
            if counts.other > 0 { writeOutput(findings.filter { $0.severity < failureSeverity }, count: counts.other) }
            element.append("    </testcase>\n" as StaticString)
        }
        addTestcase(element.bytes)
    }

    /// One failure for all the failing findings: Jenkins shows only a testcase's first failure, and GitLab one.
    private func writeFailure(_ listed: [Finding], count: Int) {
        element.append("      <failure" as StaticString)
        var rules: [String] = []
        for finding in listed where !rules.contains(finding.rule.rawValue) { rules.append(finding.rule.rawValue) }
        XMLText.attribute("type", rules.joined(separator: ", "), to: element)
        let first = listed.first.map { "line \($0.line): [\($0.rule.rawValue)] \($0.message)" } ?? ""
        let message = count == 1 ? first : "\(count) findings at \(failureSeverity.rawValue) or above; the first: " + first
        XMLText.attribute("message", message, to: element)
        element.append(">" as StaticString)
        writeLines(listed, count: count)
        element.append("</failure>\n" as StaticString)
    }

    private func writeOutput(_ listed: [Finding], count: Int) {
        element.append("      <system-out>" as StaticString)
        writeLines(listed, count: count)
        element.append("</system-out>\n" as StaticString)
    }

    /// `input:line: severity: [rule] message`, with what was expected and what happened, a line each; then how many
    /// the session's report did not list.
    private func writeLines(_ listed: [Finding], count: Int) {
        for finding in listed {
            var line = "\(finding.input):\(finding.line): \(finding.severity.rawValue): [\(finding.rule.rawValue)] \(finding.message)\n"
            if let expected = finding.expected { line += "  expected: \(expected)\n" }
            if let actual = finding.actual { line += "  actual: \(actual)\n" }
            for note in declarations?.notes(for: finding) ?? [] { line += "\(note.path):\(note.line): note: \(note.text)\n" }
            XMLText.content(line, to: element)
        }
        if count > listed.count { XMLText.content("… and \(count - listed.count) more, not listed\n", to: element) }
    }

    // MARK: Putting aside

    private func addTestcase(_ bytes: UnsafeRawBufferPointer) {
        if let spilled { spilled.append(bytes); return }
        cases.append(bytes)
        guard cases.count >= memoryBytes else { return }
        let spool = Spool()
        spool.append(cases.bytes)
        cases.removeAll()
        body.append(.spool(spool))
        spilled = spool
    }

    /// Appends to the spool at the end of the body, or to a new one.
    private func appendToBody(_ bytes: UnsafeRawBufferPointer) {
        if case .spool(let spool)? = body.last {
            spool.append(bytes)
        } else {
            let spool = Spool()
            spool.append(bytes)
            body.append(.spool(spool))
        }
    }
}

extension String {
    /// Dots as underscores: a JUnit class name's dots separate its package from its class.
    fileprivate func replacingDots() -> String { String(map { $0 == "." ? "_" : $0 }) }
}
