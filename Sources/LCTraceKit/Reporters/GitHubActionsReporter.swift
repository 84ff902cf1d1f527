/// `--reporter github-actions`: workflow commands that GitHub shows as annotations on the job and the pull request,
/// `::error file=…,line=…,title=[rule]::message`.
///
/// GitHub shows at most ten error and ten warning annotations of a step (and ten notices), so the findings are
/// grouped by severity, rule and controller class, and the ten slots of each severity go to the most frequent
/// distinct problems; a group's annotation names its other lines. When there are more groups than slots, the last
/// slot says how many were left out. With a job summary file (`$GITHUB_STEP_SUMMARY`), the full Markdown table is
/// appended to it.
public final class GitHubActionsReporter: FindingTagging {
    /// Made of findings and the run's summary: it reads no session report.
    public var readsSessions: Bool { false }

    static var severityWords: KeyPath<SeverityWords, StaticString> { \.githubActions }

    /// The annotations GitHub shows per severity and step.
    public static let annotationsPerSeverity = 10

    private let output: Output
    private let stepSummary: Output?
    private var groups = FindingGroups()
    /// Where the findings' classes are declared: an annotation goes on the declaration, in the pull request's files,
    /// and quotes where in the log it was found.
    private let declarations: ControllerDeclarations?

    public init(output: Output, stepSummary: Output? = nil, declarations: ControllerDeclarations? = nil) {
        self.output = output
        self.stepSummary = stepSummary
        self.declarations = declarations
    }

    public func finding(_ finding: Finding) { groups.add(finding) }

    public func finish(_ summary: RunSummary) {
        // The job summary first: what the annotations say of it depends on which problems it could list.
        let document = stepSummary.map { _ in MarkdownReporter.document(groups, summary: summary) }
        let listedOrders = Set(groups.ranked.prefix(document?.listedGroups ?? 0).map(\.order))
        for severity in Severity.mostSevereFirst {
            let ranked = groups.ranked(severity)
            let budget = GitHubActionsReporter.annotationsPerSeverity
            let shown = ranked.count > budget ? budget - 1 : ranked.count
            for group in ranked.prefix(shown) {
                let first = group.first
                // On the declaration when the class has exactly one.
                if let found = declarations?.declarations(of: first), found.count == 1, let declaration = found.first {
                    // Named as the other CI reports name files: from the working directory (the repository's root in
                    // a workflow), `.` and `..` resolved.
                    let path = InputLocation(input: declaration.path, workingDirectory: InputLocation.workingDirectory(nil)).path
                    output.write(GitHubActionsReporter.command(severity, properties: [
                        ("file", path), ("line", "\(declaration.line)"), ("title", "[\(first.rule.rawValue)]"),
                    ], message: "\(first.input):\(first.line): " + first.message + group.moreSuffix))
                } else {
                    output.write(GitHubActionsReporter.command(severity, properties: [
                        ("file", first.input), ("line", "\(first.line)"), ("title", "[\(first.rule.rawValue)]"),
                    ], message: first.message + group.moreSuffix))
                }
            }
            let left = ranked.dropFirst(shown)
            let ungrouped = groups.ungrouped[severity] ?? 0
            let leftFindings = left.reduce(0) { $0 + $1.count } + ungrouped
            if leftFindings > 0 {
                let problems = left.isEmpty ? "" : "\(TextFormat.plural(left.count, "more problem")) (\(TextFormat.plural(leftFindings, "finding")))"
                let listed = left.filter { listedOrders.contains($0.order) }.count
                let whereToLook: String
                if document == nil || listed == 0 {
                    whereToLook = "run lctrace on the log to see them"
                } else if listed == left.count, ungrouped == 0 {
                    whereToLook = "the job summary lists them"
                } else {
                    whereToLook = "the job summary lists \(listed) of these problems; run lctrace on the log to see them all"
                }
                let message = (problems.isEmpty ? TextFormat.plural(leftFindings, "more finding") : problems) + " not annotated: " + whereToLook
                output.write(GitHubActionsReporter.command(severity, properties: [("title", "lctrace")], message: message))
            }
        }
        output.flush()
        if let stepSummary, let document {
            stepSummary.write(document.text)
            stepSummary.flush()
        }
    }

    /// One workflow command line. Its message escapes `%`, CR and LF; property values escape `,` and `:` too, as
    /// GitHub's toolkit does.
    static func command(_ severity: Severity, properties: [(String, String)], message: String) -> String {
        let name = word(for: severity)
        let list = properties.map { "\($0.0)=\(escaped($0.1, property: true))" }.joined(separator: ",")
        return "::\(name) \(list)::\(escaped(message, property: false))\n"
    }

    static func escaped(_ text: String, property: Bool) -> String {
        var out = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "%": out += "%25"
            case "\r": out += "%0D"
            case "\n": out += "%0A"
            case ":" where property: out += "%3A"
            case "," where property: out += "%2C"
            default: out.unicodeScalars.append(scalar)
            }
        }
        return TerminalText.escaped(out)
    }
}
