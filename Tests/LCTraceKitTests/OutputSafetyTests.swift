import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import Testing
@testable import LCTraceKit

/// What a run writes never destroys what it reads or another of its outputs, a report file is whole or the old one,
/// numbers from flags and files cannot trap, and names reach terminals and CI streams escaped.
@Suite(.serialized) struct OutputSafetyTests {
    /// A folder of its own holding a copy of a sample log as `app.log`.
    static func workspace(_ sample: String = "did-appear-twice.log") throws -> URL {
        let directory = TestFiles.root.appendingPathComponent("outputs-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: Fixtures.sample(sample), toPath: directory.appendingPathComponent("app.log").path)
        return directory
    }

    static func bytes(_ directory: URL, _ name: String) throws -> Data {
        try Data(contentsOf: directory.appendingPathComponent(name))
    }

    // MARK: Outputs onto inputs

    @Test func anOutputThatNamesAnInputIsRefusedBeforeAnythingIsWritten() throws {
        let directory = try Self.workspace()
        let original = try Self.bytes(directory, "app.log")
        try FileManager.default.createSymbolicLink(atPath: directory.appendingPathComponent("link.log").path, withDestinationPath: "app.log")
        try FileManager.default.linkItem(atPath: directory.appendingPathComponent("app.log").path,
                                         toPath: directory.appendingPathComponent("hard.log").path)
        try "severity:\n  possible-leak: off\n".write(to: directory.appendingPathComponent("rules.yml"), atomically: true, encoding: .utf8)
        let baseline = try lctrace(["check", "--write-baseline", "known.json", "app.log"], directory: directory)
        #expect(baseline.status == 0, "\(baseline.stderr)")
        let known = try Self.bytes(directory, "known.json")
        let cases: [([String], String)] = [
            (["check", "--reporter", "sarif=app.log", "app.log"], "--reporter sarif=app.log would overwrite the input app.log"),
            (["-o", "app.log", "app.log"], "--output app.log would overwrite the input app.log"),
            (["-o", "link.log", "app.log"], "--output link.log would overwrite the input app.log"),
            (["check", "--reporter", "json=hard.log", "app.log"], "--reporter json=hard.log would overwrite the input app.log"),
            (["check", "--reporter", "json=./app.log", "./app.log"], "--reporter json=./app.log would overwrite the input ./app.log"),
            (["check", "--baseline", "known.json", "--reporter", "sarif=known.json", "app.log"],
             "--reporter sarif=known.json would overwrite the baseline known.json"),
            (["check", "--config", "rules.yml", "--reporter", "junit=rules.yml", "app.log"],
             "--reporter junit=rules.yml would overwrite the configuration file rules.yml"),
        ]
        for (arguments, message) in cases {
            let run = try lctrace(arguments, directory: directory)
            #expect(run.status == 2, "\(arguments)")
            #expect(run.stderr == "lctrace: \(message), which this run reads; write it elsewhere\n", "\(arguments)")
            #expect(try Self.bytes(directory, "app.log") == original, "\(arguments)")
        }
        #expect(try Self.bytes(directory, "known.json") == known)
        #expect(try String(contentsOf: directory.appendingPathComponent("rules.yml"), encoding: .utf8).hasPrefix("severity:"))
        // Standard input redirected from the file a report would replace.
        let redirected = try lctraceInShell(#"exec "$0" check --reporter sarif=app.log < app.log"#, directory: directory)
        #expect(redirected.status == 2 && redirected.stderr.contains("would overwrite standard input"), "\(redirected.stderr)")
        #expect(try Self.bytes(directory, "app.log") == original)
    }

    @Test func twoOutputsOnOneFileAreRefusedWhateverTheirSpelling() throws {
        let directory = try Self.workspace()
        try FileManager.default.createDirectory(at: directory.appendingPathComponent("sub"), withIntermediateDirectories: true)
        let cases: [([String], String)] = [
            (["check", "--reporter", "sarif=out.x", "--reporter", "json=./out.x"], "--reporter sarif=out.x and --reporter json=./out.x"),
            (["check", "--reporter", "sarif=out.x", "--reporter", "json=sub/../out.x"], "--reporter sarif=out.x and --reporter json=sub/../out.x"),
            (["check", "--reporter", "sarif=out.x", "--write-baseline", "./out.x"], "--reporter sarif=out.x and --write-baseline ./out.x"),
            (["check", "--reporter", "sarif=/dev/stdout", "--reporter", "xcode"], "--reporter sarif=/dev/stdout and standard output"),
            (["check", "--reporter", "sarif=out.x", "--reporter", "json=out.x"], "--reporter sarif=out.x and --reporter json=out.x"),
        ]
        for (arguments, labels) in cases {
            let run = try lctrace(arguments + ["app.log"], directory: directory)
            #expect(run.status == 2, "\(arguments)")
            #expect(run.stderr == "lctrace: \(labels) would write to the same file; give each its own path\n", "\(arguments)")
            #expect(!FileManager.default.fileExists(atPath: directory.appendingPathComponent("out.x").path), "\(arguments)")
        }
        // Any number of outputs may be thrown away.
        let discarded = try lctrace(["check", "--reporter", "sarif=/dev/null", "--reporter", "json=/dev/null", "--write-baseline", "/dev/null",
                                     "app.log"], directory: directory)
        #expect(discarded.status == 0, "\(discarded.stderr)")
        // `-` is standard output, for --reporter and --output alike.
        let dash = try lctrace(["check", "--reporter", "json=-", "app.log"], directory: directory)
        #expect(dash.stdout.hasPrefix("{\n  \"schemaVersion\""))
        #expect(!FileManager.default.fileExists(atPath: directory.appendingPathComponent("-").path))
        #expect(try lctrace(["-o", "-", "--no-events", "app.log"], directory: directory).stdout.hasPrefix("Session 1 · app.log"))
    }

    // MARK: Whole files

    /// Pairs of runs writing one baseline at once, each from another log: each time the file is one run's baseline,
    /// whole.
    @Test func runsWritingOneFileAtOnceLeaveOneWholeFile() throws {
        let directory = try Self.workspace("possible-leak.log")
        try FileManager.default.copyItem(atPath: Fixtures.sample("callback-after-dealloc.log"), toPath: directory.appendingPathComponent("other.log").path)
        let baseline = directory.appendingPathComponent("known.json").path
        var whole: Set<Data> = []
        for input in ["app.log", "other.log"] {
            #expect(try lctrace(["check", "--fail-on", "never", "--write-baseline", "known.json", input], directory: directory).status == 0)
            whole.insert(try Self.bytes(directory, "known.json"))
        }
        #expect(whole.count == 2)
        for round in 0..<30 {
            let runs = try ["app.log", "other.log"].map { input in
                try Self.start(["check", "--fail-on", "never", "--write-baseline", baseline, input], directory: directory)
            }
            for run in runs { run.waitUntilExit() }
            #expect(runs.allSatisfy { $0.terminationStatus == 0 }, "round \(round)")
            #expect(whole.contains(try Self.bytes(directory, "known.json")), "round \(round)")
        }
        let left = try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { $0.hasPrefix(".") }
        #expect(left.isEmpty, "temporary files left: \(left)")
    }

    /// A run that fails after its reports were opened leaves the files they would have replaced as they were, and no
    /// temporary file.
    @Test func aRunThatFailsLeavesTheOldReportsWhole() throws {
        let directory = try Self.workspace()
        try "earlier report\n".write(to: directory.appendingPathComponent("report.json"), atomically: true, encoding: .utf8)
        let lines = String(repeating: String(repeating: "a", count: 30) + "b\n", count: 5_000)
        try lines.write(to: directory.appendingPathComponent("hostile.log"), atomically: true, encoding: .utf8)
        let run = try lctrace(["--reporter", "json=report.json", "--pattern", "(?<message>(a+)+$)", "hostile.log"], directory: directory)
        #expect(run.status == 2)
        #expect(try String(contentsOf: directory.appendingPathComponent("report.json"), encoding: .utf8) == "earlier report\n")
        let left = try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { $0.hasPrefix(".") }
        #expect(left.isEmpty, "temporary files left: \(left)")
        // A report that replaces a file keeps that file's permissions.
        let report = directory.appendingPathComponent("report.json").path
        try FileManager.default.setAttributes([.posixPermissions: 0o640], ofItemAtPath: report)
        #expect(try lctrace(["--reporter", "json=report.json", "app.log"], directory: directory).status == 0)
        #expect(try FileManager.default.attributesOfItem(atPath: report)[.posixPermissions] as? Int == 0o640)
        #expect(try String(contentsOfFile: report, encoding: .utf8).hasPrefix("{"))
    }

    /// A baseline path that cannot be written fails the run before the analysis, and no report is written.
    @Test func anUnwritableBaselinePathFailsFirst() throws {
        let directory = try Self.workspace()
        let run = try lctrace(["check", "--reporter", "sarif=report.sarif", "--write-baseline", "missing/known.json", "app.log"],
                              directory: directory)
        #expect(run.status == 2)
        #expect(run.stderr == "lctrace: cannot write missing/known.json: No such file or directory\n")
        #expect(!FileManager.default.fileExists(atPath: directory.appendingPathComponent("report.sarif").path))
    }

    /// Started with standard error or output closed, lctrace does not write its own lines into a report file that
    /// took descriptor 2 or 1; a report meant for the closed standard output is an error.
    @Test func closedStandardStreamsDoNotLeakIntoReportFiles() throws {
        let directory = try Self.workspace()
        for (redirection, status) in [("2>&-", Int32(0)), (">&-", 0), ("<&- 2>&-", 0)] {
            let run = try lctraceInShell(#"exec "$0" check --reporter sarif=report.sarif app.log "# + redirection, directory: directory)
            #expect(run.status == status, "\(redirection): \(run.stderr)")
            let sarif = try JSONSerialization.jsonObject(with: Self.bytes(directory, "report.sarif")) as? [String: Any]
            #expect(sarif?["version"] as? String == "2.1.0", "\(redirection)")
        }
        let toClosed = try lctraceInShell(#"exec "$0" --reporter sarif=report.sarif --reporter text app.log >&-"#, directory: directory)
        #expect(toClosed.status == 2)
        #expect(toClosed.stderr == "lctrace: the report is incomplete: cannot write to the output: Bad file descriptor\n")
    }

    // MARK: Numbers

    @Test func numbersFromFilesAndFlagsCannotTrap() throws {
        let directory = try Self.workspace()
        let entries = #"{"rule": "a", "input": "app.log", "message": "m", "count": 9223372036854775807}, {"rule": "b", "input": "app.log", "message": "m", "count": 1}"#
        try #"{"lctraceBaseline": 1, "findings": [\#(entries)]}"#.write(to: directory.appendingPathComponent("huge.json"), atomically: true, encoding: .utf8)
        let baseline = try lctrace(["check", "--baseline", "huge.json", "app.log"], directory: directory)
        #expect(baseline.status == 2)
        #expect(baseline.stderr == "lctrace: baseline huge.json is not an lctrace baseline: its counts add up to more than 9223372036854775807\n")
        for jobs in ["4611686018427387903", "1025", "0"] {
            let run = try lctrace(["--jobs", jobs, "app.log"], directory: directory)
            #expect(run.status == 2, "\(jobs)")
            #expect(run.stderr == "lctrace: --jobs must be from 1 to 1024.\n", "\(jobs)")
        }
        #expect(try lctrace(["--jobs", "1024", "--no-events", "app.log"], directory: directory).status == 0)
        // The library bounds the threads whatever it is asked for.
        let sink = RecordingSink()
        let analyzer = try Analyzer(options: AnalysisOptions(), reporter: sink)
        try analyzer.analyze([.file(try generatedLog(bytes: "1M", seed: 3, format: "nslog-classic"))], jobs: Int.max)
        analyzer.finish()
        #expect(sink.summary?.events ?? 0 > 1_000)
    }

    // MARK: Names on terminals and CI streams

    @Test func namesAreEscapedOnEveryStreamAPersonOrACIReads() throws {
        let directory = try Self.workspace()
        let log = try String(contentsOf: directory.appendingPathComponent("app.log"), encoding: .utf8)
        // A file whose name would be a workflow command at the start of a compiler-form line.
        try log.write(to: directory.appendingPathComponent("::notice::x.log"), atomically: true, encoding: .utf8)
        let command = try lctrace(["check", "::notice::x.log"], directory: directory)
        #expect(command.stdout.hasPrefix("./::notice::x.log:4: warning: [did-appear-twice]"), "\(command.stdout)")
        // A newline and an escape in a name, in `lines`' header and in an error message.
        let odd = "two\nlines\u{1B}[31m.log"
        try log.write(to: directory.appendingPathComponent(odd), atomically: true, encoding: .utf8)
        let lines = try lctrace(["lines", odd, "app.log"], directory: directory)
        #expect(lines.stdout.hasPrefix("==> two\\x0alines\\x1b[31m.log <==\n"), "\(lines.stdout.prefix(80))")
        let missing = try lctrace(["missing\n::error::injected.log"], directory: directory)
        #expect(missing.status == 2)
        #expect(missing.stderr.split(separator: "\n").count == 1 && missing.stderr.contains("missing\\x0a::error::injected.log"), "\(missing.stderr)")
        // A right-to-left override in a file name, in the text report, the compiler form and an annotation.
        let bidi = "bidi\u{202E}gol.txt"
        try log.write(to: directory.appendingPathComponent(bidi), atomically: true, encoding: .utf8)
        for arguments in [["--no-events", bidi], ["check", bidi], ["check", "--reporter", "github-actions", bidi]] {
            let run = try lctrace(arguments, directory: directory)
            #expect(!run.stdout.unicodeScalars.contains("\u{202E}") && run.stdout.contains("bidi\\u202egol.txt"), "\(arguments): \(run.stdout)")
            #expect(!run.stderr.unicodeScalars.contains("\u{202E}"), "\(arguments): \(run.stderr)")
        }
        #expect(MarkdownText.cell("a\u{2066}b") == "a\\u2066b")
        #expect(TerminalText.escaped("\u{200F}\u{061C}") == "\\u200f\\u061c")
    }

    /// Names that are not UTF-8 reach the file system as they were given: an input is read, and a report goes to
    /// the file named.
    @Test func fileNamesThatAreNotUTF8AreKeptAsBytes() throws {
        let directory = try Self.workspace()
        let run = try lctraceInShell(#"cp app.log "$(printf 'caf\351.log')" && exec "$0" check --reporter json="$(printf 'r\351.json')" --output="$(printf 'o\351.txt')" --reporter xcode "$(printf 'caf\351.log')""#,
                                 directory: directory)
        #expect(run.status == 0, "\(run.stderr)")
        // The names as the file system holds them, byte by byte: 0xE9 (octal 351), never U+FFFD's bytes.
        let listing = try lctraceInShell("ls | od -An -c | tr -d ' \\n'", directory: directory).stdout
        #expect(listing.contains(#"r351.json"#) && listing.contains(#"o351.txt"#) && !listing.contains("357277275"), "\(listing)")
        let report = try lctraceInShell(#"cat "$(printf 'o\351.txt')""#, directory: directory).stdout
        #expect(report.hasPrefix("caf\u{FFFD}.log:4: warning: [did-appear-twice]"), "\(report)")
    }

    // MARK: Messages

    @Test func messagesNameTheRealCause() throws {
        let directory = try Self.workspace()
        let cases: [(String, String)] = [
            ("", "it is empty"),
            ("[1, 2]", "it is not an object"),
            (#"{"lctraceBaseline": "1"}"#, #""lctraceBaseline" is not a whole number"#),
            (#"{"lctraceBaseline": 1, "findings": [{"rule": "x", "input": "a", "message": "m", "count": "7"}]}"#, #""count" of finding 1 is not a whole number"#),
            (#"{"lctraceBaseline": 1, "findings": [{"rule": "x", "input": "a", "message": "m"}]}"#, #"finding 1 has no "count""#),
            ("{\"lctraceBaseline\": 1,", "it is not JSON"),
        ]
        for (text, why) in cases {
            try text.write(to: directory.appendingPathComponent("b.json"), atomically: true, encoding: .utf8)
            let run = try lctrace(["check", "--baseline", "b.json", "app.log"], directory: directory)
            #expect(run.stderr == "lctrace: baseline b.json is not an lctrace baseline: \(why)\n", "\(text)")
        }
        try "severity: [1".write(to: directory.appendingPathComponent("bad.yml"), atomically: true, encoding: .utf8)
        let config = try lctrace(["check", "--config", "bad.yml", "app.log"], directory: directory)
        #expect(config.stderr.hasPrefix("lctrace: config bad.yml: is not valid YAML: ") && !config.stderr.contains("\\x0a"), "\(config.stderr)")
        #expect(config.stderr.contains("did not find expected ',' or ']'"))
        // An argument error keeps the list of values it offers.
        let reporter = try lctrace(["--reporter", "sarf", "app.log"], directory: directory)
        #expect(reporter.status == 2)
        #expect(reporter.stderr.contains("the reporters are xcode, text, json,") && reporter.stderr.hasSuffix("mermaid-short\n"),
                "\(reporter.stderr)")
    }

    // MARK: The job summary

    /// 400 problems with long class names: the summary stays under GitHub's 1 MiB, says what it left out, and the
    /// annotations say no more of the summary than it lists.
    @Test func theJobSummaryIsCappedAndTheAnnotationsAgreeWithIt() throws {
        let directory = try Self.workspace()
        var log = ""
        for index in 0..<400 {
            let name = "C\(index)" + String(repeating: "x", count: 2_000)
            log += "\(name) viewDidLoad()\n\(name) viewWillAppear(_:)\n\(name) viewDidAppear(_:)\n\(name) viewDidAppear(_:)\n"
        }
        try log.write(to: directory.appendingPathComponent("long.log"), atomically: true, encoding: .utf8)
        let summary = directory.appendingPathComponent("summary.md").path
        let run = try lctrace(["check", "--reporter", "github-actions", "long.log"], environment: ["GITHUB_STEP_SUMMARY": summary],
                              directory: directory)
        let document = try Data(contentsOf: URL(fileURLWithPath: summary))
        #expect(document.count <= MarkdownReporter.maxBytes, "\(document.count) bytes")
        let text = String(decoding: document, as: UTF8.self)
        let rows = text.split(separator: "\n").filter { $0.hasPrefix("| warning |") }.count
        #expect(rows > 10 && rows < 400, "\(rows) rows")
        #expect(text.contains("\n\(400 - rows) more problems (\(400 - rows) findings) not listed: this summary stops at 512 KiB.\n"))
        let last = try #require(run.stdout.split(separator: "\n").last)
        #expect(last == "::warning title=lctrace::391 more problems (391 findings) not annotated: the job summary lists \(rows - 9) of these "
                    + "problems; run lctrace on the log to see them all", "\(last)")
    }

    // MARK: Interruption

    /// SIGTERM while a file is read: the reports are whole, and the run says it was interrupted and exits 143.
    @Test func anInterruptedRunOverAFileSaysSo() throws {
        let directory = try Self.workspace()
        let log = try String(contentsOfFile: Fixtures.sample("seed-push-pop.log"), encoding: .utf8)
        try String(repeating: log, count: 25_000).write(to: directory.appendingPathComponent("big.log"), atomically: true, encoding: .utf8)
        let process = try Self.start(["--format", "json", "--no-events", "-o", "report.json", "big.log"], directory: directory)
        let errors = process.standardError as! Pipe
        Thread.sleep(forTimeInterval: 0.5)
        process.terminate()
        let stderr = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationReason == .exit && process.terminationStatus == 143, "\(process.terminationStatus) \(stderr)")
        #expect(stderr.hasPrefix("lctrace: interrupted by SIGTERM: the reports are whole but cover only the "), "\(stderr)")
        let report = try #require(try JSONSerialization.jsonObject(with: Self.bytes(directory, "report.json")) as? [String: Any])
        let lines = (report["summary"] as? [String: Any])?["lines"] as? Int ?? 0
        #expect(lines > 0 && lines < 17 * 25_000, "\(lines)")
    }

    // MARK: Every reporter

    /// Every reporter, to a file under every spelling, over inputs with hostile names: the report is written where it
    /// was asked, whole (the formats that parse, parse), with no raw escape character, and the line-oriented ones
    /// with no raw bidirectional control.
    @Test func everyReporterWritesEveryHostileNameToEverySpellingOfItsPath() throws {
        let directory = try Self.workspace()
        try FileManager.default.createDirectory(at: directory.appendingPathComponent("real"), withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: directory.appendingPathComponent("linked").path, withDestinationPath: "real")
        let log = try String(contentsOf: directory.appendingPathComponent("app.log"), encoding: .utf8)
        let names = ["two\nlines\u{1B}[2J.log", "::notice::x.log", "bidi\u{202E}gol.txt", "<script>x<b>]]>--> %0A.log"]
        for name in names { try log.write(to: directory.appendingPathComponent(name), atomically: true, encoding: .utf8) }
        let spellings = ["r.out", "./r.out", "real/../r.out", "linked/r.out"]
        let lineOriented: Set<ReportKind> = [.xcode, .text, .githubActions, .markdown, .mermaid, .mermaidShort]
        for (index, reporter) in ReportKind.allCases.enumerated() {
            for (offset, name) in names.enumerated() {
                let spelling = spellings[(index + offset) % spellings.count]
                let run = try lctrace(["check", "--fail-on", "never", "--reporter", "\(reporter.rawValue)=\(spelling)", name], directory: directory)
                let label = "\(reporter.rawValue) \(spelling) \(name.debugDescription)"
                #expect(run.status == 0, "\(label): \(run.stderr)")
                #expect(!run.stderr.unicodeScalars.contains { $0 == "\u{1B}" || $0 == "\u{202E}" }, "\(label): \(run.stderr)")
                let report = try Data(contentsOf: directory.appendingPathComponent(spelling))
                #expect(!report.isEmpty && !report.contains(0x1B), "\(label)")
                if lineOriented.contains(reporter) {
                    #expect(!String(decoding: report, as: UTF8.self).unicodeScalars.contains("\u{202E}"), "\(label)")
                }
                switch reporter {
                case .json, .sarif, .codeclimate, .chromeTrace:
                    #expect((try? JSONSerialization.jsonObject(with: report)) != nil, "\(label)")
                case .ndjson:
                    for line in report.split(separator: UInt8(ascii: "\n")) {
                        #expect((try? JSONSerialization.jsonObject(with: Data(line))) != nil, "\(label)")
                    }
                case .junit, .checkstyle:
                    #expect((try? XMLDocument(data: report)) != nil, "\(label)")
                default:
                    break
                }
                try FileManager.default.removeItem(at: directory.appendingPathComponent(spelling))
            }
        }
    }

    // MARK: Helpers

    /// Starts lctrace in `directory`, its standard output and error on pipes (error on `standardError`).
    static func start(_ arguments: [String], directory: URL) throws -> Process {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: try lctraceExecutable())
        process.arguments = arguments
        process.currentDirectoryURL = directory
        process.standardOutput = FileHandle.nullDevice
        process.standardError = Pipe()
        try process.run()
        return process
    }
}
