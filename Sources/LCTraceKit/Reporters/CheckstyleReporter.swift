/// Checkstyle XML, which many CI servers and code-review tools read: a `<file>` per input, opened as the input begins
/// and closed as it ends, and an `<error>` per finding in it (severity `error`, `warning` or `info`, source
/// `lctrace.RULE`), written as the finding is decided. Nothing is put aside.
public final class CheckstyleReporter: FindingTagging {
    /// Made of findings and the run's summary: it reads no session report.
    public var readsSessions: Bool { false }

    static var severityWords: KeyPath<SeverityWords, StaticString> { \.checkstyle }

    private let output: Output
    /// Reused for each element.
    private let element = ByteBuffer(capacity: 1 << 10)

    /// `failureSeverity` and `rules` are accepted as by the other CI reports: each finding carries its own severity.
    public init(output: Output, failureSeverity: Severity = .error, rules: RuleSettings = RuleSettings()) {
        self.output = output
        element.append(XMLText.declaration)
        element.append("<checkstyle version=\"4.3\">\n" as StaticString)
        output.write(element.bytes)
    }

    public func inputBegan(_ name: String) {
        element.removeAll()
        element.append("  <file" as StaticString)
        XMLText.attribute("name", name, to: element)
        element.append(">\n" as StaticString)
        output.write(element.bytes)
    }

    public func finding(_ finding: Finding) {
        element.removeAll()
        element.append("    <error" as StaticString)
        XMLText.attribute("line", max(finding.line, 1), to: element)
        XMLText.attribute("severity", "\(CheckstyleReporter.word(for: finding.severity))", to: element)
        XMLText.attribute("message", finding.message, to: element)
        XMLText.attribute("source", "lctrace." + finding.rule.rawValue, to: element)
        element.append("/>\n" as StaticString)
        output.write(element.bytes)
    }

    public func inputEnded(_ summary: InputSummary) {
        output.write("  </file>\n")
    }

    public func finish(_ summary: RunSummary) {
        output.write("</checkstyle>\n")
        output.flush()
    }
}
