import Foundation
import Testing
@testable import LCTraceKit

/// Models of good runs (`lctrace learn`) and runs held against them (`--against`).
@Suite struct LifecycleModelTests {
    /// One launch of an app in NSLog's classic form: A shows, pushes B and pops back (the pop taking `popMs`), then
    /// shows C, presented and dismissed, or pushed and popped with `pushesC`.
    static func launch(pid: Int, minute: Int, popMs: Int = 300, pushesC: Bool = false) -> String {
        let steps: [(Int, String)] = [
            (0, "main"), (10, "A viewDidLoad"), (20, "A viewWillAppear:"), (30, "A viewDidAppear:"),
            (1000, "B viewDidLoad"), (1010, "A viewWillDisappear:"), (1020, "B viewWillAppear:"), (1300, "A viewDidDisappear:"),
            (1310, "B viewDidAppear:"),
            (2000, "B viewWillDisappear:"), (2010, "A viewWillAppear:"), (2000 + popMs, "B viewDidDisappear:"),
            (2010 + popMs, "A viewDidAppear:"), (2020 + popMs, "B dealloc"),
            (4000, "C viewDidLoad"), (4010, "A viewWillDisappear:"), (4020, "C viewWillAppear:"),
        ] + (pushesC
            ? [(4300, "A viewDidDisappear:"), (4310, "C viewDidAppear:"), (5000, "C viewWillDisappear:"), (5010, "A viewWillAppear:"),
               (5300, "C viewDidDisappear:"), (5310, "A viewDidAppear:")]
            : [(4300, "C viewDidAppear:"), (4310, "A viewDidDisappear:"), (5000, "C viewWillDisappear:"), (5010, "A viewWillAppear:"),
               (5300, "A viewDidAppear:"), (5310, "C viewDidDisappear:")]) + [(5320, "C dealloc")]
        return steps.map { ms, message in
            let time = String(format: "2016-03-17 16:%02d:%02d.%03d", minute, ms / 1000, ms % 1000)
            return "\(time) App[\(pid):1] \(message)\n"
        }.joined()
    }

    static let baseRuns = (0..<5).map { launch(pid: 100 + $0, minute: $0) }

    @Test func aModelCountsRunsTransitionsAndControllers() throws {
        let model = try learnModel(Self.baseRuns[0], Self.baseRuns[1])
        #expect(model.runs == 2)
        let push = try #require(model.transitions[LifecycleModel.TransitionPath(kind: "push", from: "A", to: "B")])
        #expect(push.runs == 2 && push.count == 2 && push.durations.count == 2)
        #expect(model.transitions[LifecycleModel.TransitionPath(kind: "present", from: "A", to: "C")]?.count == 2)
        #expect(model.transitions[LifecycleModel.TransitionPath(kind: "dismiss", from: "C", to: "A")]?.count == 2)
        #expect(model.controllers["C"]?.count == 2)
        // viewDidLoad to viewDidAppear of C: 300 ms, within the histogram's 1 %.
        let loadToAppear = try #require(model.controllers["C"]?.durations.milliseconds(atPercentile: 50))
        #expect(abs(loadToAppear - 300) <= 3)
        // The file reads back to the same model.
        #expect(try LifecycleModel(json: Data(model.json.utf8)) == model)
    }

    /// Merging is associative and commutative: the same runs learned in another order, or in parts merged, give the
    /// same model, byte for byte.
    @Test func theSameRunsInAnyOrderGiveTheSameModel() throws {
        let runs = Self.baseRuns + [Self.launch(pid: 200, minute: 9, popMs: 450, pushesC: true)]
        let inOrder = try learnModel(runs[0], runs[1], runs[2], runs[3], runs[4], runs[5])
        let reversed = try learnModel(runs[5], runs[4], runs[3], runs[2], runs[1], runs[0])
        var merged = try learnModel(runs[4], runs[1])
        merged.merge(try learnModel(runs[5]))
        var rest = try learnModel(runs[3], runs[0])
        rest.merge(try learnModel(runs[2]))
        merged.merge(rest)
        #expect(inOrder.json == reversed.json)
        #expect(inOrder.json == merged.json)
        #expect(inOrder.runs == 6)
    }

