/// GitLab Code Quality (the Code Climate issue format): a JSON array with one issue per finding, written as it is
/// decided. Severities: error → `major`, warning → `minor`, info → `info`. Paths are relative to the working
/// directory when the input is below it.
///
/// An issue's fingerprint is unique in the report and stays the same when the log only shifts: the finding's
/// `FindingKey` fingerprint, its path, and which occurrence of that key in that input it is (the 1st, the 2nd…),
/// hashed together. The occurrences are counted per distinct key, so memory grows with the keys, not the findings.
public final class CodeClimateReporter: FindingTagging {
    /// Made of findings and the run's summary: it reads no session report.
    public var readsSessions: Bool { false }

    static var severityWords: KeyPath<SeverityWords, StaticString> { \.codeClimate }

    private let output: Output
    private var locator: InputLocator
    private var issuesWritten = 0
    private var writer = JSONWriter(indent: 1)
    /// Occurrences so far, by path and key fingerprint.
    private var occurrences: [String: Int] = [:]

    /// `failureSeverity` and `rules` are accepted as by the other CI reports: each issue carries its own severity.
    /// Relative inputs are read from `workingDirectory` (default: the current directory).
    public init(output: Output, failureSeverity: Severity = .error, rules: RuleSettings = RuleSettings(),
                workingDirectory: String? = nil, declarations: ControllerDeclarations? = nil) {
        self.output = output
        self.declarations = declarations
        locator = InputLocator(workingDirectory: workingDirectory)
        output.write("[")
    }

    /// Where the findings' classes are declared (`--sources`): each issue names them as other locations.
    private let declarations: ControllerDeclarations?

    /// A location: a path and its first line.
    private static func location(_ path: String, line: Int, into w: inout JSONWriter) {
        w.object { w in
            w.member("path", path)
            w.key("lines")
            w.object { w in w.member("begin", line) }
        }
    }

    public func finding(_ finding: Finding) {
        let path = locator.location(of: finding.input).path
        let key = FindingKey(finding).fingerprint
        let occurrence = occurrences[path + "\u{1F}" + key, default: 0] + 1
        occurrences[path + "\u{1F}" + key] = occurrence
        writer.reset()
        writer.object { w in
            w.member("type", "issue")
            w.member("check_name", finding.rule.rawValue)
            w.member("description", finding.message)
            w.key("categories")
            w.array { w in w.value("Bug Risk") }
            w.member("severity", "\(CodeClimateReporter.word(for: finding.severity))")
            w.member("fingerprint", FindingKey.fingerprint(of: [key, path, String(occurrence)]))
            w.key("location")
            CodeClimateReporter.location(path, line: max(finding.line, 1), into: &w)
            // With the sources indexed, the declaration of the controller's class.
            if let found = declarations?.declarations(of: finding), !found.isEmpty {
                w.key("other_locations")
                w.array { w in
                    for declaration in found { CodeClimateReporter.location(locator.location(of: declaration.path).path, line: declaration.line, into: &w) }
                }
            }
        }
        output.write(issuesWritten == 0 ? "\n  " : ",\n  ")
        output.write(writer.buffer.bytes)
        issuesWritten += 1
    }

    public func finish(_ summary: RunSummary) {
        output.write(issuesWritten == 0 ? "]\n" : "\n]\n")
        output.flush()
    }
}
