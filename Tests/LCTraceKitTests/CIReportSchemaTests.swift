import Foundation
import Testing
@testable import LCTraceKit

/// The validators and schemas the CI reports are checked against.
///
/// The schemas are third-party files, not part of the repository: the tests read them from the directory
/// `$LCTRACE_SCHEMA_DIR` names, where they are saved from their sources:
/// - `sarif-schema-2.1.0.json`: the OASIS SARIF 2.1.0 schema (errata 01), `sarif-2.1/schema/sarif-schema-2.1.0.json`
///   of https://github.com/oasis-tcs/sarif-spec;
/// - `junit-10.xsd`: the JUnit schema of Jenkins' xUnit plugin,
///   `src/main/resources/org/jenkinsci/plugins/xunit/types/model/xsd/junit-10.xsd` of
///   https://github.com/jenkinsci/xunit-plugin.
///
/// `.ci/run` points `$LCTRACE_SCHEMA_DIR` at the copies beside the checkout. Without it the tests are skipped; with it
/// set, a schema missing from that directory fails them. The validators (python3 with jsonschema, xmllint) are
/// installed by `scripts/install-deps.sh`; one that is missing skips its test, except under CI (`CI` set), where it
/// fails.
enum SchemaValidation {
    static let inCI = ProcessInfo.processInfo.environment["CI"] != nil

    /// The directory `$LCTRACE_SCHEMA_DIR` names, if it is set.
    static let directory: String? = {
        guard let directory = ProcessInfo.processInfo.environment["LCTRACE_SCHEMA_DIR"], !directory.isEmpty else { return nil }
        return directory
    }()

    static let skipReason: Comment = "LCTRACE_SCHEMA_DIR is not set (see SchemaValidation)"

    /// The schema's path; an error when `$LCTRACE_SCHEMA_DIR` does not hold it.
    static func schema(_ name: String) throws -> String {
        let path = URL(fileURLWithPath: try #require(directory)).appendingPathComponent(name).path
        try #require(FileManager.default.fileExists(atPath: path), "LCTRACE_SCHEMA_DIR=\(directory ?? "") holds no \(name)")
        return path
    }

    static let sarifSchemaName = "sarif-schema-2.1.0.json"
    static let junitSchemaName = "junit-10.xsd"

    /// A Python that has jsonschema: the one first on the path, or the system's.
    static let python: String? = ["python3", "/usr/bin/python3"].first { run([$0, "-c", "import jsonschema"]).status == 0 }
    static let xmllint: String? = run(["xmllint", "--version"]).status == 0 ? "xmllint" : nil

    /// Runs a program found on the path; its standard output and error together.
    static func run(_ arguments: [String]) -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        do { try process.run() } catch { return (-1, "\(error)") }
        let output = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: output, as: UTF8.self))
    }

    /// Writes each report to a file of a new temporary directory; returns the paths, in order.
    static func write(_ reports: [(name: String, text: String)]) throws -> [String] {
        let directory = TestFiles.root.appendingPathComponent("lctrace-reports-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return try reports.map { report in
            let url = directory.appendingPathComponent(report.name)
            try Data(report.text.utf8).write(to: url)
            return url.path
        }
    }

    /// Validates JSON files against a JSON schema with the validator its `$schema` names (draft 4 for SARIF's);
    /// returns `valid`, or the first errors, per file.
    static func validateJSON(_ files: [String], schema: String, python: String) throws -> [String: String] {
        let script = """
            import json, sys
            import jsonschema
            with open(sys.argv[1]) as f:
                schema = json.load(f)
            Validator = jsonschema.validators.validator_for(schema)
            Validator.check_schema(schema)
            checker = getattr(Validator, "FORMAT_CHECKER", None) or jsonschema.FormatChecker()
            validator = Validator(schema, format_checker=checker)
            for path in sys.argv[2:]:
                with open(path) as f:
                    report = json.load(f)
                errors = sorted(validator.iter_errors(report), key=lambda e: list(map(str, e.absolute_path)))
                verdict = "; ".join("/".join(map(str, e.absolute_path)) + ": " + e.message for e in errors[:3]) or "valid"
                print(path + "\\t" + verdict.replace("\\n", " "))
            """
        let result = run([python, "-c", script, schema] + files)
        try #require(result.status == 0, "the validator failed: \(result.output)")
        var verdicts: [String: String] = [:]
        for line in result.output.split(separator: "\n") {
            let parts = line.split(separator: "\t", maxSplits: 1).map(String.init)
            if parts.count == 2 { verdicts[parts[0]] = parts[1] }
        }
        return verdicts
    }
}

@Suite struct CIReportSchemaTests {

