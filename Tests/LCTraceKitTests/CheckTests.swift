import Foundation
import Testing
@testable import LCTraceKit

/// A log where HomeViewController appears twice without disappearing (did-appear-twice, a warning) and
/// DetailViewController gets a viewDidAppear with no viewWillAppear (did-appear-without-will-appear, an error),
/// in classic NSLog lines; `shift` changes what a later build's log changes: the times, the process id, the
/// instance addresses, and unrelated lines before it.
private func ciLog(shift: Int = 0, extraErrors: Int = 0) -> String {
    let pid = 2148 + shift
    func line(_ second: Int, _ message: String) -> String {
        "2016-03-17 16:02:\(String(format: "%02d", second + shift)).277 LifeCycle[\(pid):117099] \(message)"
    }
    let home = "<LifeCycle.HomeViewController: 0x60000000\(1 + shift)>"
    let detail = "<LifeCycle.DetailViewController: 0x60000000\(5 + shift)>"
    var lines = (0..<shift).map { line(0, "Fetched \($0 + 10) items from the server") }
    lines += [
        line(1, "\(home) viewDidLoad()"),
        line(1, "\(home) viewWillAppear(_:)"),
        line(2, "\(home) viewDidAppear(_:)"),
        line(3, "\(home) viewDidAppear(_:)"),
        line(4, "\(detail) viewDidLoad()"),
        line(4, "\(detail) viewDidAppear(_:)"),
    ]
    for index in 0..<extraErrors {
        let other = "<LifeCycle.OtherViewController\(index): 0x70000000\(index)>"
        lines += [line(5, "\(other) viewDidLoad()"), line(5, "\(other) viewDidAppear(_:)")]
    }
    return lines.joined(separator: "\n") + "\n"
}

