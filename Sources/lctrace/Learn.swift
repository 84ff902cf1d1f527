import ArgumentParser
import LCTraceKit

/// `lctrace learn`: the model of good runs, to hold later runs against (`--against`).
struct Learn: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "learn",
        abstract: "Learn a model of good runs (their transitions, controllers and timings) to hold later runs against.",
        discussion: """
            Each input is one run. The model counts the transitions between controller classes (kind, from class, to \
            class), the controller classes and their instances, and how long each took, in histograms that merge: \
            --merge adds models learned before (of main's earlier runs, say), in any order, to the same result. \
            `lctrace check --against MODEL` then reports what is new, what is gone and what got slower.
            """)

    @OptionGroup var input: InputOptions

    @Option(name: [.customShort("o"), .long], help: ArgumentHelp("Write the model to this file ('-': standard output).", valueName: "path"),
            completion: .file(extensions: ["json"]))
    var output: String = "-"

    @Option(name: .long, help: ArgumentHelp("Add this model to the one learned (repeatable); with no input, only merges models.",
                                            valueName: "path"), completion: .file(extensions: ["json"]))
    var merge: [String] = []

    @OptionGroup var ruleOptions: RuleOptions

    func run() throws {
        if input.inputs.isEmpty, !merge.isEmpty {
            var model = LifecycleModel()
            for path in merge {
                do { model.merge(try LifecycleModel(path: path)) } catch { fail("model \(path) \(error)") }
            }
            write(model)
            return
        }
        let config = ruleOptions.configFile()
        var report = try ReportOptions.parse([])
        report.writeModel = output == "-" ? nil : output
        var run = AnalysisRun(input: input, report: report, rules: ruleOptions, requests: [], includeEvents: false)
        run.config = config
        run.merge = merge
        run.learnsModel = true
        let outcome = run.run()
        failForUnreadInputs(outcome.unreadPaths)
        guard let model = outcome.model else { return }
        if output == "-" { write(model) }
        if !input.quiet {
            StandardStream.error.write("lctrace: learned \(model.runs) \(model.runs == 1 ? "run" : "runs"): "
                                       + "\(model.transitions.count) transitions and \(model.controllers.count) controller classes\n")
        }
    }

    /// Writes the model to `--output`: a file, replaced once written whole, or standard output.
    private func write(_ model: LifecycleModel) {
        let path = output == "-" || output.isEmpty ? nil : output
        let destination: Output
        do { destination = try path.map(Output.replacing) ?? Output.standardOutput() } catch { fail("\(error)") }
        destination.write(model.json)
        finishWriting(destination, to: path)
    }
}