    /// A head run with a slower pop, C pushed where every earlier run presented it: each difference is reported once,
    /// at its first line, and nothing else.
    @Test func aRunHeldAgainstAModelReportsEachDifferenceOnce() throws {
        var options = AnalysisOptions()
        options.against = try learnModel(Self.baseRuns[0], Self.baseRuns[1], Self.baseRuns[2], Self.baseRuns[3], Self.baseRuns[4])
        let head = (0..<5).map { Self.launch(pid: 300 + $0, minute: 10 + $0, popMs: 600, pushesC: true) }.joined()
        let findings = try analyze(text: head, options: options).findings
        let found = findings.map { "\($0.rule.rawValue) \($0.line): \($0.message)" }
        #expect(found == [
            "new-transition 16: push A → C is new: it never happened in the model's 5 runs; the model has it as present",
            "new-transition 20: pop C → A is new: it never happened in the model's 5 runs; the model has it as dismiss",
            "missing-transition 1: present A → C did not happen in this run; it happened in every one of the model's 5 runs (5 times in all)",
            "missing-transition 1: dismiss C → A did not happen in this run; it happened in every one of the model's 5 runs (5 times in all)",
            "slower-than-model 10: pop B → A is 96 % slower than the model at its p90: 610 ms against 311 ms (5 timings here, 5 in the model)",
        ], "\(found)")
        #expect(findings.allSatisfy { $0.severity == .warning && $0.session == 0 })

        // The same run is clean against a model of itself; slower by less than --slower-by is not reported.
        options.against = try learnModel(head)
        #expect(try analyze(text: head, options: options).findings.isEmpty)
        options.against = try learnModel(Self.baseRuns[0], Self.baseRuns[1], Self.baseRuns[2], Self.baseRuns[3], Self.baseRuns[4])
        options.rules.slowerThanModelPercent = 150
        #expect(try analyze(text: head, options: options).findings.filter { $0.rule == .slowerThanModel }.isEmpty)
    }

    @Test func aFileThatIsNotAModelIsAnError() {
        #expect(throws: LifecycleModel.ReadError.self) { try LifecycleModel(json: Data(#"{"lctraceModel": 2, "runs": 0, "transitions": [], "controllers": []}"#.utf8)) }
        #expect(throws: LifecycleModel.ReadError.self) { try LifecycleModel(json: Data(#"{"lctraceModel": 1, "runs": 1}"#.utf8)) }
        #expect(throws: LifecycleModel.ReadError.self) {
            try LifecycleModel(json: Data(#"{"lctraceModel": 1, "runs": 1, "transitions": [{"kind": "push", "runs": 1, "count": 1, "durationsMicros": [[5]]}], "controllers": []}"#.utf8))
        }
        #expect(LifecycleModel.looksLikeModel(Array("  {\n  \"lctraceModel\": 1,".utf8)))
        #expect(!LifecycleModel.looksLikeModel(Array("2016-03-17 16:02:37.277 LifeCycle[2148:117099] ViewController viewDidLoad".utf8)))
    }
}

/// `lctrace learn`, `--write-model` and `--against` on the command line.
@Suite(.serialized) struct LearnCommandTests {
    @Test func learnWritesAModelThatCheckHoldsARunAgainst() throws {
        let directory = TestFiles.root.appendingPathComponent("lctrace-model-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        func file(_ name: String, _ text: String) throws -> String {
            let path = directory.appendingPathComponent(name).path
            try text.write(toFile: path, atomically: true, encoding: .utf8)
            return path
        }
        let base = try LifecycleModelTests.baseRuns.enumerated().map { try file("base-\($0.offset).log", $0.element) }
        let head = try file("head.log", (0..<5).map { LifecycleModelTests.launch(pid: 300 + $0, minute: 10 + $0, popMs: 600, pushesC: true) }.joined())
        let model = directory.appendingPathComponent("model.json").path
        let learned = try lctrace(["learn", "--no-config", "-o", model] + base)
        #expect(learned.status == 0)
        #expect(learned.stderr == "lctrace: learned 5 runs: 5 transitions and 3 controller classes\n")
        #expect(try String(contentsOfFile: model, encoding: .utf8).hasPrefix("{\n  \"lctraceModel\": 1,\n"))

        // Merged from parts, the model is the same file.
        let part = directory.appendingPathComponent("part.json").path
        #expect(try lctrace(["learn", "--no-config", "-o", part] + base.prefix(2)).status == 0)
        let merged = try lctrace(["learn", "--no-config", "--merge", part] + base.suffix(3))
        #expect(merged.status == 0)
        #expect(merged.stdout == (try String(contentsOfFile: model, encoding: .utf8)))

        let check = try lctrace(["check", "--no-config", "--fail-on", "warning", "--against", model, head])
        #expect(check.status == 1)
        #expect(check.stdout.split(separator: "\n").map { $0.split(separator: "]").first.map(String.init) ?? "" } == [
            "\(head):16: warning: [new-transition", "\(head):20: warning: [new-transition", "\(head):1: warning: [missing-transition",
            "\(head):1: warning: [missing-transition", "\(head):10: warning: [slower-than-model",
        ])
        // A log of a good run is learned on the spot: the same findings as against its model.
        let firstRun = directory.appendingPathComponent("first.json").path
        #expect(try lctrace(["learn", "--no-config", "-o", firstRun, base[0]]).status == 0)
        let againstLog = try lctrace(["check", "--no-config", "--fail-on", "warning", "--against", base[0], head])
        #expect(againstLog.status == 1 && againstLog.stdout.contains("[missing-transition] present A → C"))
        #expect(againstLog.stdout == (try lctrace(["check", "--no-config", "--fail-on", "warning", "--against", firstRun, head])).stdout)

        // check writes the model of its own run too, which then holds it clean.
        let own = directory.appendingPathComponent("own.json").path
        #expect(try lctrace(["check", "--no-config", "--write-model", own, head]).status == 0)
        let clean = try lctrace(["check", "--no-config", "--fail-on", "warning", "--against", own, head])
        #expect(clean.status == 0 && clean.stdout.isEmpty)

        let notAModel = try file("broken.json", #"{"lctraceModel": 7}"#)
        let broken = try lctrace(["check", "--no-config", "--against", notAModel, head])
        #expect(broken.status == 2)
        #expect(broken.stderr == "lctrace: --against model \(notAModel) is in model format 7; this lctrace reads format 1 (learn it again with lctrace learn)\n")
    }
}
