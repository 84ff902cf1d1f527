import Foundation
import Testing

/// The HTML timeline page's script, a file of its own (`Sources/LCTraceKit/Resources/timeline.js`): its syntax checked
/// by Node, and the functions that compute its text and numbers tested with Node's test runner
/// (`Tests/TimelinePage`). Without Node the tests are skipped, except under CI (`CI` set), where they fail;
/// `scripts/install-deps.sh` installs it.
@Suite(.enabled(if: NodeJS.path != nil || ProcessInfo.processInfo.environment["CI"] != nil,
                "needs Node (scripts/install-deps.sh installs it)"))
struct TimelinePageScriptTests {
    static let script = Fixtures.repositoryRoot.appendingPathComponent("Sources/LCTraceKit/Resources/timeline.js").path
    static let tests = Fixtures.repositoryRoot.appendingPathComponent("Tests/TimelinePage/timeline.test.js").path

    @Test func theScriptIsValidJavaScript() throws {
        let node = try #require(NodeJS.path, "no node or nodejs on the PATH")
        let check = SchemaValidation.run([node, "--check", TimelinePageScriptTests.script])
        #expect(check.status == 0, "\(check.output)")
    }

    @Test func theScriptsFunctionsPassTheirTests() throws {
        let node = try #require(NodeJS.path, "no node or nodejs on the PATH")
        let run = SchemaValidation.run([node, "--test", TimelinePageScriptTests.tests])
        #expect(run.status == 0, "\(run.output)")
        #expect(run.output.contains("# pass 10") && run.output.contains("# fail 0"), "\(run.output)")
    }
}

/// Node, as Debian names it (`nodejs`) or as it names itself (`node`); nil when neither runs.
enum NodeJS {
    static let path: String? = ["node", "nodejs"].first { SchemaValidation.run([$0, "--version"]).status == 0 }
}