@Suite(.serialized) struct CheckTests {
    @Test func checkPrintsFindingsInTheCompilerFormAndFailsOnErrors() throws {
        let path = try Fixtures.temporaryFile(ciLog(), name: "app.log")
        let run = try lctrace(["check", path])
        #expect(run.status == 1)
        let lines = run.stdout.split(separator: "\n").map(String.init)
        #expect(lines == [
            "\(path):4: warning: [did-appear-twice] viewDidAppear on HomeViewController@0x600000001, which is already visible",
            "\(path):6: error: [did-appear-without-will-appear] viewDidAppear on DetailViewController@0x600000005 without a viewWillAppear before it (controller was hidden)",
        ])
        let errors = run.stderr.split(separator: "\n").map(String.init)
        #expect(errors.first == "lctrace: 1 error, 1 warning, 0 info in 1 session of 1 input (6 lines, 6 lifecycle events)")
        #expect(errors.last == "lctrace: 1 error reaches --fail-on error")
    }

    @Test func failOnDecidesTheExitStatus() throws {
        #expect(try lctrace(["check", "SampleLogs/seed-push-pop.log"]).status == 0)
        #expect(try lctrace(["check", "SampleLogs/did-appear-twice.log"]).status == 0)
        let warning = try lctrace(["check", "--fail-on", "warning", "SampleLogs/did-appear-twice.log"])
        #expect(warning.status == 1)
        #expect(warning.stderr.hasSuffix("lctrace: 1 finding of warning severity or more reaches --fail-on warning\n"))
        #expect(try lctrace(["check", "--fail-on", "never", "SampleLogs/callback-after-dealloc.log"]).status == 0)
        let quiet = try lctrace(["check", "--quiet", "--fail-on", "never", "SampleLogs/callback-after-dealloc.log"])
        #expect(quiet.stderr.isEmpty)
        #expect(!quiet.stdout.isEmpty)
        let missing = try lctrace(["check", "no-such.log"])
        #expect(missing.status == 2)
        #expect(missing.stderr.split(separator: "\n").count == 1)
    }

    /// Where CI reads, check prints errors and warnings; info is counted in the summary line, and printed as a note
    /// with --verbose or --min-severity info. --min-severity error leaves the warnings out too.
    @Test func informationalFindingsAreCountedAndPrintedOnlyWhenAskedFor() throws {
        let inputs = ["SampleLogs/session-ended-abruptly.log", "SampleLogs/did-appear-twice.log", "SampleLogs/callback-after-dealloc.log"]
        let quiet = try lctrace(["check"] + inputs)
        #expect(!quiet.stdout.contains(": note: "))
        #expect(quiet.stdout.contains(": warning: [did-appear-twice] ") && quiet.stdout.contains(": error: [callback-after-dealloc] "))
        #expect(quiet.stderr.hasPrefix("lctrace: 1 error, 1 warning, 1 info in 3 sessions"))
        for asked in [["--verbose"], ["--min-severity", "info"]] {
            let run = try lctrace(["check"] + asked + inputs)
            #expect(run.stdout.contains("SampleLogs/session-ended-abruptly.log:9: note: [session-ended-abruptly] "), "\(asked)")
            #expect(run.stdout.split(separator: "\n").count == 3)
        }
        #expect(!(try lctrace(["check", "--verbose", "--min-severity", "warning"] + inputs).stdout.contains(": note: ")),
                "an explicit --min-severity wins over --verbose")
        let errorsOnly = try lctrace(["check", "--min-severity", "error"] + inputs)
        #expect(errorsOnly.stdout.split(separator: "\n").map { $0.contains(": error: ") } == [true])
        #expect(try lctrace(["check", "--min-severity", "notice"] + inputs).status == 2)
    }

    @Test func severalReportersInOnePass() throws {
        let directory = TestFiles.root.appendingPathComponent("lctrace-reporters-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let json = directory.appendingPathComponent("report.json").path
        let markdown = directory.appendingPathComponent("summary.md").path
        let run = try lctrace(["check", "--reporter", "xcode", "--reporter", "json=\(json)", "--reporter", "markdown=\(markdown)",
                               "SampleLogs/did-appear-twice.log", "SampleLogs/possible-leak.log", "SampleLogs/callback-after-dealloc.log"])
        #expect(run.status == 1)
        let xcodeLines = run.stdout.split(separator: "\n")
        let document = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: json))) as? [String: Any])
        let findings = try #require(document["findings"] as? [[String: Any]])
        #expect(findings.count == xcodeLines.count)
        #expect(document["lctraceVersion"] as? String == LCTraceVersion.current)
        // check builds no per-event timeline: the JSON report has no event lists.
        let sessions = try #require(document["sessions"] as? [[String: Any]])
        let controllers = sessions.flatMap { ($0["controllers"] as? [[String: Any]]) ?? [] }
        #expect(!controllers.isEmpty && controllers.allSatisfy { $0["events"] == nil })
        let table = try String(contentsOfFile: markdown, encoding: .utf8)
        #expect(table.contains("| error | `callback-after-dealloc` | `DetailViewController` | 1 | `SampleLogs/callback-after-dealloc.log:7` |"))
    }

    @Test func reportersThatWouldShareAnOutputAreAUsageError() throws {
        let both = try lctrace(["check", "--reporter", "xcode", "--reporter", "json", "SampleLogs/seed-push-pop.log"])
        #expect(both.status == 2)
        #expect(both.stderr == "lctrace: xcode and json would both write to standard output; give all but one a path (--reporter NAME=PATH).\n")
        #expect(try lctrace(["check", "--reporter", "json=a.json", "--reporter", "sarif=a.json", "x.log"]).status == 2)
        #expect(try lctrace(["check", "--reporter", "yaml", "SampleLogs/seed-push-pop.log"]).status == 2)
        #expect(try lctrace(["--format", "json", "--reporter", "text", "SampleLogs/seed-push-pop.log"]).status == 2)
    }

    @Test func outputWritesTheReportToAFile() throws {
        let path = TestFiles.root.appendingPathComponent("lctrace-\(UUID().uuidString).txt").path
        let run = try lctrace(["check", "--output", path, "SampleLogs/did-appear-twice.log"])
        #expect(run.status == 0)
        #expect(run.stdout.isEmpty)
        #expect(try String(contentsOfFile: path, encoding: .utf8).hasPrefix("SampleLogs/did-appear-twice.log:4: warning: [did-appear-twice]"))
        let unwritable = try lctrace(["check", "--output", "/nonexistent-directory/report.txt", "SampleLogs/did-appear-twice.log"])
        #expect(unwritable.status == 2)
        #expect(unwritable.stderr.hasPrefix("lctrace: cannot write /nonexistent-directory/report.txt: "))
    }

    @Test func githubActionsIsTheDefaultUnderGitHubActionsAndWritesTheJobSummary() throws {
        let summary = TestFiles.root.appendingPathComponent("step-summary-\(UUID().uuidString).md").path
        try "earlier step\n".write(toFile: summary, atomically: true, encoding: .utf8)
        let run = try lctrace(["check", "SampleLogs/callback-after-dealloc.log"],
                              environment: ["GITHUB_ACTIONS": "true", "GITHUB_STEP_SUMMARY": summary])
        #expect(run.status == 1)
        #expect(run.stdout == "::error file=SampleLogs/callback-after-dealloc.log,line=7,title=[callback-after-dealloc]::viewWillAppear on DetailViewController@0x600003a1c000 after its dealloc/deinit\n")
        let written = try String(contentsOfFile: summary, encoding: .utf8)
        #expect(written.hasPrefix("earlier step\n## lctrace\n"))
        // A flag overrides the environment.
        let xcode = try lctrace(["check", "--reporter", "xcode", "SampleLogs/callback-after-dealloc.log"], environment: ["GITHUB_ACTIONS": "true"])
        #expect(xcode.stdout.hasPrefix("SampleLogs/callback-after-dealloc.log:7: error:"))
    }

    /// Twelve distinct error problems, one of them five times: ten annotations, the most frequent problem first and
    /// naming its other lines, and a tenth saying how many were left out.
    @Test func githubAnnotationsSpendTheirBudgetOnDistinctProblems() throws {
        var log = ciLog(extraErrors: 11)
        for index in 0..<4 {
            log += "<LifeCycle.OtherViewController0: 0x7000000\(index)9> viewDidLoad()\n<LifeCycle.OtherViewController0: 0x7000000\(index)9> viewDidAppear(_:)\n"
        }
        let path = try Fixtures.temporaryFile(log, name: "many.log")
        let run = try lctrace(["check", "--reporter", "github-actions", path])
        let errors = run.stdout.split(separator: "\n").filter { $0.hasPrefix("::error ") }
        #expect(errors.count == 10)
        #expect(errors.first?.contains("title=[did-appear-without-will-appear]::viewDidAppear on OtherViewController0@") == true)
        #expect(errors.first?.hasSuffix("(4 more: lines 30, 32, 34, 36)") == true)
        #expect(errors.last == "::error title=lctrace::3 more problems (3 findings) not annotated: run lctrace on the log to see them")
        #expect(run.stdout.split(separator: "\n").filter { $0.hasPrefix("::warning ") }.count == 1)
    }

    /// The reporters escape what reaches them from the log and the file system: a file name with a comma and a colon
    /// in an annotation's `file=`, a class name with underscores in the job summary's message cell.
    @Test func annotationsAndTheJobSummaryEscapeNamesFromTheRun() throws {
        let log = "My_ViewController viewDidLoad()\nMy_ViewController viewWillAppear(_:)\nMy_ViewController viewDidAppear(_:)\n"
            + "My_ViewController viewDidAppear(_:)\n"
        let path = try Fixtures.temporaryFile(log, name: "shop,v2:run.log")
        let directory = URL(fileURLWithPath: path).deletingLastPathComponent()
        let summary = directory.appendingPathComponent("summary.md").path
        let run = try lctrace(["check", "--reporter", "github-actions", "--reporter", "markdown=\(summary)", "shop,v2:run.log"],
                              directory: directory)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout == "::warning file=shop%2Cv2%3Arun.log,line=4,title=[did-appear-twice]::"
                    + "viewDidAppear on My_ViewController, which is already visible\n")
        let table = try String(contentsOfFile: summary, encoding: .utf8)
        #expect(table.contains("| warning | `did-appear-twice` | `My_ViewController` | 1 | `shop,v2:run.log:4` | "
                                   + "viewDidAppear on My\\_ViewController, which is already visible |\n"), "\(table)")
    }

    @Test func workflowCommandsAndMarkdownEscapeWhatTheLogSays() {
        #expect(GitHubActionsReporter.escaped("a%b\r\nc:d,e", property: true) == "a%25b%0D%0Ac%3Ad%2Ce")
        #expect(GitHubActionsReporter.escaped("a:b,c\u{1B}[31m", property: false) == "a:b,c\\x1b[31m")
        #expect(MarkdownText.cell("<script>|*x*_y_`z`") == "&lt;script&gt;\\|\\*x\\*\\_y\\_\\`z\\`")
        #expect(MarkdownText.code("a`b|c\n") == "aˋb¦c ")
    }
}

