import Foundation
import Testing

/// The repository's GitHub Action (`action.yml`): its check step's script, run as the runner would run it, with the
/// Action's inputs in the environment and the built lctrace where the Action builds it.
@Suite(.serialized) struct ActionTests {
    /// The `run` script of the step with `id: check`, as written under `run: |`.
    static func checkScript() throws -> String {
        let lines = try String(contentsOf: Fixtures.repositoryRoot.appendingPathComponent("action.yml"), encoding: .utf8)
            .split(separator: "\n", omittingEmptySubsequences: false)
        let step = try #require(lines.firstIndex { $0.trimmingCharacters(in: .whitespaces) == "- id: check" })
        let run = try #require(lines[step...].firstIndex { $0.trimmingCharacters(in: .whitespaces) == "run: |" })
        let indent = String(repeating: " ", count: lines[run].prefix { $0 == " " }.count + 2)
        return lines[(run + 1)...].prefix { $0.isEmpty || $0.hasPrefix(indent) }
            .map { $0.isEmpty ? "" : String($0.dropFirst(indent.count)) }.joined(separator: "\n") + "\n"
    }

    static func runCheck(_ inputs: [String: String]) throws -> (status: Int32, stdout: String, output: String, sarif: String?) {
        let directory = TestFiles.root.appendingPathComponent("lctrace-action-\(UUID().uuidString)")
        let release = directory.appendingPathComponent("action/.build/release")
        try FileManager.default.createDirectory(at: release, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: release.appendingPathComponent("lctrace").path,
                                                   withDestinationPath: try lctraceExecutable())
        let outputs = directory.appendingPathComponent("github-output").path
        #expect(FileManager.default.createFile(atPath: outputs, contents: nil))
        let sarif = directory.appendingPathComponent("lctrace.sarif").path
        var environment = ProcessInfo.processInfo.environment.filter { !$0.key.hasPrefix("GITHUB_") }
        environment["GITHUB_ACTION_PATH"] = directory.appendingPathComponent("action").path
        environment["GITHUB_OUTPUT"] = outputs
        for (name, value) in ["LCTRACE_LOGS": "", "LCTRACE_SOURCES": "", "LCTRACE_FAIL_ON": "error", "LCTRACE_BASELINE": "", "LCTRACE_AGAINST": "",
                              "LCTRACE_WRITE_MODEL": "", "LCTRACE_SARIF": sarif, "LCTRACE_ARGUMENTS": ""].merging(inputs, uniquingKeysWith: { $1 }) {
            environment[name] = value
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/bash")
        process.arguments = ["-e", "-c", try checkScript()]
        process.currentDirectoryURL = Fixtures.repositoryRoot
        process.environment = environment
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = FileHandle.nullDevice
        try process.run()
        let stdout = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return (process.terminationStatus, stdout, try String(contentsOfFile: outputs, encoding: .utf8),
                try? String(contentsOfFile: sarif, encoding: .utf8))
    }

    @Test func theCheckStepAnnotatesWritesSARIFAndFailsOnAnError() throws {
        let clean = try ActionTests.runCheck(["LCTRACE_LOGS": "SampleLogs/seed-push-pop.log\nSampleLogs/pop-to-root.log"])
        #expect(clean.status == 0)
        #expect(clean.stdout.contains("::notice file=SampleLogs/seed-push-pop.log,line=17,title=[session-ended-abruptly]::"), "\(clean.stdout)")
        #expect(clean.output.hasPrefix("sarif=") && clean.output.hasSuffix("lctrace.sarif\n"))
        #expect(clean.sarif?.contains("\"version\": \"2.1.0\"") == true)

        let failing = try ActionTests.runCheck(["LCTRACE_LOGS": "SampleLogs/did-appear-without-will-appear.log", "LCTRACE_SARIF": "",
                                                "LCTRACE_ARGUMENTS": "--severity session-ended-abruptly=off"])
        #expect(failing.status == 1)
        #expect(failing.stdout.hasPrefix("::error file=SampleLogs/did-appear-without-will-appear.log,line=6,title=[did-appear-without-will-appear]::"))
        #expect(failing.output.isEmpty && failing.sarif == nil)
        let allowed = try ActionTests.runCheck(["LCTRACE_LOGS": "SampleLogs/did-appear-without-will-appear.log", "LCTRACE_FAIL_ON": "never"])
        #expect(allowed.status == 0)
    }

    /// With `against`, what changed against a model of good runs is annotated; `write-model` writes the run's model.
    @Test func theCheckStepReportsWhatChangedAgainstAModel() throws {
        let model = TestFiles.root.appendingPathComponent("lctrace-action-model-\(UUID().uuidString).json").path
        let learned = try ActionTests.runCheck(["LCTRACE_LOGS": "SampleLogs/model-base.log", "LCTRACE_WRITE_MODEL": model, "LCTRACE_SARIF": ""])
        #expect(learned.status == 0)
        #expect(try String(contentsOfFile: model, encoding: .utf8).contains("\"runs\": 1"))
        let changed = try ActionTests.runCheck(["LCTRACE_LOGS": "SampleLogs/slower-than-model.log", "LCTRACE_AGAINST": model,
                                                "LCTRACE_FAIL_ON": "warning", "LCTRACE_SARIF": ""])
        #expect(changed.status == 1)
        #expect(changed.stdout.hasPrefix("::warning file=SampleLogs/slower-than-model.log,line=10,title=[slower-than-model]::pop B → A is 96 %25 slower"),
                "\(changed.stdout)")
    }
}
