import Foundation
import Testing
@testable import LCTraceKit

/// Input and faults a hostile or unlucky run meets: absurd numbers, a YAML bomb, control characters, bytes that are
/// not UTF-8, a full disk, a pattern that backtracks without end. Each is a usage error, a clean exit 2 or a safe
/// report, never a crash, a hang or a report that silently lost something.
@Suite(.serialized) struct HostileInputTests {
    static let sample = "SampleLogs/seed-push-pop.log"

    // MARK: Numbers and configuration

    @Test(arguments: [["--leak-timeout", "1e13"], ["--leak-timeout", "inf"], ["--leak-timeout", "nan"],
                      ["--slow-transition", "nan"], ["--slow-transition", "1e300"], ["--leak-timeout=-1"]])
    func absurdThresholdsAreOneLineUsageErrors(_ flag: [String]) throws {
        let run = try lctrace(flag + [HostileInputTests.sample])
        #expect(run.status == 2)
        #expect(run.stdout.isEmpty)
        #expect(run.stderr.hasPrefix("lctrace: " + flag[0].prefix { $0 != "=" }))
        #expect(run.stderr.filter { $0 == "\n" }.count == 1, "one line: \(run.stderr)")
    }

    @Test(arguments: ["leak-timeout: 1e400", "leak-timeout: .inf", "leak-timeout: .nan", "slow-transition: -.inf",
                      "slow-transition: 1e12"])
    func absurdThresholdsInAnAutomaticConfigAreRefused(_ yaml: String) throws {
        let directory = try Self.directory(withConfig: yaml)
        let run = try lctrace([Fixtures.repositoryRoot.appendingPathComponent(HostileInputTests.sample).path], directory: directory)
        #expect(run.status == 2)
        #expect(run.stderr.contains("config .lctrace.yml:"))
        #expect(run.stderr.contains(yaml.hasPrefix("leak") ? "leak-timeout must be a number of seconds from 0 to 86400" : "slow-transition must be"))
    }

