/// The word each report that tags findings one by one gives a severity, in one table: the compiler form Xcode and
/// editors read (`file:line: error: …`), SARIF's `level`, GitHub's workflow commands (`::error …`), Code Climate's
/// `severity` and Checkstyle's `severity` attribute.
struct SeverityWords {
    let compiler: StaticString
    let sarif: StaticString
    let githubActions: StaticString
    let codeClimate: StaticString
    let checkstyle: StaticString

    static func of(_ severity: Severity) -> SeverityWords {
        switch severity {
        case .error:
            return SeverityWords(compiler: "error", sarif: "error", githubActions: "error", codeClimate: "major", checkstyle: "error")
        case .warning:
            return SeverityWords(compiler: "warning", sarif: "warning", githubActions: "warning", codeClimate: "minor", checkstyle: "warning")
        case .info:
            return SeverityWords(compiler: "note", sarif: "note", githubActions: "notice", codeClimate: "info", checkstyle: "info")
        }
    }
}

/// The family of reports that tag findings one by one, each at its input and line with a word for its severity (as
/// xcbeautify's Microsoft-style renderers share one protocol): the compiler form, SARIF, GitHub annotations, Code
/// Climate and Checkstyle. Each names its column of the one table of words, `SeverityWords`.
protocol FindingTagging: Reporter {
    static var severityWords: KeyPath<SeverityWords, StaticString> { get }
}

extension FindingTagging {
    /// This report's word for `severity`.
    static func word(for severity: Severity) -> StaticString { SeverityWords.of(severity)[keyPath: severityWords] }
}
