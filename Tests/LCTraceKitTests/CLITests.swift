import Foundation
import Testing
@testable import LCTraceKit
@testable import lctrace_loggen
@testable import lctrace

/// Runs the built `lctrace` executable.
struct CommandResult {
    var status: Int32
    var stdout: String
    var stderr: String
}

func lctrace(_ arguments: [String], stdin: Data? = nil, environment: [String: String] = [:],
             directory: URL = Fixtures.repositoryRoot, executable: String? = nil) throws -> CommandResult {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: try executable ?? lctraceExecutable())
    process.arguments = arguments
    process.currentDirectoryURL = directory
    // A run under GitHub Actions would change `check`'s default report: the tests say what they expect.
    let inherited = ProcessInfo.processInfo.environment.filter { !$0.key.hasPrefix("GITHUB_") }
    process.environment = inherited.merging(environment) { $1 }
    let output = Pipe(), errors = Pipe(), input = Pipe()
    process.standardOutput = output
    process.standardError = errors
    process.standardInput = input
    try process.run()
    if let stdin { input.fileHandleForWriting.write(stdin) }
    try input.fileHandleForWriting.close()
    let outData = output.fileHandleForReading.readDataToEndOfFile()
    let errData = errors.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return CommandResult(status: process.terminationStatus, stdout: String(decoding: outData, as: UTF8.self),
                         stderr: String(decoding: errData, as: UTF8.self))
}