@Suite(.serialized) struct BaselineTests {
    private func temporaryPath(_ name: String) -> String {
        TestFiles.root.appendingPathComponent("lctrace-\(UUID().uuidString)-\(name)").path
    }

    @Test func aBaselineKeepsKnownFindingsKnownWhenTheLogShifts() throws {
        let directory = TestFiles.root.appendingPathComponent("lctrace-baseline-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let log = directory.appendingPathComponent("app.log").path
        let baseline = directory.appendingPathComponent("baseline.json").path
        try ciLog().write(toFile: log, atomically: true, encoding: .utf8)
        // Writing a baseline accepts what the run found: status 0, with the findings printed.
        let first = try lctrace(["check", "--write-baseline", baseline, log])
        #expect(first.status == 0)
        #expect(first.stdout.split(separator: "\n").count == 2)

        // The next build: other times, process id and addresses, more lines before; the same two problems.
        try ciLog(shift: 3).write(toFile: log, atomically: true, encoding: .utf8)
        let shifted = try lctrace(["check", "--baseline", baseline, log])
        #expect(shifted.status == 0)
        #expect(shifted.stdout.isEmpty)
        #expect(shifted.stderr == "lctrace: 0 errors, 0 warnings, 0 info in 1 session of 1 input (9 lines, 6 lifecycle events); 2 known from the baseline\n")

        // A new problem is reported and fails the run; the known ones stay quiet.
        try ciLog(shift: 3, extraErrors: 1).write(toFile: log, atomically: true, encoding: .utf8)
        let new = try lctrace(["check", "--baseline", baseline, log])
        #expect(new.status == 1)
        #expect(new.stdout.split(separator: "\n").count == 1)
        #expect(new.stdout.contains("[did-appear-without-will-appear] viewDidAppear on OtherViewController0@"))

        // The text and JSON reports leave the known findings out of the sessions too.
        let json = try lctrace(["--format", "json", "--baseline", baseline, log])
        let document = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        #expect((document["findings"] as? [Any])?.count == 1)
        let text = try lctrace(["--no-events", "--baseline", baseline, log])
        #expect(text.stdout.contains("[did-appear-without-will-appear] viewDidAppear on OtherViewController0@"))
        #expect(!text.stdout.contains("[did-appear-twice]"))
        #expect(text.stdout.contains("; 1 error, 0 warnings, 0 info (2 known from the baseline)\n"))
        #expect((document["summary"] as? [String: Any])?["findingsInBaseline"] as? Int == 2)
    }

    @Test func aBaselineCountsOccurrences() throws {
        let directory = TestFiles.root.appendingPathComponent("lctrace-baseline-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let log = directory.appendingPathComponent("twice.log").path
        let baseline = directory.appendingPathComponent("baseline.json").path
        let twice = "A viewDidLoad()\nA viewWillAppear(_:)\nA viewDidAppear(_:)\nA viewDidAppear(_:)\n"
        try twice.write(toFile: log, atomically: true, encoding: .utf8)
        #expect(try lctrace(["check", "--fail-on", "warning", "--write-baseline", baseline, log]).status == 0)
        let written = try String(contentsOfFile: baseline, encoding: .utf8)
        #expect(written == """
            {
              "lctraceBaseline": 3,
              "writtenBy": "lctrace \(LCTraceVersion.current)",
              "keyedBy": "content",
              "findings": [
                {"rule":"did-appear-twice","controllerClass":"A","message":"viewDidAppear on A, which is already visible","count":1}
              ]
            }

            """)
        try (twice + "A viewDidAppear(_:)\n").write(toFile: log, atomically: true, encoding: .utf8)
        let third = try lctrace(["check", "--fail-on", "warning", "--baseline", baseline, log])
        #expect(third.status == 1)
        #expect(third.stdout.hasPrefix("\(log):5: warning: [did-appear-twice]"))
        #expect(third.stderr.contains("; 1 known from the baseline\n"))
    }

    /// A baseline counts a finding per launch: a longer run, with more launches that each have the known problem once,
    /// brings nothing new, in one job or two; a second occurrence within one launch is new.
    @Test func aBaselineCountsPerLaunch() throws {
        let directory = TestFiles.root.appendingPathComponent("lctrace-baseline-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let baseline = directory.appendingPathComponent("baseline.json").path
        func launches(_ count: Int, extraInLast: Bool = false) -> String {
            (0..<count).map { index in
                let head = "2016-03-17 16:0\(index):37.\(100 + index) LifeCycle[\(100 + index):1]"
                var launch = ["main", "ViewController viewDidLoad", "ViewController viewWillAppear:", "ViewController viewDidAppear:",
                              "ViewController viewDidAppear:"]
                if extraInLast && index == count - 1 { launch.append("ViewController viewDidAppear:") }
                return launch.map { "\(head) \($0)\n" }.joined()
            }.joined()
        }
        let two = directory.appendingPathComponent("two.log").path
        try launches(2).write(toFile: two, atomically: true, encoding: .utf8)
        #expect(try lctrace(["check", "--write-baseline", baseline, two]).status == 0)
        #expect(try String(contentsOfFile: baseline, encoding: .utf8).contains(#""count":1}"#))

        let five = directory.appendingPathComponent("five.log").path
        try launches(5).write(toFile: five, atomically: true, encoding: .utf8)
        for jobs in ["1", "2"] {
            let known = try lctrace(["check", "--fail-on", "warning", "--jobs", jobs, "--baseline", baseline, five])
            #expect(known.status == 0 && known.stdout.isEmpty, "\(known.stdout)")
            #expect(known.stderr.hasSuffix("; 5 known from the baseline\n"))
        }
        try launches(5, extraInLast: true).write(toFile: five, atomically: true, encoding: .utf8)
        let again = try lctrace(["check", "--fail-on", "warning", "--baseline", baseline, five])
        #expect(again.status == 1)
        #expect(again.stdout == "\(five):26: warning: [did-appear-twice] viewDidAppear on ViewController, which is already visible\n")

        let both = try lctrace(["check", "--baseline", baseline, "--write-baseline", baseline, five])
        #expect(both.status == 2)
        #expect(both.stderr.contains("--write-baseline records every finding of the run, known or not; leave out --baseline."))
    }

    /// CI names its logs per run: a baseline keyed on content knows a finding in an input of any name; one written with
    /// --baseline-by-input only in an input of the same name, as a baseline of format 1 (always keyed by input) does.
    @Test func aBaselineKnowsFindingsInARenamedInputUnlessKeyedByInput() throws {
        let directory = TestFiles.root.appendingPathComponent("lctrace-baseline-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let log = "A viewDidLoad()\nA viewWillAppear(_:)\nA viewDidAppear(_:)\nA viewDidAppear(_:)\n"
        let first = directory.appendingPathComponent("App-1111.log").path
        let renamed = directory.appendingPathComponent("App-2222.log").path
        try log.write(toFile: first, atomically: true, encoding: .utf8)
        try log.write(toFile: renamed, atomically: true, encoding: .utf8)
        let content = directory.appendingPathComponent("content.json").path
        let byInput = directory.appendingPathComponent("by-input.json").path
        #expect(try lctrace(["check", "--write-baseline", content, first]).status == 0)
        #expect(try lctrace(["check", "--write-baseline", byInput, "--baseline-by-input", first]).status == 0)
        #expect(try String(contentsOfFile: byInput, encoding: .utf8).contains(#""keyedBy": "input""#))
        #expect(try String(contentsOfFile: byInput, encoding: .utf8).contains(#""input":"App-1111.log""#))

        let known = try lctrace(["check", "--fail-on", "warning", "--baseline", content, renamed])
        #expect(known.status == 0 && known.stdout.isEmpty, "\(known.stdout)")
        #expect(known.stderr.hasSuffix("; 1 known from the baseline\n"))
        let unknown = try lctrace(["check", "--fail-on", "warning", "--baseline", byInput, renamed])
        #expect(unknown.status == 1 && unknown.stdout.contains("[did-appear-twice]"))
        #expect(try lctrace(["check", "--fail-on", "warning", "--baseline", byInput, first]).status == 0)

        let formatOne = directory.appendingPathComponent("format-1.json").path
        try """
            {"lctraceBaseline": 1, "findings": [{"rule":"did-appear-twice","controllerClass":"A","input":"App-1111.log",
             "message":"viewDidAppear on A, which is already visible","count":1}]}
            """.write(toFile: formatOne, atomically: true, encoding: .utf8)
        #expect(try lctrace(["check", "--fail-on", "warning", "--baseline", formatOne, first]).status == 0)
        #expect(try lctrace(["check", "--fail-on", "warning", "--baseline", formatOne, renamed]).status == 1)
        let alone = try lctrace(["check", "--baseline-by-input", first])
        #expect(alone.status == 2)
        #expect(alone.stderr.contains("--baseline-by-input says how --write-baseline keys the findings it writes"))
    }

    /// Two processes' sessions open at once: each closed session leaves out its own known findings, not the other's.
    @Test func aBaselineLeavesKnownFindingsOutOfInterleavedSessions() throws {
        let log = """
            2016-03-17 16:02:37.329 AppA[100:1] ViewController viewDidLoad
            2016-03-17 16:02:37.330 AppB[200:1] ListViewController viewDidLoad
            2016-03-17 16:02:37.331 AppA[100:1] ViewController viewWillAppear:
            2016-03-17 16:02:37.332 AppB[200:1] ListViewController viewWillAppear:
            2016-03-17 16:02:37.333 AppA[100:1] ViewController viewDidAppear:
            2016-03-17 16:02:37.334 AppB[200:1] ListViewController viewDidAppear:
            2016-03-17 16:02:37.335 AppA[100:1] ViewController viewDidAppear:
            2016-03-17 16:02:37.336 AppB[200:1] ListViewController viewDidAppear:

            """
        let path = try Fixtures.temporaryFile(log, name: "two.log")
        let baseline = temporaryPath("two.json")
        #expect(try lctrace(["check", "--write-baseline", baseline, path]).status == 0)
        let json = try lctrace(["--format", "json", "--no-events", "--baseline", baseline, path])
        let document = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        let sessions = try #require(document["sessions"] as? [[String: Any]])
        #expect(sessions.map { $0["findings"] as? Int } == [0, 0])
        #expect((document["findings"] as? [Any])?.isEmpty == true)
    }

    @Test func aBaselineOfAnotherFormatOrShapeIsAnError() throws {
        let future = temporaryPath("future.json")
        try #"{"lctraceBaseline": 4, "findings": []}"#.write(toFile: future, atomically: true, encoding: .utf8)
        let run = try lctrace(["check", "--baseline", future, "SampleLogs/seed-push-pop.log"])
        #expect(run.status == 2)
        #expect(run.stderr == "lctrace: baseline \(future) is in baseline format 4; this lctrace reads formats 1 to 3 (write it again with --write-baseline)\n")
        let keyed = temporaryPath("keyed.json")
        try #"{"lctraceBaseline": 2, "keyedBy": "path", "findings": []}"#.write(toFile: keyed, atomically: true, encoding: .utf8)
        #expect(try lctrace(["check", "--baseline", keyed, "SampleLogs/seed-push-pop.log"]).stderr
                    == "lctrace: baseline \(keyed) is not an lctrace baseline: \"keyedBy\" is \"path\", not \"content\" or \"input\"\n")
        let other = temporaryPath("other.json")
        try #"{"version": "2.1.0"}"#.write(toFile: other, atomically: true, encoding: .utf8)
        #expect(try lctrace(["check", "--baseline", other, "SampleLogs/seed-push-pop.log"]).stderr
                    == "lctrace: baseline \(other) is not an lctrace baseline: it has no \"lctraceBaseline\"\n")
        let missing = temporaryPath("missing.json")
        let unread = try lctrace(["check", "--baseline", missing, "SampleLogs/seed-push-pop.log"])
        #expect(unread.status == 2)
        // The C library's words for the failure, the same on every platform.
        #expect(unread.stderr == "lctrace: baseline \(missing) cannot be read: No such file or directory\n")
        #expect(try lctrace(["check", "--baseline", "SampleLogs", "SampleLogs/seed-push-pop.log"]).stderr
                    == "lctrace: baseline SampleLogs cannot be read: Is a directory\n")
    }

    @Test func findingKeysLeaveOutWhatChangesBetweenRuns() {
        #expect(FindingKey.normalized("viewDidLoad came after viewWillAppear (line 12) on ViewController@0x7fb2c8d0a600")
                    == "viewDidLoad came after viewWillAppear (line #) on ViewController")
        #expect(FindingKey.normalized("Detail2ViewController#3 left at 0x6000aa after 1,250.5 ms, from 16:02:37.277")
                    == "Detail2ViewController left at 0x… after # ms, from #")
        #expect(FindingKey.className(ofController: "A#2") == "A")
        #expect(FindingKey.className(ofController: "A@0x1") == "A")
        #expect(FindingKey.baseName("/tmp/x/app.log") == "app.log")
        let key = FindingKey(rule: "r", controllerClass: "C", input: "i", message: "m")
        #expect(key.fingerprint == FindingKey(rule: "r", controllerClass: "C", input: "i", message: "m").fingerprint)
        #expect(key.fingerprint != FindingKey(rule: "r", controllerClass: nil, input: "Ci", message: "m").fingerprint)
        #expect(key.fingerprint.count == 16)
    }
}

@Suite(.serialized) struct CommandLineConventionTests {
    @Test func versionIsSemantic() throws {
        let run = try lctrace(["--version"])
        #expect(run.status == 0)
        #expect(run.stdout == LCTraceVersion.current + "\n")
        #expect(LCTraceVersion.current.wholeMatch(of: /[0-9]+\.[0-9]+\.[0-9]+/) != nil)
    }

    /// A command parses its arguments alone when it can (a faster start); its help is still the whole tool's.
    @Test func helpNamesTheToolWhateverAsksForIt() throws {
        let root = try lctrace(["--help"])
        #expect(root.status == 0)
        #expect(root.stdout.hasPrefix("OVERVIEW: Reads iOS app lifecycle logs"))
        #expect(root.stdout.contains("USAGE: lctrace <subcommand>"))
        #expect(try lctrace(["-h"]).stdout == root.stdout)
        for command in ["analyze", "check", "learn", "lines", "rules", "explain"] {
            let help = try lctrace([command, "--help"])
            #expect(help.status == 0, "\(command) --help")
            #expect(help.stdout.contains("USAGE: lctrace \(command)"), "\(command) --help: \(help.stdout.prefix(300))")
            #expect(try lctrace([command, "-h"]).stdout == help.stdout, "\(command) -h")
            #expect(try lctrace(["help", command]).stdout == help.stdout, "help \(command)")
        }
        // An option a command does not take: an error naming the option, status 2 (the same from either parse).
        let unknown = try lctrace(["check", "--no-such-option"])
        #expect(unknown.status == 2)
        #expect(unknown.stderr.hasPrefix("lctrace: Unknown option '--no-such-option'"), "\(unknown.stderr)")
    }

    @Test func aMistypedCommandIsNotReadAsAFile() throws {
        let run = try lctrace(["explian", "did-appear-twice"])
        #expect(run.status == 2)
        #expect(run.stderr == "lctrace: unknown command 'explian'; did you mean 'explain'? (no log file of that name exists either)\n")
        #expect(try lctrace(["chekc", "x.log"]).stderr.contains("did you mean 'check'?"))
        // A file that exists is read, whatever its name.
        let directory = TestFiles.root.appendingPathComponent("lctrace-names-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        try "A viewDidLoad()\n".write(to: directory.appendingPathComponent("chekc"), atomically: true, encoding: .utf8)
        #expect(try lctrace(["chekc"], directory: directory).status == 0)
    }

    /// Run at a terminal with no input named, lctrace says it is reading standard input; from a pipe it does not.
    @Test(.enabled(if: CommandLineConventionTests.terminalRunner != nil, "needs script(1) at /usr/bin/script"))
    func aTerminalOnStandardInputGetsAHint() throws {
        let hint = "lctrace: reading a log from standard input (end it with Ctrl-D; lctrace --help for more)"
        let runner = try #require(Self.terminalRunner)
        let atTerminal = try lctrace(runner("\(try lctraceExecutable()) check --fail-on never"),
                                     stdin: Data("A viewDidLoad()\n\u{4}".utf8), executable: "/usr/bin/script")
        #expect(atTerminal.stdout.contains(hint), "\(atTerminal.stdout)")
        let piped = try lctrace(["check", "--fail-on", "never"], stdin: Data("A viewDidLoad()\n".utf8))
        #expect(!piped.stderr.contains(hint))
        #expect(piped.stderr.contains("(1 line, 1 lifecycle event)"), "\(piped.stderr)")
    }

    /// The arguments that make `script` run a shell command on a pseudo-terminal and keep no typescript: util-linux's
    /// `script -qec CMD /dev/null` on Linux, BSD's `script -q /dev/null sh -c CMD` on macOS.
    static let terminalRunner: (@Sendable (String) -> [String])? = {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/script") else { return nil }
        #if os(Linux)
        return { ["-qec", $0, "/dev/null"] }
        #elseif os(macOS)
        return { ["-q", "/dev/null", "/bin/sh", "-c", $0] }
        #else
        return nil
        #endif
    }()

    @Test func completionScriptsOfferFormatsReportersAndRules() throws {
        for shell in ["bash", "zsh", "fish"] {
            let script = try lctrace(["--generate-completion-script", shell]).stdout
            for word in ["github-actions", "nslog-classic", "did-appear-twice", "did-appear-twice=off"] {
                #expect(script.contains(word), "\(shell) completion offers \(word)")
            }
        }
    }

    /// The bash script's completion function, run as bash runs it: the default command's options, their values and
    /// files are completed where no command is named (`lctrace app.log --rep`), as well as the commands.
    @Test func bashCompletesTheDefaultCommand() throws {
        let script = TestFiles.root.appendingPathComponent("lctrace-\(UUID().uuidString).bash").path
        try lctrace(["--generate-completion-script", "bash"]).stdout.write(toFile: script, atomically: true, encoding: .utf8)
        let harness = """
            source "$0"
            COMP_WORDS=("$@"); COMP_CWORD=$((${#COMP_WORDS[@]} - 1)); COMP_LINE="$*"; COMP_POINT=${#COMP_LINE}
            COMPREPLY=()
            _lctrace lctrace "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD-1]}"
            printf '%s\\n' "${COMPREPLY[@]}" | sort -u
            """
        func completions(_ words: String...) throws -> [String] {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/bin/bash")
            process.arguments = ["-c", harness, script, "lctrace"] + words
            process.currentDirectoryURL = Fixtures.sampleLogs
            let output = Pipe()
            process.standardOutput = output
            try process.run()
            let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            process.waitUntilExit()
            return text.split(separator: "\n").map(String.init)
        }
        #expect(try completions("--rep") == ["--reporter"])
        #expect(try completions("seed-push-pop.log", "--no-e") == ["--no-events"])
        #expect(try completions("--reporter", "sa") == ["sarif"])
        #expect(try completions("--jobs", "2", "seed-pr") == ["seed-present-dismiss.log"])
        #expect(try completions("ch") == ["check", "child-containment.log"])
        #expect(try completions("check", "--fail") == ["--fail-on"])
    }
}

@Suite(.serialized) struct EveryReporterTests {
    /// Every reporter over every sample log and a generated log of legal traffic, in one pass each: the run
    /// completes, and each report that can be parsed parses and holds as many findings as the compiler-form one.
    @Test func everyReporterWorksOnTheSamplesAndAGeneratedLog() throws {
        let samples = try FileManager.default.contentsOfDirectory(atPath: Fixtures.sampleLogs.path)
            .filter { $0.hasSuffix(".log") }.sorted().map { "SampleLogs/" + $0 }
        let generated = try generatedLog(bytes: "300K", seed: 21, format: "nslog-modern")
        let inputs = samples + [generated]
        let directory = TestFiles.root.appendingPathComponent("lctrace-every-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let reporters = ReportKind.allCases.map(\.rawValue)
        let run = try lctrace(["check", "--fail-on", "never", "--verbose"] + reporters.flatMap { ["--reporter", "\($0)=\(directory.path)/\($0).out"] } + inputs)
        #expect(run.status == 0, "\(run.stderr)")
        func report(_ name: String) throws -> Data { try Data(contentsOf: directory.appendingPathComponent("\(name).out")) }
        let findings = String(decoding: try report("xcode"), as: UTF8.self).split(separator: "\n").count
        #expect(findings > 30)

        let json = try #require(try JSONSerialization.jsonObject(with: report("json")) as? [String: Any])
        #expect((json["findings"] as? [Any])?.count == findings)
        let ndjson = String(decoding: try report("ndjson"), as: UTF8.self).split(separator: "\n")
        #expect(ndjson.filter { $0.hasPrefix(#"{"type":"finding""#) }.count == findings)
        let sarif = try #require(try JSONSerialization.jsonObject(with: report("sarif")) as? [String: Any])
        #expect(((sarif["runs"] as? [[String: Any]])?.first?["results"] as? [Any])?.count == findings)
        #expect((try JSONSerialization.jsonObject(with: report("codeclimate")) as? [Any])?.count == findings)
        // What the text and Markdown reports say is what the JSON report counted.
        let summary = try #require(json["summary"] as? [String: Any])
        let counts = try #require(summary["findings"] as? [String: Int])
        func number(_ key: String) -> Int { summary[key] as? Int ?? -1 }
        func plural(_ count: Int, _ noun: String) -> String { "\(count) \(noun)\(count == 1 || noun == "info" ? "" : "s")" }
        let severities = ["error", "warning", "info"].map { plural(counts[$0] ?? -1, $0) }.joined(separator: ", ")
        #expect(counts.values.reduce(0, +) == findings)
        let text = String(decoding: try report("text"), as: UTF8.self)
        let textLines = text.split(separator: "\n")
        #expect(textLines.filter { $0.hasPrefix("Session ") }.count == number("sessions"))
        let textSummary = try #require(textLines.last)
        #expect(textSummary.hasPrefix("Summary: \(plural(number("lines"), "line")) ("), "\(textSummary)")
        #expect(textSummary.hasSuffix("\(plural(number("events"), "event")), \(plural(number("sessions"), "session")), "
                                      + "\(plural(number("controllers"), "controller")), "
                                      + (number("views") > 0 ? "\(plural(number("views"), "SwiftUI view")), " : "")
                                      + "\(plural(number("transitions"), "transition")); "
                                      + severities), "\(textSummary)")
        let markdown = String(decoding: try report("markdown"), as: UTF8.self)
        #expect(markdown.hasPrefix("## lctrace\n\n**\(severities)** in \(plural(number("sessions"), "session")) of "
                                   + "\(plural(inputs.count, "input")) (\(plural(number("lines"), "line")), "
                                   + "\(plural(number("events"), "lifecycle event"))).\n"), "\(markdown.prefix(300))")
        let rowStarts = ["| error |", "| warning |", "| info |"]
        let rows = markdown.split(separator: "\n").filter { line in rowStarts.contains { line.hasPrefix($0) } }
        var counted = 0
        for row in rows {
            let cells = row.split(separator: "|", omittingEmptySubsequences: false)
            counted += Int(cells[4].trimmingCharacters(in: .whitespaces)) ?? -1
        }
        #expect(!rows.isEmpty && counted == findings, "\(counted) findings in \(rows.count) rows")
        let annotations = String(decoding: try report("github-actions"), as: UTF8.self).split(separator: "\n")
        #expect(annotations.count >= 10 && annotations.allSatisfy { $0.hasPrefix("::") })
        for xml in ["junit", "checkstyle"] {
            let document = String(decoding: try report(xml), as: UTF8.self)
            #expect(document.hasPrefix("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"), "\(xml)")
        }
        let checkstyleErrors = String(decoding: try report("checkstyle"), as: UTF8.self).components(separatedBy: "<error ").count - 1
        #expect(checkstyleErrors == findings)
        let junit = String(decoding: try report("junit"), as: UTF8.self)
        #expect(junit.components(separatedBy: "<testsuite ").count - 1 == inputs.count)

        let trace = try #require(try JSONSerialization.jsonObject(with: report("chrome-trace")) as? [String: Any])
        let traceEvents = try #require(trace["traceEvents"] as? [[String: Any]])
        #expect(traceEvents.filter { ($0["cat"] as? String)?.hasPrefix("finding,") == true }.count == findings)
        #expect(TraceCheck.problems(traceEvents) == [])
        let html = String(decoding: try report("html"), as: UTF8.self)
        let runData = try #require(html.components(separatedBy: "<script type=\"application/json\" id=\"lct-run\">").last?
            .components(separatedBy: "</script>").first)
        let page = try #require(try JSONSerialization.jsonObject(with: Data(runData.utf8)) as? [String: Any])
        #expect((page["findings"] as? [Any])?.count == findings)
        // A diagram per session, each under its heading; every finding of a session a note of the full form.
        for name in ["mermaid", "mermaid-short"] {
            let markdown = String(decoding: try report(name), as: UTF8.self)
            #expect(markdown.hasPrefix("### "), "\(name)")
            #expect(markdown.components(separatedBy: "\n### ").count == number("sessions"), "\(name)")
            #expect(markdown.components(separatedBy: "```mermaid\nsequenceDiagram\n").count - 1 == number("sessions"), "\(name)")
        }
        let notes = String(decoding: try report("mermaid"), as: UTF8.self).split(separator: "\n")
            .filter { line in line.hasPrefix("    Note over ") && ["error [", "warning [", "info ["].contains { line.contains(": " + $0) } }
        let inSessions = (json["findings"] as? [[String: Any]] ?? []).filter { ($0["session"] as? Int ?? 0) > 0 }.count
        #expect(notes.count == inSessions && inSessions >= findings - 2, "\(notes.count) finding notes of \(inSessions)")
    }

    /// Every reporter over an empty input: each writes a whole report that parses, and holds the one finding the input
    /// gives (no lifecycle event), an error with no session, as the JSON report and the stderr summary count it.
    @Test func everyReporterReportsAnEmptyInput() throws {
        let log = try Fixtures.temporaryFile("", name: "empty.log")
        let directory = URL(fileURLWithPath: log).deletingLastPathComponent()
        let run = try lctrace(["check", "--fail-on", "never", "--no-config"]
                              + ReportKind.allCases.flatMap { ["--reporter", "\($0.rawValue)=\($0.rawValue).out"] } + ["empty.log"],
                              directory: directory)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stderr.contains("lctrace: 1 error, 0 warnings, 0 info in 0 sessions of 1 input (0 lines, 0 lifecycle events)"),
                "\(run.stderr)")
        func report(_ reporter: ReportKind) throws -> Data { try Data(contentsOf: directory.appendingPathComponent("\(reporter.rawValue).out")) }
        func text(_ reporter: ReportKind) throws -> String { String(decoding: try report(reporter), as: UTF8.self) }
        let finding = "[no-lifecycle-events] no lifecycle event was read from empty.log"

        let json = try #require(try JSONSerialization.jsonObject(with: report(.json)) as? [String: Any])
        let findings = try #require(json["findings"] as? [[String: Any]])
        #expect(findings.count == 1 && findings.first?["rule"] as? String == "no-lifecycle-events")
        #expect((json["summary"] as? [String: Any])?["findings"] as? [String: Int] == ["error": 1, "warning": 0, "info": 0])
        let records = try text(.ndjson).split(separator: "\n").map { try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
        #expect(records.filter { $0?["type"] as? String == "finding" }.count == 1)
        #expect(records.last??["type"] as? String == "summary")
        let sarif = try #require(try JSONSerialization.jsonObject(with: report(.sarif)) as? [String: Any])
        let results = (sarif["runs"] as? [[String: Any]])?.first?["results"] as? [[String: Any]]
        #expect(results?.map { $0["level"] as? String } == ["error"])
        #expect((try JSONSerialization.jsonObject(with: report(.codeclimate)) as? [[String: Any]])?.map { $0["severity"] as? String } == ["major"])
        #expect(try text(.checkstyle).components(separatedBy: "<error ").count - 1 == 1)
        #expect(try text(.junit).contains("<testsuites name=\"lctrace\" tests=\"1\" failures=\"1\" errors=\"0\">"))
        #expect(try text(.xcode) == "empty.log:1: error: \(finding) (0 lines: 0 lifecycle, 0 notice, 0 other, 0 unread, 0 blank or skipped); "
                + "`lctrace lines empty.log` shows how each line was read\n")
        #expect(try text(.githubActions).hasPrefix("::error file=empty.log,line=1,title=[no-lifecycle-events]::"))
        #expect(try text(.text).contains("; 1 error, 0 warnings, 0 info\n"))
        #expect(try text(.markdown).hasPrefix("## lctrace\n\n**1 error, 0 warnings, 0 info** in 0 sessions of `empty.log`"))
        let trace = try #require(try JSONSerialization.jsonObject(with: report(.chromeTrace)) as? [String: Any])
        let traceEvents = try #require(trace["traceEvents"] as? [[String: Any]])
        #expect(traceEvents.filter { $0["cat"] as? String == "finding,error" }.count == 1)
        let html = try text(.html)
        let runData = try #require(html.components(separatedBy: "<script type=\"application/json\" id=\"lct-run\">").last?
            .components(separatedBy: "</script>").first)
        let page = try #require(try JSONSerialization.jsonObject(with: Data(runData.utf8)) as? [String: Any])
        #expect((page["findings"] as? [Any])?.count == 1)
        // No session, so no diagram; the page says there is nothing to draw rather than nothing at all.
        for reporter in [ReportKind.mermaid, .mermaidShort] {
            #expect(!(try text(reporter)).contains("```mermaid"), "\(reporter.rawValue)")
            #expect(!(try report(reporter)).isEmpty, "\(reporter.rawValue)")
        }
    }
}

@Suite(.serialized) struct ReportDeliveryTests {
    /// Reports written together are the reports written alone, byte for byte: the text and JSON reports list the
    /// transitions that JSON Lines, beside them, streams.
    @Test func reportsWrittenTogetherAreTheReportsWrittenAlone() throws {
        let inputs = [try generatedLog(bytes: "200K", seed: 31, format: "nslog-classic"), Fixtures.sample("seed-push-pop.log"),
                      Fixtures.sample("possible-leak.log")]
        let directory = TestFiles.root.appendingPathComponent("lctrace-fanout-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        for jobs in ["1", "2"] {
            let together = try lctrace(["--jobs", jobs] + ["text", "json", "ndjson"].flatMap { ["--reporter", "\($0)=\(directory.path)/\($0)"] } + inputs)
            #expect(together.status == 0)
            for format in ["text", "json", "ndjson"] {
                let alone = try lctrace(["--jobs", jobs, "--format", format] + inputs).stdout
                let written = try String(contentsOfFile: "\(directory.path)/\(format)", encoding: .utf8)
                #expect(written == alone, "\(format), --jobs \(jobs)")
                #expect(alone.count > 10_000)
            }
        }
    }
}

@Suite struct CheckSummaryTests {
    /// `check`'s summary line says how many events had a time that could not be read, and says nothing of it otherwise.
    @Test func theSummarySaysWhenTimesCouldNotBeRead() throws {
        let log = "2016-02-30 16:02:37.277 LifeCycle[2148:117099] ViewController viewDidLoad\n"
            + "2016-03-17 16:02:37.279 LifeCycle[2148:117099] ViewController viewWillAppear:\n"
        let run = try lctrace(["check", try Fixtures.temporaryFile(log)])
        #expect(run.stderr == "lctrace: 0 errors, 0 warnings, 1 info in 1 session of 1 input (2 lines, 2 lifecycle events, "
                    + "1 with a time that could not be read)\n", "\(run.stderr)")
        let clean = try lctrace(["check", "SampleLogs/seed-push-pop.log"])
        #expect(clean.stderr.hasSuffix("(17 lines, 16 lifecycle events)\n"), "\(clean.stderr)")
    }

    /// The Markdown summary sums the run up in the same sentence as `check`'s summary line, its counts in bold and a
    /// single input named.
    @Test func theMarkdownSummarySaysWhatCheckSays() throws {
        let log = "2016-02-30 16:02:37.277 LifeCycle[2148:117099] ViewController viewDidLoad\n"
            + "2016-03-17 16:02:37.279 LifeCycle[2148:117099] ViewController viewWillAppear:\n"
        let path = try Fixtures.temporaryFile(log, name: "times.log")
        let markdown = try lctrace(["check", "--reporter", "markdown", path]).stdout
        #expect(markdown.contains("**0 errors, 0 warnings, 1 info** in 1 session of `\(path)` (2 lines, 2 lifecycle events, "
                                  + "1 with a time that could not be read).\n"), "\(markdown)")
    }
}
