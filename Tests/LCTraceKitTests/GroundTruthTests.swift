import Foundation
import Testing
@testable import LCTraceKit

/// Ground truth at scale: generated traffic whose every sequence is one UIKit produces must raise no finding, and every
/// deviation planted in it must be reported at its line, with its rule, and nothing else.
@Suite struct GroundTruthTests {
    static let styles = ["arrows", "objc", "swift", "swift-address"]

    /// The report of `lctrace --format json --no-events` on a log.
    private func report(_ path: String) throws -> [String: Any] {
        let run = try lctrace(["--format", "json", "--no-events", path])
        #expect(run.status == 0)
        return try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])
    }

    @Test(arguments: styles)
    func legalTrafficRaisesNoFinding(_ style: String) throws {
        // The third log is a whole device's: other processes log around the app, nine lines in ten.
        for (seed, format, device) in [(41, "nslog-modern", [String]()), (42, "bare", []), (43, "log-compact", ["--app-share", "0.1"])] {
            let bytes = device.isEmpty ? "1M" : "4M"
            let log = try generatedLog(bytes: bytes, seed: seed, format: format,
                                       options: ["--traffic", "legal", "--style", style] + device)
            let json = try report(log)
            let findings = try #require(json["findings"] as? [[String: Any]])
            let problems = findings.filter { ($0["severity"] as? String) != "info" }
            #expect(problems.isEmpty, "\(style) \(format): \(problems.prefix(5).map { "\($0["line"]!) \($0["rule"]!) \($0["message"]!)" })")
            // The hard cases are there, so that silence means something.
            let sessions = try #require(json["sessions"] as? [[String: Any]])
            let kinds = Set(sessions.flatMap { ($0["transitions"] as? [[String: Any]] ?? []).compactMap { $0["kind"] as? String } })
            for kind in ["push", "pop", "present", "dismiss", "sheet-present", "sheet-dismiss", "sheet-dismiss-cancelled",
                         "interactive-pop-cancelled", "pop-to-root", "tab-switch"] {
                #expect(kinds.contains(kind), "\(style) \(format): no \(kind)")
            }
            let controllers = sessions.flatMap { $0["controllers"] as? [[String: Any]] ?? [] }
            let identities = Set(controllers.compactMap { $0["identity"] as? String })
            #expect(identities.contains(style == "swift-address" ? "address" : "inferred"), "\(style) \(format): \(identities)")
        }
    }

    @Test(arguments: styles)
    func everyPlantedDeviationIsCaught(_ style: String) throws {
        for (seed, format, device) in [(51, "nslog-modern", [String]()), (52, "bare", []), (53, "log-compact", ["--app-share", "0.1"])] {
            let manifest = TestFiles.root.appendingPathComponent("lctrace-manifest-\(UUID().uuidString)").path
            let log = try generatedLog(bytes: device.isEmpty ? "200K" : "2M", seed: seed, format: format,
                                       options: ["--traffic", "plant", "--style", style, "--manifest", manifest] + device)
            let planted = Set(try String(contentsOfFile: manifest, encoding: .utf8).split(separator: "\n").map { line in
                let parts = line.split(separator: " ")
                return "\(parts[0]) \(parts[1])"
            })
            // Every controller and app rule the style and format can show.
            let expected = 19 + (style == "swift-address" ? 3 : 0) + (format == "bare" ? 0 : 2)
            #expect(planted.count == expected, "\(style) \(format): \(planted.count) planted")
            let findings = try #require(try report(log)["findings"] as? [[String: Any]])
            let reported = Set(findings.map { "\($0["line"]!) \($0["rule"]!)" })
            #expect(reported == planted, "\(style) \(format): missed \(planted.subtracting(reported).sorted()), extra \(reported.subtracting(planted).sorted())")
        }
    }
}