@Suite(.serialized) struct CLITests {
    /// The project's configuration file is found from a subfolder, up to the repository's root and no further; a
    /// mistyped key in it names the closest one.
    @Test func theConfigurationFileIsFoundAboveTheWorkingDirectoryWithinTheRepository() throws {
        let root = TestFiles.root.appendingPathComponent("lctrace-config-\(UUID().uuidString)")
        let repository = root.appendingPathComponent("repo")
        let deep = repository.appendingPathComponent("app/logs/today")
        try FileManager.default.createDirectory(at: deep, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: repository.appendingPathComponent(".git"), withIntermediateDirectories: true)
        try Data(contentsOf: Fixtures.sampleLogs.appendingPathComponent("session-ended-abruptly.log"))
            .write(to: deep.appendingPathComponent("app.log"))
        let quiet = "severity:\n  session-ended-abruptly: off\n"
        try quiet.write(to: repository.appendingPathComponent(".lctrace.yml"), atomically: true, encoding: .utf8)
        let found = try lctrace(["check", "--verbose", "app.log"], directory: deep)
        #expect(found.stderr == "lctrace: configuration ../../../.lctrace.yml\n"
                    + "lctrace: 0 errors, 0 warnings, 0 info in 1 session of 1 input (9 lines, 9 lifecycle events)\n", "\(found.stderr)")
        #expect(try lctrace(["check", "--verbose", "--no-config", "app.log"], directory: deep).stderr.contains(" 1 info "))
        // Above the repository's root is another project's.
        try FileManager.default.removeItem(at: repository.appendingPathComponent(".lctrace.yml"))
        try quiet.write(to: root.appendingPathComponent(".lctrace.yml"), atomically: true, encoding: .utf8)
        let outside = try lctrace(["check", "--verbose", "app.log"], directory: deep)
        #expect(!outside.stderr.contains("configuration") && outside.stderr.contains(" 1 info "), "\(outside.stderr)")
        try "severty:\n  possible-leak: off\n".write(to: deep.appendingPathComponent(".lctrace.yml"), atomically: true, encoding: .utf8)
        let mistyped = try lctrace(["check", "app.log"], directory: deep)
        #expect(mistyped.status == 2)
        #expect(mistyped.stderr == "lctrace: config .lctrace.yml: unknown key 'severty' (did you mean 'severity'?); "
                    + "expected \(ConfigFile.keys.joined(separator: ", "))\n", "\(mistyped.stderr)")
    }

    /// What a CI step repeats lives in the configuration file: the process, the line format, fail-on, min-severity,
    /// allow-empty-input and the baseline (relative to the file's folder); a flag wins over the file.
    @Test func theConfigurationFileHoldsWhatACIStepRepeats() throws {
        let repository = TestFiles.root.appendingPathComponent("lctrace-config-keys-\(UUID().uuidString)")
        let logs = repository.appendingPathComponent("logs")
        try FileManager.default.createDirectory(at: logs, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: repository.appendingPathComponent(".git"), withIntermediateDirectories: true)
        // Two processes in one log: the app's lines have a repeated viewDidAppear, the other's a load loop.
        let log = """
            2016-03-17 16:02:37.329 LifeCycle[2148:117099] ViewController viewDidLoad
            2016-03-17 16:02:37.330 Other[77:1] PageViewController loadView
            2016-03-17 16:02:37.331 LifeCycle[2148:117099] ViewController viewWillAppear:
            2016-03-17 16:02:37.332 Other[77:1] PageViewController loadView
            2016-03-17 16:02:37.333 LifeCycle[2148:117099] ViewController viewDidAppear:
            2016-03-17 16:02:37.334 Other[77:1] PageViewController loadView
            2016-03-17 16:02:37.335 LifeCycle[2148:117099] ViewController viewDidAppear:

            """
        try log.write(to: logs.appendingPathComponent("app.log"), atomically: true, encoding: .utf8)
        try "".write(to: logs.appendingPathComponent("empty.log"), atomically: true, encoding: .utf8)
        let config = "process: LifeCycle\nline-format: nslog-classic\nfail-on: warning\nmin-severity: info\n"
        try config.write(to: repository.appendingPathComponent(".lctrace.yml"), atomically: true, encoding: .utf8)

        let run = try lctrace(["check", "app.log"], directory: logs)
        #expect(run.status == 1, "fail-on warning from the file")
        #expect(run.stdout.contains("app.log:7: warning: [did-appear-twice]"))
        #expect(!run.stdout.contains("load-loop"), "the other process's lines are not read")
        #expect(run.stderr.contains("1 finding of warning severity or more reaches --fail-on warning"))
        #expect(try lctrace(["check", "--fail-on", "error", "app.log"], directory: logs).status == 0, "the flag wins")
        #expect(try lctrace(["check", "empty.log"], directory: logs).status == 1, "an empty input is an error under check")
        // `lines` reads the lines as check does: the other process's lines are other-process, unless --no-config.
        let lines = try lctrace(["lines", "--only", "other-process", "app.log"], directory: logs)
        #expect(lines.stdout.split(separator: "\n").count == 3, "\(lines.stdout)")
        #expect(try lctrace(["lines", "--no-config", "--only", "other-process", "app.log"], directory: logs).stdout.isEmpty)

        // A baseline named in the file, relative to the file's folder, and allow-empty-input.
        let baseline = repository.appendingPathComponent("ci/baseline.json")
        try FileManager.default.createDirectory(at: baseline.deletingLastPathComponent(), withIntermediateDirectories: true)
        #expect(try lctrace(["check", "--write-baseline", baseline.path, "app.log"], directory: logs).status == 0)
        try (config + "baseline: ci/baseline.json\nallow-empty-input: true\n")
            .write(to: repository.appendingPathComponent(".lctrace.yml"), atomically: true, encoding: .utf8)
        // (The empty input is then a warning, not an error: with --fail-on error the run passes.)
        let known = try lctrace(["check", "--fail-on", "error", "app.log", "empty.log"], directory: logs)
        #expect(known.status == 0, "\(known.stdout)\(known.stderr)")
        #expect(known.stderr.contains("; 1 known from the baseline"))
        #expect(known.stdout.contains("empty.log:1: warning: [no-lifecycle-events]"))

        // Writing the baseline the file names refreshes it: the file's baseline is not read in that run.
        let refreshed = try lctrace(["check", "--write-baseline", baseline.path, "app.log"], directory: logs)
        #expect(refreshed.status == 0, "\(refreshed.stderr)")

        // The reports check writes (paths relative to the file's folder), unless --reporter is given; the classes whose
        // findings are left out; the model the run is held against.
        let model = repository.appendingPathComponent("ci/model.json")
        #expect(try lctrace(["learn", "--no-config", "-o", model.path, "app.log"], directory: logs).status == 0)
        try (config + "reporters: [xcode, sarif=ci/lctrace.sarif]\nignore-classes: ['View*']\nagainst: ci/model.json\nslower-by: 50\n")
            .write(to: repository.appendingPathComponent(".lctrace.yml"), atomically: true, encoding: .utf8)
        let configured = try lctrace(["check", "app.log"], directory: logs)
        #expect(configured.status == 0 && configured.stdout.isEmpty, "\(configured.stdout)\(configured.stderr)")
        let sarif = try String(contentsOf: repository.appendingPathComponent("ci/lctrace.sarif"), encoding: .utf8)
        #expect(sarif.contains("\"version\": \"2.1.0\""))
        #expect(try lctrace(["check", "--reporter", "json", "app.log"], directory: logs).stdout.hasPrefix("{"), "the flag wins")
        // The flag names other classes to ignore, and wins over the file.
        let other = try lctrace(["check", "--ignore-class", "Page*", "app.log"], directory: logs)
        #expect(other.status == 1 && other.stdout.contains("[did-appear-twice]"), "\(other.stdout)")
        // Held against a model of another run: what it lacks is reported.
        try "2016-03-17 16:02:37.329 LifeCycle[2148:117099] ListViewController viewDidLoad\n"
            .write(to: logs.appendingPathComponent("other.log"), atomically: true, encoding: .utf8)
        let held = try lctrace(["check", "--fail-on", "never", "other.log"], directory: logs)
        #expect(held.stdout.contains("other.log:1: warning: [new-controller] ListViewController is new"), "\(held.stdout)")

        try "reporters: [sarf]\n".write(to: repository.appendingPathComponent(".lctrace.yml"), atomically: true, encoding: .utf8)
        #expect(try lctrace(["check", "app.log"], directory: logs).stderr.hasPrefix(
            "lctrace: config ../.lctrace.yml: reporters: unknown reporter 'sarf' (did you mean 'sarif'?); the reporters are xcode, text,"))
        try "fail-on: sometimes\n".write(to: repository.appendingPathComponent(".lctrace.yml"), atomically: true, encoding: .utf8)
        let bad = try lctrace(["check", "app.log"], directory: logs)
        #expect(bad.status == 2 && bad.stderr == "lctrace: config ../.lctrace.yml: fail-on must be error, warning or never\n", "\(bad.stderr)")
    }

    @Test func classPatternsMatchWholeNames() {
        #expect(ClassPattern("SFSafariViewController").matches("SFSafariViewController"))
        #expect(!ClassPattern("SFSafari").matches("SFSafariViewController"))
        #expect(ClassPattern("SF*").matches("SFSafariViewController"))
        #expect(ClassPattern("*PickerViewController").matches("PHPickerViewController"))
        #expect(!ClassPattern("*PickerViewController").matches("PickerView"))
        #expect(ClassPattern("UI*Controller").matches("UIImagePickerController"))
        #expect(ClassPattern("A*B*C").matches("AxxBxxC") && !ClassPattern("A*B*C").matches("AxxCxxB"))
        #expect(ClassPattern("*").matches("Anything"))
    }

    /// A mistyped reporter or rule name is a usage error that names the closest one and, for reporters, lists them
    /// all; SwiftLint's name for the GitHub annotations works; a command after the default command's options is
    /// named as the mistake rather than read as a file.
    @Test func mistakesOnTheCommandLineAreNamedWithWhatWasMeant() throws {
        let sample = "SampleLogs/seed-push-pop.log"
        let reporter = try lctrace(["check", "--reporter", "sarf", sample])
        #expect(reporter.status == 2)
        #expect(reporter.stderr.contains("unknown reporter 'sarf' (did you mean 'sarif'?); the reporters are xcode, text, json,"), "\(reporter.stderr)")
        #expect(try lctrace(["check", "--reporter", "zzz", sample]).stderr.contains("unknown reporter 'zzz'; the reporters are"))
        let alias = try lctrace(["check", "--reporter", "github-actions-logging", sample])
        #expect(alias.status == 0 && alias.stdout.hasPrefix("::notice file=SampleLogs/seed-push-pop.log"), "\(alias.stdout)")
        let rule = try lctrace(["explain", "did-apear-twice"])
        #expect(rule.status == 2 && rule.stderr.contains("unknown rule 'did-apear-twice' (did you mean 'did-appear-twice'?)"))
        let severity = try lctrace(["check", "--severity", "posible-leak=off", sample])
        #expect(severity.status == 2 && severity.stderr.contains("--severity posible-leak=off (did you mean 'possible-leak'?)"))
        let misplaced = try lctrace(["--color", "always", "check", sample])
        #expect(misplaced.status == 2)
        #expect(misplaced.stderr.contains("'check' is a command, and there is no file of that name: put the command first"))
        #expect(Suggestion.closest(to: "mermaid-shrot", among: ["mermaid", "mermaid-short"]) == "mermaid-short")
        #expect(Suggestion.closest(to: "x", among: ["xcode", "json"]) == nil)
    }

    @Test func readsStandardInput() throws {
        let log = try Data(contentsOf: Fixtures.sampleLogs.appendingPathComponent("seed-push-pop.log"))
        let viaStdin = try lctrace(["--no-events"], stdin: log)
        let viaDash = try lctrace(["-", "--no-events"], stdin: log)
        #expect(viaStdin.status == 0)
        #expect(viaStdin.stdout.contains("Session 1 · <stdin> · LifeCycle[2044]"))
        #expect(viaStdin.stdout.contains("push    ViewController → SecondViewController"))
        #expect(viaDash.stdout == viaStdin.stdout)
    }

    @Test func exitCodes() throws {
        #expect(try lctrace(["SampleLogs/seed-push-pop.log"]).status == 0)
        #expect(try lctrace(["SampleLogs/did-appear-twice.log"]).status == 0)
        #expect(try lctrace(["--fail-on", "error", "SampleLogs/did-appear-twice.log"]).status == 0)
        #expect(try lctrace(["--fail-on", "warning", "SampleLogs/did-appear-twice.log"]).status == 1)
        #expect(try lctrace(["--fail-on", "warning", "SampleLogs/callback-after-dealloc.log"]).status == 1)
        #expect(try lctrace(["--fail-on", "error", "SampleLogs/seed-push-pop.log"]).status == 0)
    }

    @Test func usageErrorsExitTwo() throws {
        let unknownFlag = try lctrace(["--frobnicate"])
        #expect(unknownFlag.status == 2)
        #expect(unknownFlag.stderr.contains("--frobnicate"))
        #expect(try lctrace(["--format", "xml", "SampleLogs/seed-push-pop.log"]).status == 2)
        #expect(try lctrace(["--line-format", "nope", "SampleLogs/seed-push-pop.log"]).status == 2)
        let badPattern = try lctrace(["--pattern", "(unclosed", "SampleLogs/seed-push-pop.log"])
        #expect(badPattern.status == 2)
        #expect(badPattern.stderr.contains("offset 9"))
        #expect(badPattern.stdout.isEmpty)
    }

    @Test func unreadableInputExitsTwoNamingIt() throws {
        let result = try lctrace(["SampleLogs/seed-push-pop.log", "missing/nothing.log"])
        #expect(result.status == 2)
        #expect(result.stderr == "lctrace: missing/nothing.log: cannot open: No such file or directory\n")
        #expect(result.stdout.isEmpty)
        #expect(try lctrace(["--follow", "SampleLogs"]).stderr.contains("SampleLogs: is a directory"))
    }

    @Test func colourOnlyWhenAsked() throws {
        let plain = try lctrace(["SampleLogs/did-appear-twice.log"])
        #expect(!plain.stdout.contains("\u{1B}["))
        let forced = try lctrace(["--color", "always", "SampleLogs/did-appear-twice.log"])
        #expect(forced.stdout.contains("\u{1B}[1;33mwarning:\u{1B}[0m"))
        let noColor = try lctrace(["--color", "auto", "SampleLogs/did-appear-twice.log"], environment: ["NO_COLOR": "1"])
        #expect(!noColor.stdout.contains("\u{1B}["))
    }

    @Test func randomBytesNeverCrash() throws {
        var generator = SeededGenerator(state: 84)
        let bytes = (0..<200_000).map { _ in UInt8.random(in: 0...255, using: &generator) }
        let result = try lctrace([try Fixtures.temporaryFile(bytes)])
        #expect(result.status == 0)
        #expect(result.stdout.contains("Summary:"))
    }

    @Test func fiveMegabyteLineIsTruncatedAndCounted() throws {
        var text = "2016-03-17 16:02:37.329 LifeCycle[2148:117099]  ViewController    >>>>    viewDidLoad\n"
        text += "2016-03-17 16:02:37.330 LifeCycle[2148:117099]  " + String(repeating: "x", count: 5_000_000) + "\n"
        text += "2016-03-17 16:02:37.331 LifeCycle[2148:117099]  ViewController    >>>>    viewWillAppear:\n"
        let result = try lctrace(["--format", "json", "--no-events", try Fixtures.temporaryFile(text)])
        #expect(result.status == 0)
        let summary = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])["summary"] as? [String: Any]
        #expect(summary?["lines"] as? Int == 3)
        #expect(summary?["truncatedLines"] as? Int == 1)
        #expect(summary?["events"] as? Int == 2)
    }

    @Test func invalidUTF8IsDecodedLossily() throws {
        var bytes = Array("ViewController viewDidLoad()\n".utf8)
        bytes += [0xC3, 0x28, 0xFF, 0x0A]
        bytes += Array("Caf".utf8) + [0xE9] + Array("ViewController viewWillAppear(_:)\n".utf8)
        bytes += Array("ViewController viewWillAppear(_:)\n".utf8)
        let result = try lctrace(["--format", "json", try Fixtures.temporaryFile(bytes)])
        #expect(result.status == 0)
        let object = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any]
        let summary = object?["summary"] as? [String: Any]
        #expect(summary?["lines"] as? Int == 4)
        #expect(summary?["events"] as? Int == 2)
    }

    @Test func rulesAreListed() throws {
        let text = try lctrace(["rules"])
        #expect(text.status == 0)
        for rule in Rule.allCases { #expect(text.stdout.contains(rule.rawValue)) }
        let json = try lctrace(["rules", "--format", "json"])
        let rules = try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [[String: Any]]
        #expect(rules?.count == Rule.allCases.count)
    }

    @Test func rulesAndExplain() throws {
        let rules = try lctrace(["rules"])
        #expect(rules.status == 0)
        #expect(rules.stdout.split(separator: "\n").count == Rule.allCases.count)
        #expect(rules.stdout.contains("slow-transition") && rules.stdout.contains("off"))
        let json = try lctrace(["rules", "--format", "json", "--slow-transition", "500"])
        let entries = try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [[String: Any]]
        #expect(entries?.count == Rule.allCases.count)
        #expect(entries?.first { $0["id"] as? String == "slow-transition" }?["severity"] as? String == "warning")
        let explain = try lctrace(["explain", "view-loaded-twice"])
        #expect(explain.status == 0)
        #expect(explain.stdout.hasPrefix("view-loaded-twice (error)\n"))
        #expect(explain.stdout.contains("Example that triggers it:"))
        let unknown = try lctrace(["explain", "no-such-rule"])
        #expect(unknown.status == 2)
        #expect(unknown.stderr.contains("unknown rule 'no-such-rule'"))
    }

    @Test func severityFlagsAndConfigFile() throws {
        let off = try lctrace(["--no-events", "--severity", "did-appear-twice=off", "--fail-on", "warning", "SampleLogs/did-appear-twice.log"])
        #expect(off.status == 0)
        #expect(!off.stdout.contains("[did-appear-twice]"))
        #expect(try lctrace(["--severity", "did-appear-twice", "SampleLogs/did-appear-twice.log"]).status == 2)

        let directory = URL(fileURLWithPath: try Fixtures.temporaryFile("", name: "placeholder")).deletingLastPathComponent()
        try "severity:\n  view-loaded-twice: info\nslow-transition: 400\n".write(
            to: directory.appendingPathComponent(".lctrace.yml"), atomically: true, encoding: .utf8)
        let sample = Fixtures.sample("view-loaded-twice.log")
        let configured = try lctrace(["--format", "json", "--no-events", sample], directory: directory)
        #expect(configured.stdout.contains("\"config\": \".lctrace.yml\""))
        #expect(configured.stdout.contains("\"severity\": \"info\""))
        // A flag wins over the file; --no-config ignores it.
        let flagged = try lctrace(["--no-events", "--severity", "view-loaded-twice=warning", sample], directory: directory)
        #expect(flagged.stdout.contains("warning: [view-loaded-twice]"))
        let ignored = try lctrace(["--no-events", "--no-config", sample], directory: directory)
        #expect(ignored.stdout.contains("error: [view-loaded-twice]"))

        try "severity:\n  bogus: off\n".write(to: directory.appendingPathComponent("bad.yml"), atomically: true, encoding: .utf8)
        let bad = try lctrace(["--config", "bad.yml", sample], directory: directory)
        #expect(bad.status == 2)
        #expect(bad.stderr == "lctrace: config bad.yml: severity: unknown rule 'bogus' (see `lctrace rules`)\n")
        let missing = try lctrace(["--config", "missing.yml", sample], directory: directory)
        #expect(missing.status == 2)
        #expect(missing.stderr == "lctrace: config missing.yml: cannot be read (No such file or directory)\n")
        try Data([0x73, 0x65, 0xFF, 0x0A]).write(to: directory.appendingPathComponent("latin1.yml"))
        #expect(try lctrace(["--config", "latin1.yml", sample], directory: directory).stderr == "lctrace: config latin1.yml: is not UTF-8 text\n")
    }

    /// The README's examples are what the current code prints, and its rule table is the catalogue.
    @Test func readmeShowsRealOutput() throws {
        // The README and the documents it sends users to, where some of its examples moved.
        let documents = ["README.md", "docs/log-lines.md", "docs/limits.md", "docs/how-it-decides.md", "docs/json-report.md"]
        let readme = try documents.map { try String(contentsOf: Fixtures.repositoryRoot.appendingPathComponent($0), encoding: .utf8) }
            .joined(separator: "\n")
        let examples = [
            ["SampleLogs/seed-push-pop.log"],
            ["--no-events", "SampleLogs/transition-order.log"],
            ["--no-events", "SampleLogs/sheet-present-dismiss.log", "SampleLogs/possible-leak.log"],
            ["explain", "did-appear-without-will-appear"],
            ["lines", "SampleLogs/console-shapes.log"],
            ["--no-events", "SampleLogs/console-shapes.log"],
            ["check", "--against", "SampleLogs/model-base.log", "SampleLogs/slower-than-model.log", "--fail-on", "warning"],
        ]
        for arguments in examples {
            let output = try lctrace(arguments).stdout
            #expect(readme.contains("```\n" + output + "```\n"), "README example for lctrace \(arguments.joined(separator: " "))")
        }
        let checked = ["check", "SampleLogs/did-appear-twice.log", "SampleLogs/callback-after-dealloc.log", "SampleLogs/session-ended-abruptly.log"]
        let check = try lctrace(checked)
        #expect(check.status == 1)
        #expect(readme.contains("```\n" + check.stdout + "```\n\nand on stderr (exit status 1):\n\n```\n" + check.stderr + "```\n"))
        let annotations = try lctrace(checked, environment: ["GITHUB_ACTIONS": "true"]).stdout
        #expect(readme.contains("```sh\nGITHUB_ACTIONS=true lctrace \(checked.joined(separator: " "))\n```\n\n```\n" + annotations + "```\n"))
        let diagram = try lctrace(["SampleLogs/seed-push-pop.log", "--reporter", "mermaid"]).stdout
        #expect(readme.contains("prints it (and GitHub draws it here):\n\n" + diagram + "\n"), "README's Mermaid example")
        for entry in RuleCatalog.entries {
            #expect(readme.contains("| `\(entry.rule.rawValue)` | \(entry.severity.rawValue) | \(entry.summary) |"), "\(entry.rule)")
        }
    }

    /// Piped input that keeps flowing: a finding is printed as soon as it is decided, before EOF.
    @Test func findingsArePrintedLiveFromAPipe() throws {
        let run = try RunningLctrace(["--no-events"])
        run.input.fileHandleForWriting.write(try Data(contentsOf: URL(fileURLWithPath: Fixtures.sample("did-appear-twice.log"))))
        #expect(run.firstLine().hasPrefix("<stdin>:4: warning: [did-appear-twice]"))
        #expect(run.process.isRunning)  // the input is still open
        try run.input.fileHandleForWriting.close()
        let (rest, status) = run.remainder()
        #expect(status == 0)
        #expect(rest.contains("Summary:"))
    }

    /// SIGINT ends the input, not the run: the session is closed and the summary printed.
    @Test func interruptPrintsTheSummary() throws {
        let run = try RunningLctrace(["--format", "ndjson", "--no-events"])
        run.input.fileHandleForWriting.write(try Data(contentsOf: URL(fileURLWithPath: Fixtures.sample("seed-push-pop.log"))))
        Thread.sleep(forTimeInterval: 0.5)
        run.process.interrupt()
        let (text, status) = run.remainder()
        #expect(status == 0)
        let types = text.split(separator: "\n").compactMap { line in
            (try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])?["type"] as? String
        }
        #expect(types.suffix(3) == ["session", "input", "summary"])
        #expect(types.filter { $0 == "transition" }.count == 3)
        try? run.input.fileHandleForWriting.close()
    }

    @Test func followKeepsReadingAGrowingFile() throws {
        let path = try Fixtures.temporaryFile("")
        let run = try RunningLctrace(["--follow", "--no-events", path])
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        Thread.sleep(forTimeInterval: 0.5)
        handle.write(try Data(contentsOf: URL(fileURLWithPath: Fixtures.sample("did-appear-twice.log"))))
        try handle.close()
        #expect(run.firstLine().contains(":4: warning: [did-appear-twice]"))
        #expect(run.process.isRunning)
        run.process.terminate()
        let (rest, status) = run.remainder()
        #expect(status == 0)
        #expect(rest.contains("Summary: 4 lines"))
    }
}

