import Foundation
import Testing
@testable import LCTraceKit

/// Collects what the analysis reports.
final class RecordingSink: Reporter {
    var sessions: [SessionReport] = []
    var findings: [Finding] = []
    var inputs: [InputSummary] = []
    var summary: RunSummary?

    func inputBegan(_ name: String) {}
    func finding(_ finding: Finding) { findings.append(finding) }
    func sessionClosed(_ session: SessionReport) { sessions.append(session) }
    func inputEnded(_ summary: InputSummary) { inputs.append(summary) }
    func finish(_ summary: RunSummary) { self.summary = summary }

    /// Findings of warning or error severity (leaving out the informational ones, like the post-mortem).
    var problems: [Finding] { findings.filter { $0.severity >= .warning } }
}

/// One folder for everything the test run writes (logs, reports, screenshots unless `LCTRACE_SCREENSHOT_DIR` names
/// another), in the temporary directory, removed with all it holds when the test process ends.
enum TestFiles {
    static let root: URL = {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("lctrace-test-run-\(ProcessInfo.processInfo.processIdentifier)")
        try? FileManager.default.removeItem(at: url)  // left by an earlier run whose process had the same id
        try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        atexit { try? FileManager.default.removeItem(at: TestFiles.root) }
        return url
    }()
}

enum Fixtures {
    static let repositoryRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let sampleLogs = repositoryRoot.appendingPathComponent("SampleLogs")

    static func sample(_ name: String) -> String { sampleLogs.appendingPathComponent(name).path }

    static func temporaryFile(_ contents: [UInt8], name: String = "input.log") throws -> String {
        let directory = TestFiles.root.appendingPathComponent("lctrace-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let url = directory.appendingPathComponent(name)
        try Data(contents).write(to: url)
        return url.path
    }

    static func temporaryFile(_ text: String, name: String = "input.log") throws -> String {
        try temporaryFile(Array(text.utf8), name: name)
    }
}

/// Runs the analysis over files and returns everything it reported.
func analyze(paths: [String], options: AnalysisOptions = AnalysisOptions()) throws -> RecordingSink {
    let sink = RecordingSink()
    let analyzer = try Analyzer(options: options, reporter: sink)
    for path in paths { try analyzer.analyze(.file(path)) }
    analyzer.finish()
    return sink
}

func analyze(sample name: String, options: AnalysisOptions = AnalysisOptions()) throws -> RecordingSink {
    try analyze(paths: [Fixtures.sample(name)], options: options)
}

/// `options` for reading the sample `name`: the sample of a rule that holds a run against a model is read against
/// the model of `model-base.log`, as SampleLogs/README.md says.
func options(forSample name: String, _ options: AnalysisOptions) throws -> AnalysisOptions {
    var options = options
    if let rule = Rule(rawValue: String(name.dropLast(".log".count))), rule.entry.modelExample != nil {
        options.against = try learnModel(String(contentsOfFile: Fixtures.sample("model-base.log"), encoding: .utf8))
    }
    return options
}

/// The model of the runs in `texts`, each one run (`lctrace learn`).
func learnModel(_ texts: String..., options: AnalysisOptions = AnalysisOptions()) throws -> LifecycleModel {
    var options = options
    options.learnsModel = true
    let analyzer = try Analyzer(options: options, reporter: DiscardingReporter())
    for text in texts { try analyzer.analyze(.file(try Fixtures.temporaryFile(text))) }
    analyzer.finish()
    return try #require(analyzer.model)
}

func analyze(text: String, options: AnalysisOptions = AnalysisOptions()) throws -> RecordingSink {
    try analyze(paths: [try Fixtures.temporaryFile(text)], options: options)
}

/// Runs a shell command with `$0` the built lctrace and `arguments` as `$1`…, in `directory`: for what only a shell
/// sets up (a closed descriptor, a file-size limit, a redirection).
func lctraceInShell(_ command: String, arguments: [String] = [], directory: URL = Fixtures.repositoryRoot) throws -> CommandResult {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/bin/sh")
    process.arguments = ["-c", command, try lctraceExecutable()] + arguments
    process.currentDirectoryURL = directory
    process.environment = ProcessInfo.processInfo.environment.filter { !$0.key.hasPrefix("GITHUB_") }
    let output = Pipe(), errors = Pipe()
    process.standardOutput = output
    process.standardError = errors
    try process.run()
    let out = output.fileHandleForReading.readDataToEndOfFile()
    let err = errors.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return CommandResult(status: process.terminationStatus, stdout: String(decoding: out, as: UTF8.self),
                         stderr: String(decoding: err, as: UTF8.self))
}

/// A report of `path` made in process, the way the differential tests compare them: with or without the
/// hand-written matchers, on one thread or in sections of 1 KiB (or `sectionBytes`) on several, as text, JSON or JSON Lines.
func analysisReport(of path: String, choice: LineFormatChoice = .automatic, handParsers: Bool = true, jobs: Int = 1,
                    format: String = "json", keepEvents: Bool = true, processes: [String] = [],
                    sectionBytes: Int = 1024) throws -> String {
    var options = AnalysisOptions()
    options.lineFormat = choice
    options.processFilter = ProcessFilter(names: processes, pids: [])
    options.matchers = handParsers ? .fastPath : .exactOnly
    options.sectionBytes = sectionBytes
    options.keepEvents = keepEvents
    let output = Output()
    let sink: any Reporter = switch format {
    case "text": TextReporter(output: output, style: TextStyle(enabled: false), includeEvents: true)
    case "json": JSONReporter(output: output, includeEvents: true)
    default: NDJSONReporter(output: output, includeEvents: true, flushEachLine: false)
    }
    let analyzer = try Analyzer(options: options, reporter: sink)
    try analyzer.analyze([.file(path)], jobs: jobs)
    analyzer.finish()
    return output.text
}
