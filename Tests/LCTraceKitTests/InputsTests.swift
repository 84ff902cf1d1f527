import Foundation
import Testing
@testable import LCTraceKit

/// Inputs as the command line names them: folders (every log below them), log archives, one app's lines in a
/// whole-device log (`--process`, `--pid`), piped input under a name (`--stdin-name`), and a CI check that cannot pass
/// on a log with nothing in it.
@Suite(.serialized) struct InputsTests {
    /// A new empty folder for one test, and `lctrace` run in it (so that reports name the paths as given).
    struct Folder {
        let url = TestFiles.root.appendingPathComponent("inputs-\(UUID().uuidString)")

        init() throws {
            try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        }

        var path: String { url.path }

        /// Writes `contents` at `relative`, making the folders on the way.
        @discardableResult
        func write(_ relative: String, _ contents: [UInt8]) throws -> String {
            let file = url.appendingPathComponent(relative)
            try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(contents).write(to: file)
            return file.path
        }

        @discardableResult
        func write(_ relative: String, _ text: String) throws -> String { try write(relative, Array(text.utf8)) }

        /// Copies a sample log to `relative`.
        func sample(_ name: String, to relative: String) throws {
            try write(relative, [UInt8](try Data(contentsOf: Fixtures.sampleLogs.appendingPathComponent(name))))
        }

        func mkdir(_ relative: String) throws {
            try FileManager.default.createDirectory(at: url.appendingPathComponent(relative), withIntermediateDirectories: true)
        }

        func link(_ relative: String, to destination: String) throws {
            try FileManager.default.createSymbolicLink(atPath: url.appendingPathComponent(relative).path, withDestinationPath: destination)
        }

        func run(_ arguments: [String], stdin: Data? = nil) throws -> CommandResult {
            try lctrace(arguments, stdin: stdin, directory: url)
        }
    }

    /// `SampleLogs/seed-push-pop.log` compressed by gzip.
    static let gzippedSeed = Fixtures.repositoryRoot.appendingPathComponent("Tests/LCTraceKitTests/Fixtures/gzip/seed-push-pop.log.gz")

