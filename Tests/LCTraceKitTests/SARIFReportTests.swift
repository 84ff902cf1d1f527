import Foundation
import Testing
@testable import LCTraceKit

/// The SARIF report over real sample logs.
@Suite struct SARIFReportTests {
    @Test func sarifHasTheCatalogueAndOneResultPerFinding() throws {
        let output = Output()
        let run = try report(CIReports.samples.map(ReportInput.sample), into: SARIFReporter(output: output, workingDirectory: CIReports.root))
        let document = try #require(try JSONSerialization.jsonObject(with: Data(output.text.utf8)) as? [String: Any])
        #expect(document["version"] as? String == "2.1.0")
        #expect(document["$schema"] as? String == "https://json.schemastore.org/sarif-2.1.0.json")
        let runs = try #require(document["runs"] as? [[String: Any]])
        #expect(runs.count == 1)
        let driver = try #require((runs[0]["tool"] as? [String: Any])?["driver"] as? [String: Any])
        #expect(driver["name"] as? String == "lctrace")
        #expect(driver["semanticVersion"] as? String == LCTraceVersion.current)
        let rules = try #require(driver["rules"] as? [[String: Any]])
        #expect(rules.map { $0["id"] as? String } == RuleCatalog.entries.map(\.rule.rawValue))
        #expect(rules[0]["name"] as? String == "DidAppearWithoutWillAppear")
        #expect(((runs[0]["invocations"] as? [[String: Any]])?.first?["executionSuccessful"]) as? Bool == true)
        let base = (runs[0]["originalUriBaseIds"] as? [String: [String: String]])?["%SRCROOT%"]?["uri"]
        #expect(base == URL(fileURLWithPath: CIReports.root, isDirectory: true).absoluteString)

        let results = try #require(runs[0]["results"] as? [[String: Any]])
        #expect(results.count == run.findings.count)
        #expect(Set(run.findings.map(\.severity)) == Set(Severity.allCases))
        for (result, finding) in zip(results, run.findings) {
            #expect(result["ruleId"] as? String == finding.rule.rawValue)
            let index = try #require(result["ruleIndex"] as? Int)
            #expect(rules[index]["id"] as? String == finding.rule.rawValue)
            #expect(result["level"] as? String == ["error": "error", "warning": "warning", "info": "note"][finding.severity.rawValue])
            let physical = try #require(((result["locations"] as? [[String: Any]])?.first?["physicalLocation"]) as? [String: Any])
            let artifact = try #require(physical["artifactLocation"] as? [String: Any])
            #expect(artifact["uri"] as? String == finding.input)
            #expect(artifact["uriBaseId"] as? String == "%SRCROOT%")
            #expect((physical["region"] as? [String: Any])?["startLine"] as? Int == max(finding.line, 1))
            #expect((result["partialFingerprints"] as? [String: String])?["lctraceFindingKey/v1"] == FindingKey(finding).fingerprint)
            let properties = try #require(result["properties"] as? [String: Any])
            #expect(properties["session"] as? Int == (finding.session > 0 ? finding.session : nil))
            #expect(properties["controller"] as? String == finding.controller)
        }
        // The finding about the whole input has no line of its own: it is at line 1.
        #expect(run.findings.contains { $0.rule == .noLifecycleEvents && $0.session == 0 })
    }

    @Test func sarifNamesInputsOutsideTheWorkingDirectoryByAbsoluteURI() throws {
        let output = Output()
        let hostile = try hostileLog()
        let run = try report([.absolute("did-appear-without-will-appear.log"), hostile],
                             into: SARIFReporter(output: output, workingDirectory: "/nonexistent/checkout"))
        let document = try #require(try JSONSerialization.jsonObject(with: Data(output.text.utf8)) as? [String: Any])
        let results = try #require((document["runs"] as? [[String: Any]])?.first?["results"] as? [[String: Any]])
        #expect(results.count == run.findings.count && results.count >= 2)
        for (result, finding) in zip(results, run.findings) {
            let artifact = try #require((((result["locations"] as? [[String: Any]])?.first?["physicalLocation"]) as? [String: Any])?["artifactLocation"] as? [String: Any])
            let uri = try #require(artifact["uri"] as? String)
            #expect(artifact["uriBaseId"] == nil)
            #expect(uri.hasPrefix("file:///"))
            #expect(URL(string: uri)?.path == finding.input)
        }
        // The hostile name is percent-encoded, and its message is JSON-escaped (the parse above succeeded).
        #expect(output.text.contains("A%3Cb%3E%26%22c%27%01.log"))
    }

