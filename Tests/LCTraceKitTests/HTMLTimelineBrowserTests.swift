import Foundation
import Testing

/// The browser the HTML timeline is checked in: `LCTRACE_CHROMIUM`; else Chromium or Chrome on the path (Debian's
/// `chromium`, which `scripts/install-deps.sh` installs); else, on macOS, Chrome or Chromium in its app bundle. Without
/// one the tests are skipped, except under CI (`CI` set), where they fail. `LCTRACE_BROWSER_TESTS=0` opts out
/// explicitly, for a machine that cannot have a browser; the skip then says so.
enum Browser {
    static let environment = ProcessInfo.processInfo.environment

    static let path: String? = {
        if let chosen = environment["LCTRACE_CHROMIUM"], !chosen.isEmpty { return chosen }
        let directories = (environment["PATH"] ?? "").split(separator: ":")
        for name in ["chromium", "chromium-browser", "google-chrome", "google-chrome-stable"] {
            for directory in directories where FileManager.default.isExecutableFile(atPath: "\(directory)/\(name)") {
                return "\(directory)/\(name)"
            }
        }
        #if os(macOS)
        let bundles = ["Google Chrome.app/Contents/MacOS/Google Chrome", "Chromium.app/Contents/MacOS/Chromium",
                       "Google Chrome for Testing.app/Contents/MacOS/Google Chrome for Testing"]
        let applications = ["/Applications", NSHomeDirectory() + "/Applications"]
        for folder in applications {
            for bundle in bundles where FileManager.default.isExecutableFile(atPath: "\(folder)/\(bundle)") {
                return "\(folder)/\(bundle)"
            }
        }
        #endif
        return nil
    }()

    static let optedOut = environment["LCTRACE_BROWSER_TESTS"] == "0"

    static var wanted: Bool { !optedOut && (path != nil || environment["CI"] != nil) }

    static var skipReason: Comment {
        optedOut ? "browser tests opted out (LCTRACE_BROWSER_TESTS=0)" : "needs Chromium or Chrome (scripts/install-deps.sh installs it)"
    }

    /// Where the screenshots go: `LCTRACE_SCREENSHOT_DIR`, or a folder in the temporary directory.
    static let screenshots: URL = {
        let chosen = ProcessInfo.processInfo.environment["LCTRACE_SCREENSHOT_DIR"].map { URL(fileURLWithPath: $0) }
        let directory = chosen ?? TestFiles.root.appendingPathComponent("lctrace-screenshots")
        try? FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return directory
    }()

    /// What `scripts/chromium-check.py` saw of the page.
    struct Check {
        var ready: Bool
        var errors: [String]
        var requests: [String]
        var facts: [String: Any]
        var highlighted: [String: Any]?

        var lanes: [[String: Any]] { facts["lanes"] as? [[String: Any]] ?? [] }
        func count(_ fact: String) -> Int { facts[fact] as? Int ?? -1 }
        func text(_ fact: String) -> String { facts[fact] as? String ?? "" }
    }

    /// Opens `page` in headless Chromium at `session`, and takes screenshots named after `name`, light and dark.
    static func check(_ page: String, session: Int, name: String, clickFirstFinding: Bool = false) throws -> Check {
        guard let path else { throw BrowserMissing() }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        var arguments = ["python3", Fixtures.repositoryRoot.appendingPathComponent("scripts/chromium-check.py").path, page,
                         "--chromium", path, "--session", String(session),
                         "--screenshot", screenshots.appendingPathComponent("\(name).png").path,
                         "--dark-screenshot", screenshots.appendingPathComponent("\(name)-dark.png").path]
        if clickFirstFinding { arguments.append("--click-first-finding") }
        process.arguments = arguments
        let output = Pipe(), errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        let stderr = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        guard process.terminationStatus == 0, let object = try JSONSerialization.jsonObject(with: data) as? [String: Any] else {
            throw CheckFailed(description: "chromium-check exited \(process.terminationStatus): \(stderr)")
        }
        return Check(ready: object["ready"] as? Bool ?? false, errors: object["errors"] as? [String] ?? ["no errors list"],
                     requests: object["requests"] as? [String] ?? ["no requests list"], facts: object["facts"] as? [String: Any] ?? [:],
                     highlighted: object["highlighted"] as? [String: Any])
    }

    struct BrowserMissing: Error, CustomStringConvertible {
        var description: String {
            "no Chromium or Chrome: install Debian's chromium (scripts/install-deps.sh does), set LCTRACE_CHROMIUM to a browser, "
                + "or opt out with LCTRACE_BROWSER_TESTS=0"
        }
    }

    struct CheckFailed: Error, CustomStringConvertible {
        var description: String
    }
}