/// A running lctrace whose output is read as it comes, for the live-output tests.
final class RunningLctrace {
    let process = Process()
    let input = Pipe()
    private let output = Pipe()

    init(_ arguments: [String]) throws {
        process.executableURL = URL(fileURLWithPath: try lctraceExecutable())
        process.arguments = arguments
        process.standardInput = input
        process.standardOutput = output
        try process.run()
    }

    /// What it has printed once a whole line is there (or after 10 s).
    func firstLine() -> String {
        var seen = ""
        let deadline = Date().addingTimeInterval(10)
        while !seen.contains("\n"), Date() < deadline {
            seen += String(decoding: output.fileHandleForReading.availableData, as: UTF8.self)
        }
        return seen
    }

    /// Everything else it prints, and its exit status.
    func remainder() -> (String, Int32) {
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return (text, process.terminationStatus)
    }
}

/// Runs the built `lctrace-loggen` and returns the path of the log it wrote.
func generatedLog(bytes: String, seed: Int, format: String, options: [String] = []) throws -> String {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: try builtProduct("lctrace-loggen"))
    process.arguments = ["--bytes", bytes, "--seed", String(seed), "--format", format] + options
    let output = Pipe()
    process.standardOutput = output
    try process.run()
    let data = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return try Fixtures.temporaryFile(Array(data), name: "generated-\(seed).log")
}