    @Test func aYAMLAliasBombIsRefusedBeforeItExpands() throws {
        // 377 bytes that expand to 9^10 strings.
        var lines = [#"a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]"#]
        let names = Array("abcdefghij")
        for level in 1..<10 {
            lines.append("\(names[level]): &\(names[level]) [" + Array(repeating: "*\(names[level - 1])", count: 9).joined(separator: ",") + "]")
        }
        let text = lines.joined(separator: "\n") + "\n"
        #expect(text.utf8.count == 377)
        let started = Date()
        #expect(throws: ConfigError.self) { try ConfigFile.parse(text, path: "bomb.yml") }
        #expect(Date().timeIntervalSince(started) < 5)
        let run = try lctrace([Fixtures.repositoryRoot.appendingPathComponent(HostileInputTests.sample).path],
                              directory: try Self.directory(withConfig: text))
        #expect(run.status == 2)
        #expect(run.stderr == "lctrace: config .lctrace.yml: expands to more than 10000 YAML values (nested aliases?)\n")
    }

    @Test func aConfigFileLargerThanItsLimitIsRefused() throws {
        let text = "severity:\n" + String(repeating: "# padding\n", count: 7_000)
        let path = try Fixtures.temporaryFile(text, name: ".lctrace.yml")
        #expect(throws: ConfigError(path: path, message: "is larger than 64 KiB")) { try ConfigFile.load(path: path) }
    }

    @Test func aSmallConfigWithAnAliasStillReads() throws {
        let config = try ConfigFile.parse("leak-timeout: &t 5\nslow-transition: *t\n", path: "c.yml")
        #expect(config.leakTimeoutSeconds == 5)
        #expect(config.slowTransitionMs == 5)
    }

    // MARK: Control characters and bytes that are not UTF-8

    @Test func controlCharactersInAProcessNameDoNotReachTheTerminal() throws {
        let log = Data("2016-03-17 16:02:37.277 Evil\u{1B}c\u{1B}(0X[1:1] main()\n".utf8)
        let run = try lctrace(["--color", "never"], stdin: log)
        #expect(run.status == 0)
        #expect(!run.stdout.contains("\u{1B}"))
        #expect(run.stdout.contains(#"Evil\x1bc\x1b(0X[1]"#))
    }

    @Test func controlCharactersInAClassNamedByUIKitAreEscapedInFindings() throws {
        let log = Data(("2024-02-09 09:14:05.502113+0100 Shop[1:2] Unbalanced calls to begin/end appearance transitions for "
                        + "<M.Evil\u{1B}[31m\u{9B}VC: 0x1>.\n").utf8)
        for format in [["--color", "never"], ["--color", "always"]] {
            let run = try lctrace(format, stdin: log)
            #expect(run.stdout.contains(#"Evil\x1b[31m\u009bVC"#), "\(run.stdout)")
            #expect(!run.stdout.contains("\u{1B}[31m"))  // only the report's own colours, red is not among them
            #expect(!run.stdout.contains("\u{9B}"))
        }
        let lines = try lctrace(["lines"], stdin: log)
        #expect(!lines.stdout.contains("\u{1B}"))
    }

    @Test func terminalTextEscapesC0C1AndDelAndRepairsBadBytes() {
        #expect(TerminalText.escaped("plain ViewController") == "plain ViewController")
        #expect(TerminalText.escaped("a\u{1B}b\u{7F}c\u{85}d\te") == #"a\x1bb\x7fc\u0085d\x09e"#)
        #expect(TerminalText.escaped("café 日本") == "café 日本")
        let buffer = ByteBuffer(capacity: 16)
        [UInt8(ascii: "x"), 0xB3, 0xC2, 0x9B].withUnsafeBytes { TerminalText.append($0, to: buffer) }
        #expect(String(decoding: buffer.bytes, as: UTF8.self) == #"x�\u009b"#)
    }

    @Test func jsonEscapesC1AndReplacesBytesThatAreNotUTF8() throws {
        let run = try lctrace(["--format", "json", "--pattern", #"^(?<time>\S+) (?<message>.*)$"#],
                              stdin: Data([0xB3, 0x20] + Array("main()\n".utf8)))
        #expect(run.status == 0)
        #expect(run.stdout.contains(#""time": "\#u{FFFD}""#), "\(run.stdout)")
        let c1 = try lctrace(["--format", "json"], stdin: Data("2016-03-17 16:02:37.277 A\u{9B}B[1:1] main()\n".utf8))
        #expect(c1.stdout.contains(#""process": "A\u009bB""#))
        #expect(try JSONSerialization.jsonObject(with: Data(c1.stdout.utf8)) is [String: Any])
        for format in ["ndjson", "json"] {
            let events = try lctrace(["--format", format], stdin: Data([0xFF] + Array(" ViewController viewDidLoad\n".utf8)))
            #expect(!events.stdout.utf8.contains(0xFF))
        }
    }

    // MARK: Output that cannot be written

    /// A file that cannot grow, as on a full disk: the file-size limit set to 0 (RLIMIT_FSIZE, with SIGXFSZ ignored so
    /// that the write fails with EFBIG rather than the signal ending the process), which every platform has.
    @Test(arguments: ["text", "json", "ndjson"])
    func aFileThatCannotGrowIsAnErrorNotASilentSuccess(_ format: String) throws {
        let report = try Fixtures.temporaryFile("", name: "report.\(format)")
        let run = try lctraceInShell(#"trap '' XFSZ; ulimit -f 0; out="$1"; shift; exec "$0" "$@" > "$out""#,
                                     arguments: [report, "--format", format, Fixtures.repositoryRoot.appendingPathComponent(HostileInputTests.sample).path])
        #expect(run.status == 2)
        #expect(run.stderr == "lctrace: the report is incomplete: cannot write to the output: File too large\n")
        #expect(try Data(contentsOf: URL(fileURLWithPath: report)).isEmpty)
    }

    /// A descriptor that every write to fails (EBADF): a file opened for reading only.
    static func unwritableDescriptor() throws -> Int32 {
        let fd = open(try Fixtures.temporaryFile("", name: "read-only"), O_RDONLY)
        #expect(fd >= 0)
        var byte: UInt8 = 0
        #expect(write(fd, &byte, 1) == -1 && errno == EBADF)
        return fd
    }

    @Test func aClosedStandardOutputIsAnError() throws {
        let run = try lctraceInShell(#"exec "$0" "$1" >&-"#, arguments: [Fixtures.repositoryRoot.appendingPathComponent(HostileInputTests.sample).path])
        #expect(run.status == 2)
        #expect(run.stderr.contains("cannot write to the output: Bad file descriptor"))
    }

    @Test func findingsPutAsideSurviveAFileThatCannotBeWritten() throws {
        let spool = Spool(fileDescriptor: try Self.unwritableDescriptor())
        var expected: [UInt8] = []
        for index in 0..<5_000 {
            let piece = Array(",\n    {\"finding\": \(index)}".utf8)
            expected += piece
            piece.withUnsafeBytes { spool.append($0) }
        }
        let output = Output()
        spool.drain(into: output)
        #expect(output.failure == nil)
        #expect(output.text == String(decoding: expected, as: UTF8.self))
    }

    @Test func aJSONReportsFindingsAgreeWithItsSummaryWhenTheTemporaryFileFails() throws {
        let output = Output()
        let renderer = JSONReporter(output: output, includeEvents: false, findings: Spool(fileDescriptor: try Self.unwritableDescriptor()))
        let analyzer = try Analyzer(options: AnalysisOptions(), reporter: renderer)
        // Three hundred controllers that each appear twice: 300 warnings.
        var log = ""
        for index in 0..<300 {
            log += "V\(index) viewDidLoad\nV\(index) viewWillAppear:\nV\(index) viewDidAppear:\nV\(index) viewDidAppear:\n"
        }
        try analyzer.analyze(.file(try Fixtures.temporaryFile(log)))
        analyzer.finish()
        let report = try #require(try JSONSerialization.jsonObject(with: Data(output.text.utf8)) as? [String: Any])
        let findings = try #require(report["findings"] as? [Any])
        let summary = try #require(report["summary"] as? [String: Any])
        let counts = try #require(summary["findings"] as? [String: Int])
        #expect(findings.count == counts.values.reduce(0, +))
        #expect(findings.count >= 300)
    }

    // MARK: Patterns

    @Test func aPatternThatBacktracksWithoutEndIsGivenUp() throws {
        let lines = String(repeating: String(repeating: "a", count: 30) + "b\n", count: 5_000)
        let path = try Fixtures.temporaryFile(lines)
        let started = Date()
        let run = try lctrace(["--pattern", "(?<message>(a+)+$)", path])
        #expect(Date().timeIntervalSince(started) < 60)
        #expect(run.status == 2)
        #expect(run.stderr == "lctrace: \(path): 1000 lines in a row hit the regular expression match limit; the line pattern backtracks too much\n")
    }

    @Test func aFewSlowLinesAmongGoodOnesAreCountedNotFatal() throws {
        var log = ""
        for index in 0..<50 { log += String(repeating: "a", count: 30) + "b\nx V\(index) viewDidLoad\n" }
        let run = try lctrace(["--format", "json", "--no-events", "--pattern", "^(?:(a+)+$|(?<time>x) (?<message>.*))",
                               try Fixtures.temporaryFile(log)])
        #expect(run.status == 0)
        #expect(run.stdout.contains(#""regex-limit": 50"#))
    }

    @Test func aPatternWithoutKnownGroupsIsAUsageError() throws {
        let run = try lctrace(["--pattern", "^abc", HostileInputTests.sample])
        #expect(run.status == 2)
        #expect(run.stderr == "lctrace: --pattern: the pattern names none of the groups time, process, pid, tid, message, as in (?<message>.*).\n")
    }

    @Test func aHugeBadPatternIsNotEchoedBack() throws {
        let run = try lctrace(["--pattern", String(repeating: "(", count: 100_000), HostileInputTests.sample])
        #expect(run.status == 2)
        #expect(run.stderr.utf8.count < 400)
        #expect(run.stderr.filter { $0 == "\n" }.count == 1)
    }

    // MARK: Clocks

    @Test(arguments: ["9999-99-99 99:99:99.999", "2016-02-30 24:60:60.000", "2016-02-30 12:00:00.000", "2015-02-29 12:00:00.000",
                      "2016-13-01 12:00:00.000", "2016-03-17 24:00:00.000", "2016-03-17 16:60:00.000", "2016-03-17 16:02:61.000",
                      "2016-03-17 25:02:37.277804+0100", "Feb 30 16:02:37", "Mar 17 16:72:37", "16:02:99.118204+0100"])
    func impossibleDatesAndTimesAreNotRead(_ text: String) {
        #expect(Timestamp.microseconds(text) == nil)
        var reader = TimestampReader()
        var copy = text
        #expect(copy.withUTF8 { reader.microseconds(UnsafeRawBufferPointer($0)) } == nil)
    }

    @Test(arguments: ["2016-02-29 12:00:00.000", "2000-02-29 23:59:59.999", "2016-12-31 23:59:60.000", "Dec 31 23:59:59",
                      "2016-03-17 16:02:37.277804+0100", "00:00:00.000"])
    func possibleDatesAndTimesAreRead(_ text: String) {
        #expect(Timestamp.microseconds(text) != nil)
    }

    @Test func eventsWithImpossibleTimesAreCountedAndHaveNoTime() throws {
        let result = try analyze(text: """
            9999-99-99 99:99:99.999 LifeCycle[1:1] main()
            2016-02-30 24:60:60.000 LifeCycle[1:1] ViewController >>>> viewDidLoad
            2016-03-17 16:02:47.200 LifeCycle[1:1] ViewController >>>> viewWillAppear:

            """)
        #expect(result.summary?.unreadTimes == 2)
        #expect(result.sessions.first?.durationMs == 0)
        let run = try lctrace(["--no-events", try Fixtures.temporaryFile("2016-02-30 24:60:60.000 App[1:1] A >>>> viewDidLoad\n")])
        #expect(run.stdout.contains("1 event (1 with a time that could not be read)"))
    }

    @Test func aClockThatGoesBackIsReportedAndNoDurationIsNegative() throws {
        let result = try analyze(text: """
            2016-03-17 16:02:47.000 LifeCycle[1:1] main()
            2016-03-17 16:02:47.100 LifeCycle[1:1] A >>>> viewDidLoad
            2016-03-17 16:02:47.200 LifeCycle[1:1] A >>>> viewWillAppear:
            2016-03-17 16:02:37.200 LifeCycle[1:1] A >>>> viewDidAppear:
            2016-03-17 16:02:38.000 LifeCycle[1:1] A >>>> viewWillDisappear:
            2016-03-17 16:02:27.000 LifeCycle[1:1] A >>>> viewDidDisappear:

            """)
        #expect(result.findings.filter { $0.rule == .clockWentBack }.map(\.line) == [4, 6])
        #expect(result.findings.first { $0.rule == .clockWentBack }?.message
                == "the logged time went back 10.000 s, from 2016-03-17 16:02:47.200 to 2016-03-17 16:02:37.200; durations across the step count it as zero")
        let session = try #require(result.sessions.first)
        var durations = [session.durationMs] + session.transitions.map(\.durationMs) + session.controllers.map(\.loadToFirstAppearMs)
        durations += session.controllers.flatMap { $0.appearances.map(\.durationMs) }
        durations += session.controllers.flatMap { $0.events.map(\.offsetMs) }
        #expect(durations.allSatisfy { ($0 ?? 0) >= 0 }, "\(durations)")
    }

    @Test func theTimingTablesMaximumIsTheLongestDurationListed() throws {
        // viewDidLoad → viewDidAppear of two hours: the table used to say one hour.
        let result = try analyze(text: """
            2016-03-17 10:00:00.000 LifeCycle[1:1] A >>>> viewDidLoad
            2016-03-17 10:00:00.100 LifeCycle[1:1] A >>>> viewWillAppear:
            2016-03-17 12:00:00.000 LifeCycle[1:1] A >>>> viewDidAppear:

            """)
        let listed = try #require(result.sessions.first?.controllers.first?.loadToFirstAppearMs)
        let row = try #require(result.summary?.loadToAppearByClass.first)
        #expect(listed == 7_200_000)
        #expect(row.maxMs == listed && row.p50Ms == listed && row.p90Ms == listed)
    }

    // MARK: Memory per controller class

    @Test func perClassTimingKeepsAtMostItsCapOfRowsAndCountsTheRest() {
        var aggregator = DurationAggregator()
        let names = DurationAggregator.maxNames + 4_000
        for index in 0..<names { aggregator.record(Double(index % 100), for: "Class\(index)") }
        let rows = aggregator.stats()
        #expect(rows.count == DurationAggregator.maxNames + 1)
        #expect(rows.last?.name == "(other classes)")
        #expect(rows.last?.count == 4_000)
        #expect(rows.reduce(0) { $0 + $1.count } == names)
    }

    /// The table of names finds every name it gave a row, at that row, through many growths, under either spelling of
    /// a name that is not ASCII; finds none it was not given (names alike in their bytes but for one, short and long,
    /// and not ASCII); and keeps each row with its name
    /// when the table of durations it indexes is copied and then changed.
    @Test func nameRowsFindEveryNameAtItsRowAndNoOther() {
        var rows = NameRows()
        let names = (0..<3_000).map { $0 % 3 == 0 ? "C\($0)" : $0 % 3 == 1 ? "Screen\($0)ViewController" : "Écran\($0)" }
        for (row, name) in names.enumerated() {
            #expect(rows.row(of: name) == nil)
            #expect(rows.add(name) == row)
        }
        for (row, name) in names.enumerated() { #expect(rows.row(of: name) == row, "\(name)") }
        for absent in ["C1", "C3000", "Screen0ViewController", "Screen1ViewControllers", "Écran2 ", "", "c0"] {
            #expect(rows.row(of: absent) == nil, "\(absent)")
        }
        // One text spelled two ways (the accent in the letter's character, or a character of its own) is one name.
        #expect(rows.row(of: "E\u{301}cran2") == rows.row(of: "Écran2") && rows.row(of: "Écran2") != nil)
        var aggregator = DurationAggregator()
        aggregator.record(10, for: "A")
        var copy = aggregator
        copy.record(20, for: "B")
        aggregator.record(30, for: "C")
        #expect(aggregator.stats().map(\.name) == ["A", "C"] && aggregator.stats()[1].maxMs == 30)
        #expect(copy.stats().map(\.name) == ["A", "B"] && copy.stats()[1].maxMs == 20)
    }

    @Test func aBusyClassKeepsExactPercentilesUntilItsHistogramAndThenWithinOnePercent() {
        var aggregator = DurationAggregator()
        for ms in 1...DurationAggregator.exactSamples { aggregator.record(Double(ms), for: "A") }
        let exact = aggregator.stats()[0]
        #expect(exact.p50Ms == 128 && exact.p90Ms == 231 && exact.maxMs == 256)
        for ms in 1...10_000 { aggregator.record(Double(ms), for: "B") }
        let estimated = aggregator.stats()[1]
        #expect(estimated.count == 10_000 && estimated.maxMs == 10_000)
        #expect(abs(estimated.p50Ms - 5_000) <= 50 && abs(estimated.p90Ms - 9_000) <= 90)
    }

    // MARK: Mutations of real logs

    /// Lines of every sample log, mutated with what hostile input holds (escape sequences, C1 controls, bytes that are
    /// not UTF-8, lone CRs, NULs, impossible digits, quotes), analysed into a text and a JSON report in memory: the
    /// JSON parses, the text holds no control character but its newlines, and every line is accounted for.
    @Test func mutatedSampleLogsGiveSafeReportsThatAccountForEveryLine() throws {
        let samples = try FileManager.default.contentsOfDirectory(atPath: Fixtures.sampleLogs.path).filter { $0.hasSuffix(".log") }.sorted()
        let lines = try samples.flatMap { name in
            try Data(contentsOf: Fixtures.sampleLogs.appendingPathComponent(name)).split(separator: 0x0A).map(Array.init)
        }
        let specials: [[UInt8]] = [[0x1B], [0x1B, 0x5B, 0x33, 0x31, 0x6D], [0xC2, 0x9B], [0x9B], [0xFF], [0xB3], [0x0D], [0x00],
                                   [0x7F], [0x39, 0x39], [0x22], [0x5C], [0xE2, 0x80, 0xA6], [0x3C], [0x3E], [0x3A]]
        var random = MutationRandom(seed: 20)
        for round in 0..<120 {
            var log: [UInt8] = []
            for _ in 0..<30 {
                var line = lines[Int(random.next() % UInt64(lines.count))]
                for _ in 0..<Int(random.next() % 3) where !line.isEmpty {
                    let at = Int(random.next() % UInt64(line.count))
                    line.replaceSubrange(at..<min(line.count, at + Int(random.next() % 3)), with: specials[Int(random.next() % UInt64(specials.count))])
                }
                log += line + [0x0A]
            }
            let path = try Fixtures.temporaryFile(log)
            let text = Output(), json = Output()
            let textAnalyzer = try Analyzer(options: AnalysisOptions(), reporter: TextReporter(output: text, style: TextStyle(enabled: false), includeEvents: true))
            try textAnalyzer.analyze(.file(path))
            let summary = textAnalyzer.finish()
            let jsonAnalyzer = try Analyzer(options: AnalysisOptions(), reporter: JSONReporter(output: json, includeEvents: true))
            try jsonAnalyzer.analyze(.file(path))
            jsonAnalyzer.finish()
            #expect(summary.lines == LineDisposition.allCases.reduce(0) { $0 + summary.lines($1) } + summary.skippedLines, "round \(round)")
            let unsafe = text.text.unicodeScalars.filter { ($0.value < 0x20 && $0 != "\n") || (0x7F..<0xA0).contains($0.value) }
            #expect(unsafe.isEmpty, "round \(round): \(unsafe.map(\.value))")
            #expect((try? JSONSerialization.jsonObject(with: Data(json.text.utf8))) is [String: Any], "round \(round)")
        }
    }

    // MARK: Helpers

    /// A new directory holding `.lctrace.yml` with `config`.
    static func directory(withConfig config: String) throws -> URL {
        URL(fileURLWithPath: try Fixtures.temporaryFile(config, name: ".lctrace.yml")).deletingLastPathComponent()
    }

    /// Runs lctrace with its standard output sent to `stdout`.
    static func run(_ arguments: [String], stdout: FileHandle) throws -> CommandResult {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: try lctraceExecutable())
        process.arguments = arguments
        process.currentDirectoryURL = Fixtures.repositoryRoot
        process.standardOutput = stdout
        let errors = Pipe()
        process.standardError = errors
        try process.run()
        let stderr = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return CommandResult(status: process.terminationStatus, stdout: "", stderr: stderr)
    }
}