    /// The JSON report's summary.
    static func summary(_ result: CommandResult) throws -> [String: Any] {
        let report = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any], "\(result.stderr)")
        return try #require(report["summary"] as? [String: Any])
    }

    /// The inputs of a JSON report, in the order it lists them.
    static func inputNames(_ result: CommandResult) throws -> [String] {
        try #require(try summary(result)["perInput"] as? [[String: Any]]).compactMap { $0["name"] as? String }
    }

    // MARK: Folders

    /// Every log below a folder is read, in subfolders too, sorted by path bytes (`-` < `.` < `/`), named by its path
    /// as reached; hidden files and folders and files of other kinds are left out; a gzip file is inflated; a folder
    /// named like a log is a folder.
    @Test func aFolderReadsEveryLogBelowItInPathOrder() throws {
        let folder = try Folder()
        try folder.sample("seed-push-pop.log", to: "logs/b.log")
        try folder.sample("did-appear-twice.log", to: "logs/a.log")
        try folder.sample("did-appear-twice.log", to: "logs/a-b.txt")
        try folder.sample("tab-switch.log", to: "logs/a/app.log")
        try folder.sample("seed-push-pop.log", to: "logs/deep/er/still.NDJSON")
        try folder.sample("seed-push-pop.log", to: "logs/x.log/inside.crash")
        try folder.write("logs/c.log.gz", [UInt8](try Data(contentsOf: Self.gzippedSeed)))
        try folder.sample("did-appear-twice.log", to: "logs/.hidden.log")
        try folder.sample("did-appear-twice.log", to: "logs/.git/objects.log")
        try folder.write("logs/notes.md", "HomeViewController viewDidLoad()\n")
        try folder.write("logs/logs", "HomeViewController viewDidLoad()\n")
        try folder.write("logs/image.png", [0x89, 0x50, 0x4E, 0x47])

        let result = try folder.run(["--format", "json", "--no-events", "logs/"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try Self.inputNames(result) == ["logs/a-b.txt", "logs/a.log", "logs/a/app.log", "logs/b.log", "logs/c.log.gz",
                                                "logs/deep/er/still.NDJSON", "logs/x.log/inside.crash"])
        let gzipped = try #require(try Self.summary(result)["perInput"] as? [[String: Any]]).first { $0["name"] as? String == "logs/c.log.gz" }
        #expect(gzipped?["events"] as? Int == 16)

        // Without the trailing slash, and with `check`: the findings name the files below.
        let check = try folder.run(["check", "logs"])
        #expect(check.status == 0)
        #expect(check.stdout.contains("logs/a.log:4: warning: [did-appear-twice]"))
        #expect(check.stderr.contains(" of 7 inputs ("), "\(check.stderr)")
    }

    /// `--jobs 1` and `--jobs 2` give the same reports over a folder, byte for byte.
    @Test func aFolderIsReportedTheSameWithOneJobOrTwo() throws {
        let samples = try FileManager.default.contentsOfDirectory(atPath: Fixtures.sampleLogs.path).filter { $0.hasSuffix(".log") }
        for arguments in [["--no-events"], ["--format", "json"], ["--format", "ndjson"], ["check", "--fail-on", "never"]] {
            let one = try lctrace(arguments + ["--jobs", "1", "SampleLogs"])
            let two = try lctrace(arguments + ["--jobs", "2", "SampleLogs"])
            #expect(one.status == 0, "\(arguments): \(one.stderr)")
            #expect(!one.stdout.isEmpty)
            #expect(one.stdout == two.stdout, "\(arguments)")
            #expect(one.stderr == two.stderr, "\(arguments)")
        }
        let report = try lctrace(["--format", "json", "--no-events", "--jobs", "2", "SampleLogs"])
        #expect(try Self.inputNames(report) == samples.sorted().map { "SampleLogs/" + $0 })
    }

    /// A link to a folder is not followed (so links that loop end nowhere); a link to a file is read by its own path.
    @Test func linksToFoldersAreNotFollowedAndLinksToFilesAreRead() throws {
        let folder = try Folder()
        try folder.sample("did-appear-twice.log", to: "logs/app.log")
        try folder.sample("seed-push-pop.log", to: "elsewhere/real.log")
        try folder.link("logs/up", to: "..")
        try folder.link("logs/here.log", to: ".")
        try folder.mkdir("logs/sub")
        try folder.link("logs/sub/loop", to: "../..")
        try folder.link("logs/linked.log", to: "../elsewhere/real.log")
        for jobs in ["1", "2"] {
            let result = try folder.run(["--format", "json", "--no-events", "--jobs", jobs, "logs"])
            #expect(result.status == 0, "\(result.stderr)")
            #expect(try Self.inputNames(result) == ["logs/app.log", "logs/linked.log"])
        }
    }

    /// A file below a folder that cannot be read is named on stderr when it is reached, the others are read and
    /// reported, and the run ends with status 2, saying why last: a corrupt gzip file (what was read of it counts), and
    /// a file without read permission (unless the tests run as root, who reads it anyway).
    @Test func anUnreadableFileBelowAFolderIsNamedAndTheOthersAreRead() throws {
        let folder = try Folder()
        try folder.sample("did-appear-twice.log", to: "logs/a.log")
        try folder.write("logs/b.log.gz", [0x1F, 0x8B] + Array("not gzip data at all\n".utf8))
        let whole = [UInt8](try Data(contentsOf: Self.gzippedSeed))
        try folder.write("logs/c.log.gz", Array(whole.prefix(whole.count / 2)))
        try folder.sample("seed-push-pop.log", to: "logs/d.log")
        let locked = try folder.write("logs/e.log", "HomeViewController viewDidLoad()\n")
        try FileManager.default.setAttributes([.posixPermissions: 0], ofItemAtPath: locked)
        defer { try? FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: locked) }
        let lockedOut = !FileManager.default.isReadableFile(atPath: locked)
        try folder.sample("did-appear-twice.log", to: "logs/f.log")

        var reports: [String] = []
        for jobs in ["1", "2"] {
            let result = try folder.run(["check", "--verbose", "--jobs", jobs, "logs"])
            #expect(result.status == 2)
            #expect(result.stdout.contains("logs/a.log:4: warning: [did-appear-twice]"))
            #expect(result.stdout.contains("logs/f.log:4: warning: [did-appear-twice]"))
            #expect(result.stdout.contains("logs/d.log:17: note: [session-ended-abruptly]"))
            #expect(!result.stdout.contains("no-lifecycle-events"), "a file that could not be read is not an empty one")
            let errors = result.stderr.split(separator: "\n").map(String.init)
            #expect(errors.contains { $0.hasPrefix("lctrace: logs/b.log.gz: read failed: gzip: ") }, "\(errors)")
            #expect(errors.contains { $0.hasPrefix("lctrace: logs/c.log.gz: read failed: gzip: ") }, "\(errors)")
            #expect(errors.contains("lctrace: logs/e.log: cannot open: Permission denied") == lockedOut, "\(errors)")
            #expect(errors.last == "lctrace: \(lockedOut ? 3 : 2) of the paths below the folders given could not be read (named above); the reports cover the rest")
            reports.append(result.stdout)
        }
        #expect(reports[0] == reports[1])
        // The half of c.log.gz that inflated is read and counted.
        let json = try folder.run(["--format", "json", "--no-events", "logs"])
        #expect(json.status == 2)
        let inputs = try #require(try Self.summary(json)["perInput"] as? [[String: Any]])
        let cut = try #require(inputs.first { $0["name"] as? String == "logs/c.log.gz" })
        #expect((cut["lines"] as? Int ?? 0) > 0)
        // A file named itself that cannot be read still ends the run at once, before any report.
        let named = try folder.run(["check", "logs/a.log", "logs/b.log.gz", "logs/d.log"])
        #expect(named.status == 2)
        #expect(named.stderr.hasPrefix("lctrace: logs/b.log.gz: read failed: gzip: "))
        #expect(!named.stdout.contains("logs/d.log"))
    }

    /// A folder with no log below it, and a followed folder, are errors that name it; so is a folder that cannot be
    /// listed.
    @Test func aFolderWithNoLogIsAnErrorNamingIt() throws {
        let folder = try Folder()
        try folder.write("empty/notes.md", "nothing\n")
        try folder.sample("did-appear-twice.log", to: "empty/.hidden.log")
        try folder.sample("did-appear-twice.log", to: "empty/.cache/x.log")
        try folder.mkdir("empty/sub")
        let result = try folder.run(["check", "empty"])
        #expect(result.status == 2)
        #expect(result.stderr.hasPrefix("lctrace: empty: is a directory with no log file below it (a name ending .log, .txt, .gz"))
        #expect(result.stdout.isEmpty)
        let followed = try folder.run(["--follow", "empty"])
        #expect(followed.status == 2)
        #expect(followed.stderr == "lctrace: empty: is a directory\n")
    }

    /// Ten thousand small logs in a hundred folders: all read, in order, in a few seconds.
    @Test func tenThousandSmallFiles() throws {
        let folder = try Folder()
        let log = Array("HomeViewController viewDidLoad()\nHomeViewController viewWillAppear(_:)\nHomeViewController viewDidAppear(_:)\n".utf8)
        for group in 0..<100 {
            try folder.mkdir("many/g\(group)")
            for file in 0..<100 {
                try Data(log).write(to: folder.url.appendingPathComponent("many/g\(group)/f\(file).log"))
            }
        }
        let started = Date()
        let result = try folder.run(["check", "--jobs", "2", "many"])
        let seconds = Date().timeIntervalSince(started)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr == "lctrace: 0 errors, 0 warnings, 0 info in 10000 sessions of 10000 inputs (30000 lines, 30000 lifecycle events)\n")
        #expect(seconds < 10, "\(seconds) s")
        let first = try folder.run(["--no-events", "--jobs", "1", "many"]).stdout.split(separator: "\n").first
        #expect(first == "Session 1 · many/g0/f0.log · lines 1–3")
    }

    /// The run's own reports are not read as logs when they are written among them.
    @Test func theRunsOwnReportsBelowAFolderAreLeftOut() throws {
        let folder = try Folder()
        try folder.sample("did-appear-twice.log", to: "logs/app.log")
        try folder.write("logs/report.json", "{}\n")
        try folder.write("logs/check.txt", "old\n")
        let result = try lctraceInShell("\"$0\" check --reporter json=logs/report.json logs > logs/check.txt", directory: folder.url)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.contains(" of 1 input "), "\(result.stderr)")
    }

    // MARK: Log archives

    /// A `.logarchive` is refused with the command that makes a log lctrace reads of it; below a folder it is named
    /// the same way and the rest is read.
    @Test func aLogArchiveIsRefusedWithTheCommandThatConvertsIt() throws {
        let folder = try Folder()
        try folder.write("Device Logs.logarchive/Info.plist", "<plist/>\n")
        try folder.write("trace.logarchive/logdata.LiveData.tracev3", [0, 1, 2])
        let result = try folder.run(["check", "trace.logarchive/"])
        #expect(result.status == 2)
        #expect(result.stdout.isEmpty)
        #expect(result.stderr.contains("trace.logarchive: is a macOS log archive"))
        #expect(result.stderr.contains("`log show --archive trace.logarchive --style ndjson > trace.logarchive.ndjson`"))
        #expect(result.stderr.contains("--predicate 'process == \"App\"'"))
        let spaced = try folder.run(["Device Logs.logarchive"])
        #expect(spaced.stderr.contains("`log show --archive 'Device Logs.logarchive' --style ndjson > 'Device Logs.logarchive.ndjson'`"))

        try folder.write("logs/device.logarchive/Info.plist", "<plist/>\n")
        try folder.sample("did-appear-twice.log", to: "logs/app.log")
        let below = try folder.run(["check", "logs"])
        #expect(below.status == 2)
        #expect(below.stdout.contains("logs/app.log:4: warning: [did-appear-twice]"))
        #expect(below.stderr.contains("lctrace: logs/device.logarchive: is a macOS log archive, which lctrace cannot read; convert it with `log show --archive logs/device.logarchive --style ndjson > logs/device.logarchive.ndjson`"))
    }

    // MARK: --process and --pid

    /// A whole-device log: an app, its widget and SpringBoard, whose lines name controllers too, and a multi-line
    /// message of SpringBoard whose second line (no header) names one.
    static let deviceLog = """
        Feb  9 09:20:00 iPhone SpringBoard(FrontBoard)[57] <Notice>: SBHomeScreenViewController viewWillDisappear:
        Feb  9 09:20:00 iPhone ShopApp(UIKitCore)[4410] <Notice>: HomeViewController viewDidLoad()
        Feb  9 09:20:00 iPhone ShopApp[4410] <Notice>: HomeViewController viewWillAppear(_:)
        Feb  9 09:20:00 iPhone SpringBoard[57] <Notice>: SBHomeScreenViewController viewDidDisappear:
        Feb  9 09:20:00 iPhone ShopApp[4410] <Notice>: HomeViewController viewDidAppear(_:)
        Feb  9 09:20:01 iPhone ShopAppWidget[4500] <Notice>: WidgetViewController viewDidLoad()
        Feb  9 09:20:01 iPhone SpringBoard[57] <Notice>: layout pass for:
            SBIconListViewController viewDidLayoutSubviews()
        Feb  9 09:20:02 iPhone ShopApp[4410] <Notice>: CartViewController viewDidLoad()
        Feb  9 09:20:02 iPhone shopapp[4411] <Notice>: HomeViewController viewDidLoad()

        """

    @Test func processAndPidKeepOneAppsLinesOfAWholeDeviceLog() throws {
        let folder = try Folder()
        try folder.write("device.log", Self.deviceLog)
        let all = try Self.summary(try folder.run(["--format", "json", "--no-events", "device.log"]))
        #expect(all["events"] as? Int == 9)

        let app = try folder.run(["--format", "json", "--no-events", "--process", "ShopApp", "device.log"])
        #expect(app.status == 0, "\(app.stderr)")
        let summary = try Self.summary(app)
        #expect(summary["events"] as? Int == 4)
        #expect(summary["lines"] as? Int == 10)
        #expect((summary["skipped"] as? [String: Int])?["other-process"] == 6)
        #expect((summary["lineDispositions"] as? [String: Int])?["other-process"] == 6)
        #expect(summary["sessions"] as? Int == 1)
        #expect(!app.stdout.contains("SBHomeScreenViewController") && !app.stdout.contains("SBIconListViewController"))
        #expect(!app.stdout.contains("WidgetViewController"))

        // Several names, or pids; with both, a line must match both.
        let two = try Self.summary(try folder.run(["--format", "json", "--no-events", "--process", "ShopApp", "--process", "ShopAppWidget", "device.log"]))
        #expect(two["events"] as? Int == 5)
        let pid = try Self.summary(try folder.run(["--format", "json", "--no-events", "--pid", "57", "device.log"]))
        #expect(pid["events"] as? Int == 3)
        let both = try Self.summary(try folder.run(["--format", "json", "--no-events", "--process", "ShopApp", "--pid", "57", "device.log"]))
        #expect(both["events"] as? Int == 0)

        // The text summary counts them as skipped, and `lines` shows whose they are.
        let text = try folder.run(["--no-events", "--process", "ShopApp", "device.log"])
        #expect(text.stdout.contains("Summary: 10 lines (4 lifecycle, 0 notice, 0 other, 0 unread, 0 blank, 6 skipped)"))
        let lines = try folder.run(["lines", "--only", "other-process", "--process", "ShopApp", "device.log"])
        #expect(lines.stdout.split(separator: "\n").count == 6)
        #expect(lines.stdout.contains("SpringBoard[57]"))
        // A name matches exactly as logged, case-sensitively: no line of ShopApp is read as shopapp's.
        let lower = try Self.summary(try folder.run(["--format", "json", "--no-events", "--process", "shopapp", "device.log"]))
        #expect(lower["events"] as? Int == 1)
        // With --jobs and a file read in sections or not, the same report.
        let jobs = try folder.run(["--format", "json", "--no-events", "--jobs", "2", "--process", "ShopApp", "device.log"])
        #expect(jobs.stdout == app.stdout)
    }

    /// A log with no process in any header (`print` lines) is read whole under --process; an empty selection says so
    /// in the finding.
    @Test func aLogWithoutProcessesIsReadWholeUnderProcess() throws {
        let bare = try Self.summary(try lctrace(["--format", "json", "--no-events", "--process", "ShopApp",
                                                 "SampleLogs/did-appear-without-will-appear.log"]))
        let plain = try Self.summary(try lctrace(["--format", "json", "--no-events", "SampleLogs/did-appear-without-will-appear.log"]))
        #expect(bare["events"] as? Int == plain["events"] as? Int)
        #expect((bare["skipped"] as? [String: Int])?["other-process"] == 0)
        let wrong = try lctrace(["check", "--process", "Nope", "SampleLogs/seed-push-pop.log"])
        #expect(wrong.status == 1)
        #expect(wrong.stdout.contains("17 blank or skipped, 17 of them of processes --process/--pid leave out"), "\(wrong.stdout)")
        #expect(try lctrace(["--process", "", "SampleLogs/seed-push-pop.log"]).status == 2)
        #expect(try lctrace(["--pid", "abc", "SampleLogs/seed-push-pop.log"]).status == 2)
    }

    // MARK: --stdin-name

    @Test func stdinNameNamesPipedInput() throws {
        let log = try Data(contentsOf: Fixtures.sampleLogs.appendingPathComponent("did-appear-twice.log"))
        let text = try lctrace(["--no-events", "--stdin-name", "app.log"], stdin: log)
        #expect(text.status == 0)
        #expect(text.stdout.contains("Session 1 · app.log · LifeCycle[2148]"))
        #expect(text.stdout.contains("app.log:4: warning: [did-appear-twice]"))
        #expect(!text.stdout.contains("<stdin>"))
        let check = try lctrace(["check", "--stdin-name", "ui-tests.log", "-"], stdin: log)
        #expect(check.stdout == "ui-tests.log:4: warning: [did-appear-twice] viewDidAppear on ViewController, which is already visible\n")
        let json = try lctrace(["--format", "json", "--no-events", "--stdin-name", "app.log"], stdin: log)
        #expect(try Self.inputNames(json) == ["app.log"])
        let lines = try lctrace(["lines", "--format", "json", "--stdin-name", "app.log"], stdin: log)
        #expect(lines.stdout.hasPrefix("{\"input\":\"app.log\""))
        #expect(try lctrace(["--stdin-name", "", "-"], stdin: log).status == 2)
    }

    // MARK: check on nothing

    /// `check` fails on an input with no lifecycle event unless --allow-empty-input; `analyze` only warns.
    @Test func checkFailsOnAnInputWithNoLifecycleEvent() throws {
        let empty = try lctrace(["check", "SampleLogs/no-lifecycle-events.log"])
        #expect(empty.status == 1)
        #expect(empty.stdout.hasPrefix("SampleLogs/no-lifecycle-events.log:1: error: [no-lifecycle-events] no lifecycle event was read"))
        #expect(empty.stderr.hasSuffix("lctrace: 1 error reaches --fail-on error\n"))
        let allowed = try lctrace(["check", "--allow-empty-input", "SampleLogs/no-lifecycle-events.log"])
        #expect(allowed.status == 0)
        #expect(allowed.stdout.hasPrefix("SampleLogs/no-lifecycle-events.log:1: warning: [no-lifecycle-events]"))
        // Piped input with nothing in it.
        #expect(try lctrace(["check"], stdin: Data()).status == 1)
        #expect(try lctrace(["check", "--allow-empty-input"], stdin: Data()).status == 0)
        // A severity set for the rule is kept.
        #expect(try lctrace(["check", "--severity", "no-lifecycle-events=warning", "SampleLogs/no-lifecycle-events.log"]).status == 0)
        // The default command keeps it a warning.
        let analyze = try lctrace(["--fail-on", "error", "SampleLogs/no-lifecycle-events.log"])
        #expect(analyze.status == 0)
        #expect(analyze.stdout.contains("warning: [no-lifecycle-events]"))
        // The SARIF report carries the run's severity.
        let sarif = try lctrace(["check", "--reporter", "sarif", "SampleLogs/no-lifecycle-events.log"])
        #expect(sarif.stdout.contains("\"level\": \"error\"") || sarif.stdout.contains("\"level\":\"error\""))
    }

    // MARK: Unread lifecycle lines

    /// Many lines that name a callback but could not be read: a warning naming the first of them, and the count on
    /// `check`'s summary line. A few in a long log are no finding.
    @Test func manyUnreadLifecycleLinesAreAWarningAndCounted() throws {
        let result = try lctrace(["check", "SampleLogs/unread-lifecycle-lines.log"])
        #expect(result.status == 0)
        #expect(result.stdout == "SampleLogs/unread-lifecycle-lines.log:4: warning: [unread-lifecycle-lines] 5 of the 12 lines that name a lifecycle callback could not be read as one (lines 4, 5, 7, 9, 11): no controller was found around the callback; `lctrace lines --only unread SampleLogs/unread-lifecycle-lines.log` shows them and why\n")
        #expect(result.stderr == "lctrace: 0 errors, 1 warning, 0 info in 1 session of 1 input (12 lines, 7 lifecycle events); 5 lines name a lifecycle callback but could not be read (`lctrace lines --only unread` shows why)\n")
        #expect(try lctrace(["check", "--fail-on", "warning", "SampleLogs/unread-lifecycle-lines.log"]).status == 1)
        #expect(try lctrace(["explain", "unread-lifecycle-lines"]).stdout.hasPrefix("unread-lifecycle-lines (warning)\n"))

        // More than five, with the rest left to `lines`.
        var text = ""
        for index in 0..<8 { text += "HomeViewController viewDidLoad()\nstep \(index): about to run viewWillAppear\n" }
        let eight = try #require(try analyze(text: text).findings.first { $0.rule == .unreadLifecycleLines })
        #expect(eight.line == 2)
        #expect(eight.message.hasPrefix("8 of the 16 lines that name a lifecycle callback could not be read as one (lines 2, 4, 6, 8, 10, …)"))
        // Under the share: 5 unread among 51 lines that name a callback (46 read).
        var long = String(repeating: "HomeViewController viewWillAppear(_:)\nHomeViewController viewWillDisappear(_:)\n", count: 23)
        long += String(repeating: "about to run viewWillAppear\n", count: 5)
        let few = try analyze(text: long)
        #expect(few.summary?.lines(.unread) == 5)
        #expect(!few.findings.contains { $0.rule == .unreadLifecycleLines })
        // Four is too few, whatever their share.
        let four = try analyze(text: String(repeating: "about to run viewWillAppear\n", count: 4))
        #expect(!four.findings.contains { $0.rule == .unreadLifecycleLines })
        #expect(!(try lctrace(["check", "--allow-empty-input", try Fixtures.temporaryFile(String(repeating: "about to run viewWillAppear\n", count: 4))]).stderr.contains("could not be read")))
    }
}
