import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import Testing
@testable import LCTraceKit

/// What every reporter owes the others: written in one pass over the same inputs, each report is well formed and
/// counts the findings the JSON report counts — one by one where it lists them, as a sentence or a tally where it sums
/// them up — for inputs with findings of every severity and one about a whole input, and for an empty input.
struct ReporterContractTests {
    static let inputSets: [(label: String, files: [String])] = [
        ("samples", ["did-appear-without-will-appear.log", "transition-order.log", "seed-push-pop.log", "no-lifecycle-events.log",
                     "child-containment.log"].map(Fixtures.sample)),
        ("empty input", [try! Fixtures.temporaryFile("", name: "empty.log")]),
    ]

    @Test(arguments: inputSets.indices)
    func everyReporterCountsWhatTheJSONReportCounts(_ set: Int) throws {
        let (label, files) = Self.inputSets[set]
        let directory = URL(fileURLWithPath: try Fixtures.temporaryFile("", name: "placeholder")).deletingLastPathComponent()
        let run = try lctrace(["check", "--no-config", "--fail-on", "never"]
                              + Reporter.allCases.flatMap { ["--reporter", "\($0.rawValue)=out.\($0.rawValue)"] } + files,
                              directory: directory)
        #expect(run.status == 0, "\(label): \(run.stderr)")
        func report(_ reporter: Reporter) throws -> Data { try Data(contentsOf: directory.appendingPathComponent("out.\(reporter.rawValue)")) }
        func text(_ reporter: Reporter) throws -> String { String(decoding: try report(reporter), as: UTF8.self) }

        // The reference: the JSON report's findings, and how many of them belong to no session (a whole input's).
        let json = try #require(try JSONSerialization.jsonObject(with: report(.json)) as? [String: Any])
        let findings = try #require(json["findings"] as? [[String: Any]])
        var expected = SeverityCounts()
        var inSessions = SeverityCounts()
        for finding in findings {
            let severity = try #require(Severity(rawValue: finding["severity"] as? String ?? ""))
            expected[severity] += 1
            if (finding["session"] as? Int ?? 0) != 0 { inSessions[severity] += 1 }
        }
        #expect(expected[.error] > 0, "\(label): the inputs should give an error to count")
        let summary = try #require(json["summary"] as? [String: Any])
        #expect(Self.counts(summary["findings"], words: ["error", "warning", "info"]) == expected, "\(label): json summary")
        // The stderr summary line of `check`.
        #expect(run.stderr.contains("lctrace: \(expected.sentence()) in "), "\(label): \(run.stderr)")

        for reporter in Reporter.allCases {
            let where_ = "\(label), \(reporter.rawValue)"
            switch reporter {
            case .json:
                break
            case .ndjson:
                var counted = SeverityCounts()
                var summarized: SeverityCounts?
                for line in try report(.ndjson).split(separator: UInt8(ascii: "\n")) {
                    let record = try #require(try JSONSerialization.jsonObject(with: Data(line)) as? [String: Any], "\(where_)")
                    if record["type"] as? String == "finding", let severity = Severity(rawValue: record["severity"] as? String ?? "") {
                        counted[severity] += 1
                    }
                    if record["type"] as? String == "summary" { summarized = Self.counts(record["findings"], words: ["error", "warning", "info"]) }
                }
                #expect(counted == expected, "\(where_)")
                #expect(summarized == expected, "\(where_): summary record")
            case .sarif:
                let sarif = try #require(try JSONSerialization.jsonObject(with: report(.sarif)) as? [String: Any])
                let results = ((sarif["runs"] as? [[String: Any]])?.first?["results"] as? [[String: Any]]) ?? []
                #expect(Self.tally(results.map { $0["level"] as? String ?? "" }, words: \.sarif) == expected, "\(where_)")
            case .codeclimate:
                let issues = try #require(try JSONSerialization.jsonObject(with: report(.codeclimate)) as? [[String: Any]])
                #expect(Self.tally(issues.map { $0["severity"] as? String ?? "" }, words: \.codeClimate) == expected, "\(where_)")
            case .checkstyle:
                let document = try XMLDocument(data: report(.checkstyle))
                let severities = try document.nodes(forXPath: "//error/@severity").compactMap(\.stringValue)
                #expect(Self.tally(severities, words: \.checkstyle) == expected, "\(where_)")
            case .junit:
                let document = try XMLDocument(data: report(.junit))
                let tests = try document.nodes(forXPath: "/testsuites/@tests").first?.stringValue
                #expect((tests.flatMap(Int.init) ?? 0) > 0, "\(where_): \(tests ?? "no tests attribute")")
            case .xcode:
                let labels = try text(.xcode).split(separator: "\n").compactMap { line -> String? in
                    Severity.allCases.map { "\(SeverityWords.of($0).compiler)" }.first { line.contains(": \($0): [") }
                }
                #expect(Self.tally(labels, words: \.compiler) == expected, "\(where_)")
            case .githubActions:
                // Annotations are one per distinct problem, at most a budget per severity: one at least for each
                // severity found, none for a severity not found.
                let commands = try text(.githubActions).split(separator: "\n").compactMap { line -> String? in
                    Severity.allCases.map { "\(SeverityWords.of($0).githubActions)" }.first { line.hasPrefix("::\($0) ") }
                }
                let annotated = Self.tally(commands, words: \.githubActions)
                for severity in Severity.allCases {
                    #expect((annotated[severity] > 0) == (expected[severity] > 0), "\(where_): \(severity)")
                    #expect(annotated[severity] <= expected[severity], "\(where_): \(severity)")
                }
            case .text:
                #expect(try text(.text).contains("; \(expected.sentence())\n"), "\(where_)")
            case .markdown:
                #expect(try text(.markdown).contains("**\(expected.sentence())** in "), "\(where_)")
            case .chromeTrace:
                let trace = try #require(try JSONSerialization.jsonObject(with: report(.chromeTrace)) as? [String: Any])
                let categories = (trace["traceEvents"] as? [[String: Any]] ?? []).compactMap { $0["cat"] as? String }
                // Findings about a whole input too, on a track of their own.
                #expect(Self.tally(categories.filter { $0.hasPrefix("finding,") }.map { String($0.dropFirst("finding,".count)) })
                        == expected, "\(where_)")
            case .html:
                let page = try text(.html)
                let summaryRange = try #require(page.range(of: #""summary":\{[^}]*\}"#, options: .regularExpression), "\(where_)")
                let object = try #require(try JSONSerialization.jsonObject(with: Data("{\(page[summaryRange])}".utf8)) as? [String: Any])
                #expect(Self.counts(object["summary"], words: ["errors", "warnings", "infos"]) == expected, "\(where_)")
            case .mermaid, .mermaidShort:
                // Each session's line says its findings; the findings about a whole input belong to none.
                var counted = SeverityCounts()
                for line in try text(reporter).split(separator: "\n") where line.hasPrefix("`") {
                    for severity in Severity.allCases {
                        let word = severity == .info ? "info" : "\(severity.rawValue)s?"
                        if let match = line.range(of: #"(\d+) "# + word + #"[,.]"#, options: .regularExpression) {
                            counted[severity] += Int(line[match].prefix { $0.isNumber }) ?? 0
                        }
                    }
                }
                #expect(counted == inSessions, "\(where_)")
            }
        }
    }

    /// Counts from a JSON object keyed by severity words (`errors`, `warnings`, `infos` or the severities themselves).
    static func counts(_ object: Any?, words: [String]) -> SeverityCounts? {
        guard let object = object as? [String: Any] else { return nil }
        var counts = SeverityCounts()
        for (severity, word) in zip(Severity.mostSevereFirst, words) { counts[severity] = object[word] as? Int ?? -1 }
        return counts
    }

    /// Severities named in a format's own words (`SeverityWords`), or by their names without `words`, tallied.
    static func tally(_ names: [String], words: ((SeverityWords) -> StaticString)? = nil) -> SeverityCounts {
        var counts = SeverityCounts()
        for name in names {
            guard let severity = Severity.allCases.first(where: { severity in
                words.map { "\($0(SeverityWords.of(severity)))" == name } ?? (severity.rawValue == name)
            }) else { continue }
            counts[severity] += 1
        }
        return counts
    }
}
