import Foundation
@testable import LCTraceKit

/// An input of a test run: the file read, and the name it is reported under.
struct ReportInput {
    var path: String
    var name: String

    /// A sample log, named relative to the repository (`SampleLogs/NAME`), as the working directory would give it.
    static func sample(_ name: String) -> ReportInput { ReportInput(path: Fixtures.sample(name), name: "SampleLogs/" + name) }
    /// A sample log named by its absolute path.
    static func absolute(_ name: String) -> ReportInput { ReportInput(path: Fixtures.sample(name), name: Fixtures.sample(name)) }
}

/// Runs the analysis over `inputs` into `sink`, beside a recorder, through the fan-out the command line uses for
/// several reports (so a streaming report gets its live items); returns what the analysis reported.
@discardableResult
func report(_ inputs: [ReportInput], into sink: any Reporter, options: AnalysisOptions = AnalysisOptions()) throws -> RecordingSink {
    let recorder = RecordingSink()
    let analyzer = try Analyzer(options: options, reports: ReportDelivery([recorder, sink]))
    for input in inputs {
        let fd = try InputSource.file(input.path).openDescriptor()
        defer { _ = close(fd) }
        try analyzer.analyze(fileDescriptor: fd, name: input.name)
    }
    analyzer.finish()
    return recorder
}

/// A log file whose name and lines hold characters that XML and JSON must escape, and one that XML 1.0 cannot hold.
func hostileLog() throws -> ReportInput {
    let log = "<Module.A<i>&\"x\": 0x600000001> viewDidLoad()\nA viewWillAppear(_:)\nA viewDidAppear(_:)\nA viewDidAppear(_:)\n"
    let path = try Fixtures.temporaryFile(log, name: "A<b>&\"c'\u{1}.log")
    return ReportInput(path: path, name: path)
}

/// What the tests of the CI reports share.
enum CIReports {
    /// Samples with an error, a warning, an informational finding, a finding about a whole input (and no session),
    /// and none at all.
    static let samples = ["did-appear-without-will-appear.log", "transition-order.log", "seed-push-pop.log",
                          "no-lifecycle-events.log", "child-containment.log"]
    static let root = Fixtures.repositoryRoot.path

    /// Compares a report of one run over three samples with findings (an error, a whole input with no session, an
    /// informational one) with its golden file. The working directory the renderer is given is fixed, so the report
    /// does not depend on the checkout; the version is written `VERSION`, so it does not change with it.
    static func assertGolden(_ name: String, shown: (String) -> String = { $0 }, _ make: (Output) -> any Reporter) throws {
        let inputs = [ReportInput.sample("did-appear-without-will-appear.log"), .sample("no-lifecycle-events.log"),
                      .sample("seed-push-pop.log")]
        let output = Output()
        try report(inputs, into: make(output))
        try RenderingTests().assertGolden(shown(output.text.replacingOccurrences(of: "\"\(LCTraceVersion.current)\"", with: "\"VERSION\"")), name)
    }
}