@Suite struct OrderedWorkPoolTests {
    /// Jobs that finish in a shuffled order come back in the order they were handed in; none runs while the window is
    /// full of jobs before it (job `i` runs only once at least `i - window + 1` results were taken, less the one the
    /// taker may have taken and not yet counted); and every wait ends: the taker's, woken only by the result it waits
    /// for, and the producer's, woken by room. 3,000 jobs on three threads, each sleeping a few varied microseconds;
    /// the taker runs on a thread of its own, so that a lost wake-up fails the test rather than hanging it.
    @Test func resultsComeBackInOrderWithinTheWindow() {
        let window = 5
        let count = 3000
        let pool = OrderedWorkPool<Int>(concurrency: 3, window: window)
        let taken = Lock<[Int]>([])
        let ranAhead = Lock<[Int]>([])
        pool.startProducer {
            for index in 0..<count {
                let handedIn = pool.submit {
                    if index - taken.withLock({ $0.count }) > window { ranAhead.withLock { $0.append(index) } }
                    usleep(UInt32((index * 7919) % 40))
                    return index
                }
                guard handedIn else { return }
            }
            pool.submit(result: -1)
        }
        let finished = DispatchSemaphore(value: 0)
        DetachedThread.start {
            while true {
                let result = pool.next()
                guard result >= 0 else { break }
                taken.withLock { $0.append(result) }
                // A taker slower than the jobs at times: without the window, they would run far ahead of it.
                if result % 3 == 0 { usleep(50) }
            }
            finished.signal()
        }
        guard finished.wait(timeout: .now() + 60) == .success else {
            Issue.record("the taker still waits after a minute: \(taken.withLock { $0.count }) of \(count) results taken")
            return
        }
        #expect(taken.withLock { $0 } == Array(0..<count))
        #expect(ranAhead.withLock { $0 }.isEmpty)
    }
}