    /// SARIF reports of real samples (findings at each severity, one about a whole input, none at all; inputs named
    /// relative to the working directory and by absolute path; standard input; a hostile file name; rules turned
    /// off) validate against the SARIF 2.1.0 schema, and a report broken on purpose does not.
    @Test(.enabled(if: SchemaValidation.directory != nil, SchemaValidation.skipReason),
          .enabled(if: SchemaValidation.python != nil || SchemaValidation.inCI,
                   "python3 with jsonschema is missing (scripts/install-deps.sh installs it)"))
    func sarifReportsValidate() throws {
        let python = try #require(SchemaValidation.python, "python3 with jsonschema is missing (scripts/install-deps.sh installs it)")
        let schema = try SchemaValidation.schema(SchemaValidation.sarifSchemaName)
        var reports: [(name: String, text: String)] = []
        func sarif(_ inputs: [ReportInput], workingDirectory: String, rules: RuleSettings = RuleSettings()) throws -> (String, RecordingSink) {
            let output = Output()
            let run = try report(inputs, into: SARIFReporter(output: output, rules: rules, workingDirectory: workingDirectory))
            return (output.text, run)
        }
        var severities = Set<Severity>()
        var empty = 0
        for sample in CIReports.samples {
            let (text, run) = try sarif([.sample(sample)], workingDirectory: CIReports.root)
            severities.formUnion(run.findings.map(\.severity))
            if run.findings.isEmpty { empty += 1 }
            reports.append((sample + ".sarif", text))
        }
        #expect(severities == Set(Severity.allCases) && empty > 0)
        let absolute = CIReports.samples.map(ReportInput.absolute) + [try hostileLog()]
        reports.append(("absolute.sarif", try sarif(absolute, workingDirectory: "/nonexistent/checkout").0))
        var rules = RuleSettings()
        rules.overrides[.possibleLeak] = .some(nil)
        rules.slowTransitionMs = 100
        reports.append(("rules.sarif", try sarif([.sample("slow-transition.log")], workingDirectory: CIReports.root, rules: rules).0))
        let output = Output()
        let standardInput = SARIFReporter(output: output)
        standardInput.finding(Finding(rule: .noLifecycleEvents, severity: .warning, input: "<stdin>", line: 0, session: 0,
                                      controller: nil, message: "none \u{1}\"", expected: nil, actual: nil))
        standardInput.finish(RunSummary())
        reports.append(("stdin.sarif", output.text))

        // Broken on purpose: a line 0, and a level SARIF does not have.
        let valid = try #require(reports.first { $0.text.contains(#""startLine": 6"#) })
        reports.append(("line-0.sarif", valid.text.replacingOccurrences(of: #""startLine": 6"#, with: #""startLine": 0"#)))
        reports.append(("fatal.sarif", valid.text.replacingOccurrences(of: #""level": "error""#, with: #""level": "fatal""#)))

        let files = try SchemaValidation.write(reports)
        let verdicts = try SchemaValidation.validateJSON(files, schema: schema, python: python)
        for (file, name) in zip(files, reports.map(\.name)) {
            let verdict = verdicts[file]
            if name == "line-0.sarif" || name == "fatal.sarif" {
                #expect(verdict != nil && verdict != "valid", "\(name) was not rejected")
            } else {
                #expect(verdict == "valid", "\(name): \(verdict ?? "not validated")")
            }
        }
        #expect(verdicts[files[files.count - 2]]?.contains("startLine") == true)
    }

    /// JUnit reports validate against Jenkins' JUnit schema, and one that leaves out a required attribute does not.
    @Test(.enabled(if: SchemaValidation.directory != nil, SchemaValidation.skipReason),
          .enabled(if: SchemaValidation.xmllint != nil || SchemaValidation.inCI,
                   "xmllint is missing (scripts/install-deps.sh installs libxml2-utils)"))
    func junitReportsValidate() throws {
        let xmllint = try #require(SchemaValidation.xmllint, "xmllint is missing (scripts/install-deps.sh installs libxml2-utils)")
        let schema = try SchemaValidation.schema(SchemaValidation.junitSchemaName)
        var reports: [(name: String, text: String)] = []
        let inputs = CIReports.samples.map(ReportInput.sample) + [try hostileLog()]
        for severity in Severity.allCases {
            let output = Output()
            try report(inputs, into: JUnitReporter(output: output, failureSeverity: severity))
            reports.append(("\(severity).xml", output.text))
        }
        let empty = Output()
        JUnitReporter(output: empty).finish(RunSummary())
        reports.append(("empty.xml", empty.text))
        let files = try SchemaValidation.write(reports)
        let valid = SchemaValidation.run([xmllint, "--noout", "--schema", schema] + files)
        #expect(valid.status == 0, "\(valid.output)")

        // Broken on purpose: suites without their required `errors`.
        let withoutErrors = reports[0].text.replacingOccurrences(of: #"(<testsuite [^>]*) errors="0""#, with: "$1", options: .regularExpression)
        let broken = try SchemaValidation.write([("broken.xml", withoutErrors)])
        let rejected = SchemaValidation.run([xmllint, "--noout", "--schema", schema] + broken)
        #expect(rejected.status != 0 && rejected.output.contains("fails to validate"), "\(rejected.output)")
    }
}