    @Test func sarifRulesTurnedOffAreNotEnabled() throws {
        var rules = RuleSettings()
        rules.overrides[.possibleLeak] = .some(nil)
        rules.overrides[.didAppearTwice] = .error
        let output = Output()
        let sink = SARIFReporter(output: output, rules: rules)
        sink.finish(RunSummary())
        let document = try #require(try JSONSerialization.jsonObject(with: Data(output.text.utf8)) as? [String: Any])
        let run = try #require((document["runs"] as? [[String: Any]])?.first)
        #expect((run["results"] as? [Any])?.isEmpty == true)
        let rulesByID = try #require(((run["tool"] as? [String: Any])?["driver"] as? [String: Any])?["rules"] as? [[String: Any]])
            .reduce(into: [String: [String: Any]]()) { $0[$1["id"] as! String] = $1["defaultConfiguration"] as? [String: Any] }
        #expect(rulesByID["possible-leak"]?["enabled"] as? Bool == false)
        #expect(rulesByID["slow-transition"]?["enabled"] as? Bool == false)  // no threshold set
        #expect(rulesByID["did-appear-twice"]?["level"] as? String == "error")
        #expect(rulesByID["did-appear-twice"]?["enabled"] == nil)
        #expect(rulesByID["clock-went-back"]?["level"] as? String == "note")
    }

    @Test func inputLocations() {
        func location(_ input: String, _ directory: String = "/work/app") -> InputLocation {
            InputLocation(input: input, workingDirectory: directory)
        }
        #expect(location("logs/a.log").place == .relative("logs/a.log"))
        #expect(location("./logs/../b.log").place == .relative("b.log"))
        #expect(location("/work/app/logs/a.log").place == .relative("logs/a.log"))
        #expect(location("/work/application.log").place == .absolute("/work/application.log"))
        #expect(location("../other/a.log").place == .absolute("/work/other/a.log"))
        #expect(location("/a.log", "/").place == .relative("a.log"))
        #expect(location("<stdin>").place == .standardInput)
        #expect(location("<stdin>").uri == "stdin")
        #expect(location("my logs/a#1:b.log").uri == "my%20logs/a%231%3Ab.log")
        #expect(location("/tmp/é.log").uri == "file:///tmp/%C3%A9.log")
        #expect(location("/tmp/é.log").path == "/tmp/é.log")
        #expect(InputLocation.directoryURI("/work/my app") == "file:///work/my%20app/")
        #expect(InputLocation.directoryURI("/") == "file:///")
        #expect(InputLocation.workingDirectory("/work/app/./x/..") == "/work/app")
        #expect(InputLocation.workingDirectory(nil) == FileManager.default.currentDirectoryPath)
    }

    /// An input named through a symbolic link to the working directory (macOS's `/tmp` is a link to `/private/tmp`,
    /// and `getcwd` gives the latter) is named relative to it all the same.
    @Test func inputLocationsThroughASymbolicLink() throws {
        let real = TestFiles.root.appendingPathComponent("checkout-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: real.appendingPathComponent("logs"), withIntermediateDirectories: true)
        try Data("A viewDidLoad()\n".utf8).write(to: real.appendingPathComponent("logs/a.log"))
        let link = TestFiles.root.appendingPathComponent("link-\(UUID().uuidString)")
        try FileManager.default.createSymbolicLink(at: link, withDestinationURL: real)
        #expect(InputLocation(input: link.path + "/logs/a.log", workingDirectory: real.path).place == .relative("logs/a.log"))
        #expect(InputLocation(input: real.path + "/logs/a.log", workingDirectory: link.path).place == .relative("logs/a.log"))
        // A file that is not there, or not below, stays absolute as written.
        #expect(InputLocation(input: link.path + "/logs/b.log", workingDirectory: real.path).place == .absolute(link.path + "/logs/b.log"))
        #expect(InputLocation(input: link.path + "/logs/a.log", workingDirectory: real.path + "/logs/x")
                    .place == .absolute(link.path + "/logs/a.log"))
    }

    @Test func sarifStandardInputHasNoBase() throws {
        let output = Output()
        let sink = SARIFReporter(output: output, workingDirectory: "/work")
        sink.finding(Finding(rule: .noLifecycleEvents, severity: .warning, input: "<stdin>", line: 0, session: 0, controller: nil,
                             message: "nothing", expected: nil, actual: nil))
        sink.finish(RunSummary())
        #expect(output.text.contains(#""uri": "stdin","#))
        #expect(output.text.contains(#""startLine": 1"#))
        #expect(!output.text.contains(#""uriBaseId""#))
    }

    @Test func golden() throws {
        try CIReports.assertGolden("ci.sarif.json") { SARIFReporter(output: $0, workingDirectory: "/src/lctrace") }
    }
}