@Suite struct ParallelTests {
    /// The same report, byte for byte, whatever the number of jobs: in every format.
    @Test func jobsDoNotChangeTheReport() throws {
        let logs = [try generatedLog(bytes: "600K", seed: 11, format: "nslog-classic"),
                    try generatedLog(bytes: "300K", seed: 12, format: "log-compact"),
                    try generatedLog(bytes: "300K", seed: 13, format: "bare")]
        for format in ["text", "json", "ndjson"] {
            let one = try lctrace(["--format", format, "--jobs", "1"] + logs)
            let two = try lctrace(["--format", format, "--jobs", "2"] + logs)
            #expect(one.status == 0)
            #expect(one.stdout == two.stdout, "\(format)")
            #expect(one.stdout.count > 100_000)
        }
        let summary = try lctrace(["--format", "json", "--no-events", "--jobs", "2"] + logs).stdout
        // Sessions are numbered across inputs, 1, 2, 3, … as in a sequential run.
        let json = try JSONSerialization.jsonObject(with: Data(summary.utf8)) as? [String: Any]
        let sessions = json?["sessions"] as? [[String: Any]]
        #expect(sessions?.map { $0["index"] as? Int } == (1...(sessions?.count ?? 0)).map { $0 })
        #expect((json?["summary"] as? [String: Any])?["findings"] as? [String: Int] == ["error": 0, "warning": 0, "info": 0])
    }

    /// One file cut into sections at its launches and analysed on two threads: the same report, byte for byte.
    @Test func sectionsOfOneFileDoNotChangeTheReport() throws {
        let logs = [try generatedLog(bytes: "600K", seed: 21, format: "nslog-classic"),
                    try generatedLog(bytes: "300K", seed: 22, format: "nslog-modern"),
                    try generatedLog(bytes: "300K", seed: 23, format: "bare")]
        for log in logs {
            for format in ["text", "json", "ndjson"] {
                let one = try analysisReport(of: log, jobs: 1, format: format, keepEvents: format == "text" || format == "json")
                let two = try analysisReport(of: log, jobs: 2, format: format, keepEvents: format == "text" || format == "json")
                #expect(one == two, "\(format) \(log)")
                #expect(one.count > 50_000)
            }
        }
    }

