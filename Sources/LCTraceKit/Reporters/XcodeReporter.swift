/// The `check` command's default report: one line per finding in the form compilers print and Xcode, editors and
/// CI log parsers read, `input:line: severity: [rule] message`, where an informational finding is a `note`. Nothing
/// else goes to this output: the summary is the command's, on standard error.
public final class XcodeReporter: FindingTagging {
    /// Made of findings and the run's summary: it reads no session report.
    public var readsSessions: Bool { false }

    static var severityWords: KeyPath<SeverityWords, StaticString> { \.compiler }

    private let output: Output
    private let live: Bool
    /// Findings below this severity are left out (counted in the run's summary all the same).
    private let minimumSeverity: Severity
    /// Where the findings' classes are declared: a `note` line points at each.
    private let declarations: ControllerDeclarations?
    private let text = ByteBuffer(capacity: 512)

    /// `live`: flush each finding as it is written (input that keeps flowing); `minimumSeverity`: the least severe
    /// finding printed.
    public init(output: Output, live: Bool = false, minimumSeverity: Severity = .info, declarations: ControllerDeclarations? = nil) {
        self.output = output
        self.live = live
        self.minimumSeverity = minimumSeverity
        self.declarations = declarations
    }

    public func finding(_ finding: Finding) {
        guard finding.severity >= minimumSeverity else { return }
        text.removeAll()
        let w = TextWriter(buffer: text, style: TextStyle(enabled: false))
        w.write(text: TerminalText.lineStart(finding.input))
        w.write(":")
        w.write(finding.line)
        w.write(": ")
        w.write(XcodeReporter.word(for: finding.severity))
        w.write(": [")
        w.write(text: finding.rule.rawValue)
        w.write("] ")
        w.write(text: finding.message)
        w.write("\n")
        for note in declarations?.notes(for: finding) ?? [] {
            w.write(text: TerminalText.lineStart(note.path))
            w.write(":")
            w.write(note.line)
            w.write(": note: ")
            w.write(text: note.text)
            w.write("\n")
        }
        output.write(text.bytes)
        if live { output.flush() }
    }

    public func finish(_ summary: RunSummary) { output.flush() }
}