@Suite(.serialized, .enabled(if: Browser.wanted, Browser.skipReason))
struct HTMLTimelineBrowserTests {
    /// A page for `inputs`, with the JSON report of the same run to hold it against.
    private func page(_ inputs: [String], name: String) throws -> (page: String, report: [String: Any]) {
        let directory = TestFiles.root.appendingPathComponent("lctrace-html-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let page = directory.appendingPathComponent("\(name).html").path, json = directory.appendingPathComponent("report.json").path
        let run = try lctrace(["analyze", "--reporter", "html=\(page)", "--reporter", "json=\(json)"] + inputs)
        #expect(run.status <= 1, "\(run.stderr)")
        let report = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: json))) as? [String: Any])
        return (page, report)
    }

    /// The page drawn for each session of some samples holds a lane per controller (and the app's), a connector per
    /// transition and a marker per finding of the session, with no error and no request beyond the page itself.
    @Test(arguments: ["seed-push-pop.log", "seed-present-dismiss.log", "did-appear-twice.log", "scene-lifecycle.log",
                      "possible-leak.log"])
    func pageDrawsEachSessionOfASample(sample: String) throws {
        let (page, report) = try page([Fixtures.sample(sample)], name: "sample")
        let findings = report["findings"] as? [[String: Any]] ?? []
        let sessions = report["sessions"] as? [[String: Any]] ?? []
        #expect(!sessions.isEmpty, "\(sample): the report has no session to draw")
        for session in sessions {
            let index = session["index"] as! Int
            let name = sample.replacingOccurrences(of: ".log", with: "") + "-session-\(index)"
            let check = try Browser.check(page, session: index, name: name)
            #expect(check.ready, "\(name)")
            #expect(check.errors == [], "\(name)")
            #expect(check.requests == [], "\(name)")
            let controllers = (session["controllers"] as? [[String: Any]] ?? []).map { $0["id"] as! String }
            let drawn = check.lanes.filter { $0["kind"] as? String == "controller" }.map { $0["name"] as? String ?? "" }
            #expect(drawn == controllers, "\(name)")
            let appEvents = (session["app"] as? [String: Any])?["eventCount"] as? Int ?? 0
            if appEvents > 0 { #expect(check.lanes.contains { $0["kind"] as? String == "app" }, "\(name)") }
            #expect(check.count("transitions") == (session["transitions"] as? [Any])?.count ?? 0, "\(name)")
            #expect(check.count("findingMarkers") == findings.filter { $0["session"] as? Int == index }.count, "\(name)")
            #expect(check.count("findingRows") == findings.count, "\(name)")
            #expect(check.text("pageError") == "", "\(name)")
            #expect(check.text("sessionTitle").hasSuffix("session \(index)"), "\(name)")
        }
    }

    /// Names from the log are text on the page: a process called `Shop<i>App` and an input named like an HTML tag
    /// make no element, and show as written.
    @Test func textFromTheLogIsEscaped() throws {
        let directory = TestFiles.root.appendingPathComponent("lctrace-hostile-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let input = directory.appendingPathComponent("<img src=x onerror=alert(1)>.log")
        let log = try String(contentsOfFile: Fixtures.sample("did-appear-twice.log"), encoding: .utf8)
            .replacingOccurrences(of: "LifeCycle[", with: "Shop<i>App[")
        try log.write(to: input, atomically: true, encoding: .utf8)
        #expect(log.contains("Shop<i>App["))
        let (page, _) = try page([input.path], name: "hostile")
        let check = try Browser.check(page, session: 1, name: "hostile-names", clickFirstFinding: true)
        #expect(check.ready && check.errors == [] && check.requests == [])
        #expect(check.count("italicElements") == 0)
        #expect(check.count("scriptElementsFromData") == 0)
        #expect(check.text("sessionTitle").hasPrefix("Shop<i>App["), "\(check.text("sessionTitle"))")
        #expect(check.text("bodyText").contains("<img src=x onerror=alert(1)>.log"))
        // A findings row jumps to the lane of what the finding is about.
        #expect(check.highlighted?["kind"] as? String == "controller", "\(String(describing: check.highlighted))")
    }

    /// A run of many sessions: the picker lists each of them, and a session past the first draws on demand.
    @Test func manySessionsAreListedAndDrawnOnDemand() throws {
        let (page, report) = try page([try generatedLog(bytes: "400K", seed: 9, format: "nslog-modern")], name: "many")
        let sessions = report["sessions"] as? [[String: Any]] ?? []
        #expect(sessions.count > 10)
        let last = try #require(sessions.last)
        let check = try Browser.check(page, session: last["index"] as! Int, name: "generated-last-session")
        #expect(check.ready && check.errors == [] && check.requests == [])
        #expect(check.count("pickerOptions") == sessions.count)
        #expect(check.lanes.filter { $0["kind"] as? String == "controller" }.count == (last["controllers"] as? [Any])?.count)
    }
}