    /// Counts handed in out of order number each section once every section before it is counted; the first starts at
    /// line 1; a wait that no count would end ends when the run stops, without a number.
    @Test func sectionsAreNumberedByTheCountsBeforeThem() {
        let numbers = SectionLineNumbers()
        #expect(numbers.firstLine(ofSection: 0) == 1)
        numbers.counted(section: 2, lines: 7)
        numbers.counted(section: 0, lines: 10)
        #expect(numbers.firstLine(ofSection: 1) == 11)
        numbers.counted(section: 1, lines: 5)
        #expect(numbers.firstLine(ofSection: 2) == 16)
        #expect(numbers.firstLine(ofSection: 3) == 23)
        // Section 4 is not counted: the wait for section 5 goes on until the run stops.
        #expect(ParallelTests.answer(of: { numbers.firstLine(ofSection: 5) }, once: { numbers.stop() }) == .some(nil))
        #expect(numbers.firstLine(ofSection: 9) == nil)
    }

    /// What `wait` answers on a thread of its own: it is still waiting after 0.2 s (checked), and answers within 10 s
    /// once `change` is made; nil when it gives no answer by then (so `.some(nil)` when it answers nil).
    static func answer<Answer: Sendable>(of wait: @escaping @Sendable () -> Answer, once change: () -> Void,
                                         sourceLocation: SourceLocation = #_sourceLocation) -> Answer? {
        let answer = Lock<Answer?>(nil)
        let answered = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            let value = wait()
            answer.withLock { $0 = value }
            answered.signal()
        }
        #expect(answered.wait(timeout: .now() + 0.2) == .timedOut, "the wait goes on", sourceLocation: sourceLocation)
        change()
        #expect(answered.wait(timeout: .now() + 10) == .success, "answered once the change is made", sourceLocation: sourceLocation)
        return answer.withLock { $0 }
    }

    /// Each section starts where the worker of the one before it found its end. A wait for a section's start goes on
    /// until that end is handed in; a section after the one that ends the file has none, and no wait outlasts the run.
    @Test func sectionsStartWhereTheOneBeforeEnded() {
        let starts = SectionStarts()
        #expect(starts.start(ofSection: 0) == 0)
        #expect(ParallelTests.answer(of: { starts.start(ofSection: 1) }, once: { starts.ended(section: 0, at: 500) }) == .some(500))
        starts.ended(section: 1, at: 900)
        #expect(starts.start(ofSection: 2) == 900)
        #expect(!starts.handsOutNoMore)
        #expect(ParallelTests.answer(of: { starts.start(ofSection: 3) }, once: { starts.noSection(after: 2) }) == .some(nil))
        #expect(starts.handsOutNoMore)
        #expect(starts.start(ofSection: 2) == 900)
        #expect(starts.start(ofSection: 9) == nil)

        let stopped = SectionStarts()
        #expect(stopped.start(ofSection: 0) == 0)
        #expect(ParallelTests.answer(of: { stopped.start(ofSection: 1) }, once: { stopped.stop() }) == .some(nil))
        #expect(stopped.handsOutNoMore)
    }

    /// A worker reads a section into memory when it is at most twice the nominal size, and reads a longer one from
    /// the file: sections of 1 KiB are each a launch of several kilobytes (read from the file), sections of 64 KiB
    /// hold a few launches and end a launch past the nominal end (read into memory). Both give the one-job report.
    @Test func sectionsReadIntoMemoryOrFromTheFileGiveTheSameReport() throws {
        let log = try generatedLog(bytes: "1200K", seed: 24, format: "nslog-classic", options: ["--traffic", "plant"])
        for sectionBytes in [1024, 64 << 10] {
            // As a two-job run cuts them, with short sections over the file's end.
            let sizes = try SectionEndFinderTests.cutSections(
                of: log, lineFormat: .automatic, sectionBytes: sectionBytes, maxLineBytes: 64 << 10,
                taperBytes: Analyzer.sectionTaper(jobs: 2, sectionBytes: sectionBytes)).sections.map(\.count)
            #expect(sizes.count > 8, "sections of \(sectionBytes)")
            if sectionBytes == 1024 {
                #expect(sizes.allSatisfy { $0 > 2 * sectionBytes }, "every section read from the file")
            } else {
                #expect(sizes.allSatisfy { $0 <= 2 * sectionBytes }, "every section read into memory")
            }
            for format in ["text", "json", "ndjson"] {
                let one = try analysisReport(of: log, jobs: 1, format: format, keepEvents: format != "ndjson", sectionBytes: sectionBytes)
                let two = try analysisReport(of: log, jobs: 2, format: format, keepEvents: format != "ndjson", sectionBytes: sectionBytes)
                #expect(one == two, "\(format), sections of \(sectionBytes)")
            }
        }
    }

    /// Reports made of findings and the run's summary read no session report: a parallel run's workers hand on each
    /// session's counts alone. The reports and the summary line are the same as with one job, several reporters in one
    /// pass (one of which reads sessions) included.
    @Test func findingsOnlyReportersReadTheSameInSections() throws {
        // Large enough for sections of 2 MiB, the size a run without events cuts.
        let log = try generatedLog(bytes: "4200K", seed: 25, format: "nslog-modern", options: ["--traffic", "plant", "--style", "swift"])
        let junit = TestFiles.root.appendingPathComponent("lctrace-junit-\(UUID().uuidString).xml").path
        var summary: String?
        for reporters in [["xcode"], ["sarif"], ["markdown"], ["xcode", "junit=\(junit)"]] {
            let arguments = ["check", "--no-config", "--fail-on", "never", log] + reporters.flatMap { ["--reporter", $0] }
            let one = try lctrace(arguments + ["--jobs", "1"])
            let junitOne = try? String(contentsOfFile: junit, encoding: .utf8)
            let two = try lctrace(arguments + ["--jobs", "2"])
            #expect(one.stdout == two.stdout, "\(reporters)")
            #expect(one.stderr == two.stderr, "\(reporters): \(one.stderr) against \(two.stderr)")
            #expect(one.stderr == (summary ?? one.stderr) && one.stderr.contains(" sessions of 1 input"), "\(reporters): \(one.stderr)")
            summary = one.stderr
            if let junitOne { #expect(junitOne == (try String(contentsOfFile: junit, encoding: .utf8))) }
        }
        // The run's summary, every count of it, as one job makes it.
        func runSummary(jobs: Int) throws -> RunSummary {
            var options = AnalysisOptions()
            options.keepEvents = false
            options.sectionBytes = 4096
            let analyzer = try Analyzer(options: options, reporter: XcodeReporter(output: Output()))
            try analyzer.analyze([.file(log)], jobs: jobs)
            return analyzer.finish()
        }
        let sequential = try runSummary(jobs: 1)
        #expect(sequential.transitions > 1000 && sequential.controllers > 1000)
        #expect(try runSummary(jobs: 2) == sequential)
    }

    /// A run whose reporters read only findings and counts does not list the sessions' transitions or keep their
    /// controllers' appearances, measures no durations, and names a transition only for a finding: its findings (slow
    /// transitions named by their controllers among them) and every count of its summary are those of a run whose
    /// reporter reads the sessions, which lists them and has the durations' percentiles.
    @Test func transitionsUnlistedWhenNoReporterReadsSessionsChangeNoFindingOrCount() throws {
        let log = try generatedLog(bytes: "300K", seed: 26, format: "nslog-classic", options: ["--traffic", "plant"])
        final class FindingsOnly: Reporter {
            var findings: [Finding] = []
            /// The reports it is handed though it reads none (with one job; with two, a worker hands on counts alone).
            var sessions: [SessionReport] = []
            var summary: RunSummary?
            var readsSessions: Bool { false }
            func finding(_ finding: Finding) { findings.append(finding) }
            func sessionClosed(_ session: SessionReport) { sessions.append(session) }
            func finish(_ summary: RunSummary) { self.summary = summary }
        }
        for jobs in [1, 2] {
            var options = AnalysisOptions()
            options.keepEvents = false
            options.sectionBytes = 16 << 10
            options.rules.slowTransitionMs = 5
            let reading = RecordingSink()
            let listing = try Analyzer(options: options, reporter: reading)
            try listing.analyze([.file(log)], jobs: jobs)
            let listed = listing.finish()
            let findingsOnly = FindingsOnly()
            let counting = try Analyzer(options: options, reporter: findingsOnly)
            try counting.analyze([.file(log)], jobs: jobs)
            var counted = counting.finish()
            #expect(counted.loadToAppearByClass.isEmpty && counted.transitionDurations.isEmpty, "jobs \(jobs)")
            #expect(!listed.loadToAppearByClass.isEmpty && !listed.transitionDurations.isEmpty, "jobs \(jobs)")
            counted.loadToAppearByClass = listed.loadToAppearByClass
            counted.transitionDurations = listed.transitionDurations
            #expect(counted == listed, "jobs \(jobs)")
            #expect(findingsOnly.findings == reading.findings, "jobs \(jobs)")
            let slow = reading.findings.filter { $0.rule == .slowTransition }
            #expect(slow.count > 10 && slow.allSatisfy { $0.message.contains("Controller") }, "jobs \(jobs): \(slow.count)")
            #expect(reading.sessions.reduce(0) { $0 + $1.transitions.count } == listed.transitions && listed.transitions > 100)
            // Counted, not listed, where nothing reads them.
            #expect(findingsOnly.sessions.allSatisfy { $0.transitions.isEmpty }, "jobs \(jobs)")
            if jobs == 1 {
                #expect(findingsOnly.sessions.reduce(0) { $0 + $1.transitionsNotListed } == listed.transitions)
                #expect(findingsOnly.sessions.allSatisfy { $0.controllers.allSatisfy(\.appearances.isEmpty) })
                // Every appearance counted all the same, and each controller's load time taken at its first.
                let counts = { (sessions: [SessionReport]) in
                    sessions.flatMap(\.controllers).map { $0.appearances.count + $0.appearancesNotListed }
                }
                #expect(counts(findingsOnly.sessions) == counts(reading.sessions))
                #expect(findingsOnly.sessions.flatMap(\.controllers).map(\.loadToFirstAppearMs)
                            == reading.sessions.flatMap(\.controllers).map(\.loadToFirstAppearMs))
                #expect(reading.sessions.flatMap(\.controllers).contains { $0.loadToFirstAppearMs != nil })
            }
            #expect(reading.sessions.contains { $0.controllers.contains { !$0.appearances.isEmpty } }, "jobs \(jobs)")
        }
    }

    /// A controller's load time is taken at its first appearance whether or not the appearances are listed: here the
    /// first appearance has no time (its lines have no header), so there is none, also after a later, timed one.
    @Test func loadTimeIsTakenAtTheFirstAppearanceWhetherOrNotAppearancesAreListed() throws {
        let lines = ["2024-02-09 08:14:39.000 App[1:1] main()", "2024-02-09 08:14:39.100 App[1:1] A >>>> viewDidLoad",
                     "A >>>> viewWillAppear:", "A >>>> viewDidAppear:",
                     "2024-02-09 08:14:39.400 App[1:1] A >>>> viewWillDisappear:", "2024-02-09 08:14:39.500 App[1:1] A >>>> viewDidDisappear:",
                     "2024-02-09 08:14:39.600 App[1:1] A >>>> viewWillAppear:", "2024-02-09 08:14:39.700 App[1:1] A >>>> viewDidAppear:"]
        let log = try Fixtures.temporaryFile(lines.joined(separator: "\n") + "\n")
        final class FindingsOnly: Reporter {
            var sessions: [SessionReport] = []
            var readsSessions: Bool { false }
            func finding(_ finding: Finding) {}
            func sessionClosed(_ session: SessionReport) { sessions.append(session) }
            func finish(_ summary: RunSummary) {}
        }
        let reading = RecordingSink()
        try Analyzer(options: AnalysisOptions(), reporter: reading).analyze([.file(log)], jobs: 1)
        let findingsOnly = FindingsOnly()
        try Analyzer(options: AnalysisOptions(), reporter: findingsOnly).analyze([.file(log)], jobs: 1)
        let read = try #require(reading.sessions.first?.controllers.first)
        let counted = try #require(findingsOnly.sessions.first?.controllers.first)
        #expect(read.appearances.count == 2 && counted.appearances.isEmpty && counted.appearancesNotListed == 2)
        #expect(read.loadToFirstAppearMs == nil)
        #expect(counted.loadToFirstAppearMs == nil)
    }

    /// A whole-device log read with `--process`: cut into sections only at the kept app's `main()` lines, so that
    /// another app's launches, and lines with no process that go with the line before them, read as in one piece.
    @Test func sectionsOfADeviceLogWithAProcessFilterDoNotChangeTheReport() throws {
        let generated = try String(contentsOfFile: generatedLog(bytes: "700K", seed: 24, format: "log-compact",
                                                                options: ["--traffic", "legal", "--app-share", "0.3"]),
                                   encoding: .utf8)
        var lines: [String] = []
        for (number, line) in generated.split(separator: "\n").enumerated() {
            // Another app launching, and continuation lines with no header after the app's lines and the others'.
            if number % 97 == 0 { lines.append("2024-02-09 08:14:03.000 Df OtherApp[77:1a] [com.other.app:lifecycle] main()") }
            lines.append(String(line))
            if number % 41 == 0 { lines.append("ListViewController viewDidLoad()") }
        }
        let path = try Fixtures.temporaryFile(lines.joined(separator: "\n") + "\n")
        for format in ["text", "json", "ndjson"] {
            let one = try analysisReport(of: path, jobs: 1, format: format, keepEvents: format != "ndjson", processes: ["ShopApp"])
            let two = try analysisReport(of: path, jobs: 2, format: format, keepEvents: format != "ndjson", processes: ["ShopApp"])
            #expect(one == two, "\(format)")
            #expect(one.count > 50_000)
        }
        // Every line is read or counted as another process's: the filter did its work in both runs.
        let json = try JSONSerialization.jsonObject(with: Data(analysisReport(of: path, jobs: 2, format: "json", keepEvents: false,
                                                                              processes: ["ShopApp"]).utf8)) as? [String: Any]
        let skipped = (json?["summary"] as? [String: Any])?["skipped"] as? [String: Int]
        #expect((skipped?["other-process"] ?? 0) > 1000, "\(String(describing: skipped))")
    }

    /// A later section asks whether a class logs dealloc before the section that shows it is replayed: it is
    /// analysed again, so the leak is still a confirmed warning, as in a sequential run.
    @Test func deallocKnowledgeCrossesSections() throws {
        let sample = try String(contentsOfFile: Fixtures.sample("possible-leak.log"), encoding: .utf8)
            .split(separator: "\n").map(String.init)
        let launch = "2016-03-17 16:29:59.000 LifeCycle[2301:130001] main()"
        let padding = (0..<40).map { "2016-03-17 16:30:00.0\($0 % 10)0 LifeCycle[2301:130001] Networking: request \($0) done" }
        let first: [String] = [launch] + padding + Array(sample.prefix(13))
        let second: [String] = [launch] + padding + Array(sample.prefix(12)) + [sample[22]]
        // The leak in a middle part, and in the last part (the rest after the last cut, analysed by a worker too).
        for parts in [first + second + first, first + second] {
            let log = parts.joined(separator: "\n") + "\n"
            let path = try Fixtures.temporaryFile(log)
            let one = try analysisReport(of: path, jobs: 1, format: "json")
            let two = try analysisReport(of: path, jobs: 2, format: "json")
            #expect(one == two)
            let findings = (try JSONSerialization.jsonObject(with: Data(one.utf8)) as? [String: Any])?["findings"] as? [[String: Any]]
            #expect(findings?.filter { $0["rule"] as? String == "possible-leak" }.map { $0["severity"] as? String } == ["warning"])
        }
    }

    /// The progress callback counts every byte of every input once: one file or several, read in order, in
    /// sections or in parallel, so that one progress line can cover the whole run.
    @Test func progressCountsEveryInputByteOnce() throws {
        final class Counter: @unchecked Sendable {
            private let lock = NSLock()
            private var count = 0
            func add(_ bytes: Int) { lock.lock(); count += bytes; lock.unlock() }
            var total: Int { lock.lock(); defer { lock.unlock() }; return count }
        }
        let logs = [try generatedLog(bytes: "300K", seed: 31, format: "nslog-classic"),
                    try generatedLog(bytes: "200K", seed: 32, format: "nslog-modern"),
                    try generatedLog(bytes: "100K", seed: 33, format: "bare")]
        func size(_ path: String) throws -> Int { (try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? -1 }
        for inputs in [logs, [logs[0]]] {
            for jobs in [1, 2] {
                var options = AnalysisOptions()
                options.sectionBytes = 4096
                let analyzer = try Analyzer(options: options, reporter: JSONReporter(output: Output(), includeEvents: false))
                let counter = Counter()
                analyzer.progress = { counter.add($0) }
                try analyzer.analyze(inputs.map(InputSource.file), jobs: jobs)
                #expect(counter.total == (try inputs.reduce(0) { $0 + (try size($1)) }), "\(inputs.count) inputs, jobs \(jobs)")
            }
        }
    }

    @Test func statsGoToStandardError() throws {
        let result = try lctrace(["--stats", "--no-events", "--format", "json", "SampleLogs/seed-push-pop.log"])
        #expect(result.status == 0)
        #expect(result.stderr.hasPrefix("lctrace: 17 lines, 0.0 MB in "))
        #expect(result.stderr.contains(" lines/s, ") && result.stderr.contains(" MB/s, peak memory "))
        #expect(result.stdout.hasPrefix("{"))  // the report itself is untouched, and no progress line in a pipe
        #expect(!result.stderr.contains("█"))
    }

    @Test func anUnreadableInputStopsTheRunInOrder() throws {
        let result = try lctrace(["--jobs", "2", "--no-events", "SampleLogs/did-appear-twice.log", "SampleLogs/missing.log"])
        #expect(result.status == 2)
        #expect(result.stderr == "lctrace: SampleLogs/missing.log: cannot open: No such file or directory\n")
    }
}

/// The folder SwiftPM built this package's products into: the one that holds this test target's resource bundle, on
/// Linux and macOS alike, whatever the configuration or build path (the test runner's own path says nothing on macOS,
/// where it is Xcode's `xctest` or `swiftpm-testing-helper`).
let productsDirectory = Bundle.module.bundleURL.deletingLastPathComponent()

/// The built `lctrace`.
func lctraceExecutable() throws -> String { try builtProduct("lctrace") }

/// A product built beside the tests; an error, never an older build from elsewhere, when it is not there.
func builtProduct(_ name: String) throws -> String {
    let path = productsDirectory.appendingPathComponent(name).path
    guard FileManager.default.isExecutableFile(atPath: path) else { throw ProductMissing(name: name, directory: productsDirectory.path) }
    return path
}

struct ProductMissing: Error, CustomStringConvertible {
    var name: String
    var directory: String
    var description: String { "\(name) is not built in \(directory) (the tests depend on it: run them with `swift test`)" }
}
