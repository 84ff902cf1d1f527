import Foundation
import Testing

/// The fleet pipeline's own tests (`Tests/Fleet/test_fleet.py`): DuckDB and Spark give the same report of the same
/// generated logs, faults are reported and skipped, runs are idempotent, and JSON Lines hold to their schema. They need
/// Python with duckdb, pyspark and jsonschema, and Java (`scripts/install-deps.sh` installs them); in CI a missing one
/// fails the test, elsewhere it is skipped with the reason.
@Suite struct FleetTests {
    static let missing: String? = {
        let modules = SchemaValidation.run(["python3", "-c", "import duckdb, pyspark, jsonschema"])
        if modules.status != 0 { return "python3 lacks duckdb, pyspark or jsonschema (scripts/install-deps.sh)" }
        if SchemaValidation.run(["java", "-version"]).status != 0 { return "no java (scripts/install-deps.sh)" }
        return nil
    }()

    @Test(.enabled(if: FleetTests.missing == nil || SchemaValidation.inCI, Comment(rawValue: FleetTests.missing ?? "")))
    func duckDBAndSparkAgree() throws {
        try #require(FleetTests.missing == nil, "\(FleetTests.missing ?? "")")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-m", "unittest", "Tests/Fleet/test_fleet.py"]
        process.currentDirectoryURL = Fixtures.repositoryRoot
        var environment = ProcessInfo.processInfo.environment
        environment["LCTRACE"] = try lctraceExecutable()
        environment["LOGGEN"] = URL(fileURLWithPath: try lctraceExecutable()).deletingLastPathComponent().appendingPathComponent("lctrace-loggen").path
        process.environment = environment
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "\(output.suffix(3000))")
    }
}
