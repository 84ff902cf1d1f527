import Foundation
import Testing
@testable import LCTraceKit

/// SwiftUI views logged from `.onAppear`, `.onDisappear` and `.task`: read as events of a view, kept per view instance,
/// listed beside the controllers, and checked by `view-appeared-twice` only.
@Suite struct SwiftUIViewTests {
    func parse(_ message: String, fastPath: Bool = true) throws -> LifecycleMessage? {
        let bytes = Array(message.utf8)
        return try bytes.withUnsafeBytes { try MessageParser(fastPath: fastPath).parse($0, message: 0..<bytes.count) }
    }

    @Test(arguments: [true, false])
    func viewMessagesAreRead(fastPath: Bool) throws {
        let cases: [(String, String?, Callback)] = [
            ("DetailView onAppear", "DetailView", .onAppear),
            ("DetailView onDisappear", "DetailView", .onDisappear),
            ("DetailView task", "DetailView", .task),
            ("ShopApp.DetailView onAppear", "DetailView", .onAppear),
            ("SettingsScreen appeared", "SettingsScreen", .onAppear),
            ("SettingsScreen disappeared", "SettingsScreen", .onDisappear),
        ]
        for (text, className, callback) in cases {
            let message = try #require(try parse(text, fastPath: fastPath), "\(text)")
            #expect(message.className == className, "\(text)")
            #expect(message.callback == callback, "\(text)")
            #expect(message.callback.family == .view)
        }
        let identified = try #require(try parse("E621E1F8-C36C-495A-93FC-0C247A3E6E5F onAppear", fastPath: fastPath))
        #expect(identified.callback == .onAppear)
        #expect(identified.className == MessageParser.anonymousClass)
        #expect(identified.address == "e621e1f8-c36c-495a-93fc-0c247a3e6e5f")
    }

    /// Sentences and other shapes that only contain a view callback's name stay ordinary logging.
    @Test(arguments: [true, false])
    func ordinaryLoggingStaysOther(fastPath: Bool) throws {
        for text in ["Image appeared slowly", "image appeared", "detailView onAppear", "worker task", "starting task for download",
                     "-[Downloader task]", "Downloader task()", "Downloader >>>> task", "<ShopApp.Loader: 0x7f8a> task",
                     "onAppear", "DetailView onAppear()", "DetailView onAppear late", "E621E1F8-C36C-495A-93FC onAppear",
                     "E621E1F8-C36C-495A-93FC-0C247A3E6E5F viewDidLoad()", "all screens appeared"] {
            #expect(try parse(text, fastPath: fastPath) == nil, "\(text)")
        }
    }

    /// UIKit callbacks read as they always did.
    @Test func controllerCallbacksUnchanged() throws {
        let load = try #require(try parse("HomeViewController viewDidLoad()"))
        #expect(load.callback == .viewDidLoad && load.callback.family == .controller)
        let appear = try #require(try parse("HomeViewController >>>> viewDidAppear:"))
        #expect(appear.callback == .viewDidAppear)
        for callback in Callback.allCases where callback.family != .view {
            #expect(CallbackNames.callback(forSelector: callback.rawValue)?.family != .view)
        }
        #expect(!LooseMessageReader.baseNames.contains("onAppear"))
        #expect(!LooseMessageReader.baseNames.contains("task"))
    }

    @Test func sampleListsViewsAndStaysSilent() throws {
        let result = try analyze(sample: "swiftui-views.log")
        #expect(result.findings.isEmpty, "\(result.findings.map(\.message))")
        let session = try #require(result.sessions.first)
        #expect(session.controllers.map(\.id) == ["ContentView", "DetailView", "(anonymous)@e621e1f8-c36c-495a-93fc-0c247a3e6e5f",
                                                   "SettingsScreen"])
        #expect(session.controllers.allSatisfy { $0.kind == .view })
        #expect(session.controllers.map(\.finalPhase) == [.visible, .hidden, .visible, .hidden])
        #expect(session.controllers.map(\.eventCount) == [4, 3, 3, 2])
        #expect(session.controllers[2].identity == .id)
        #expect(session.transitions.isEmpty)
        #expect(result.summary?.events == 12)
    }

    @Test func secondAppearWithoutDisappearIsAFinding() throws {
        let result = try analyze(sample: "view-appeared-twice.log")
        #expect(result.findings.map(\.rule) == [.viewAppearedTwice])
        let finding = try #require(result.findings.first)
        #expect(finding.line == 3)
        #expect(finding.severity == .warning)
        #expect(finding.controller == "DetailView")
        #expect(finding.message == "onAppear on SwiftUI view DetailView, which is already visible")
        #expect(Rule.viewAppearedTwice.defaultSeverity == .warning)
    }

    @Test func ruleCanBeTurnedOff() throws {
        var options = AnalysisOptions()
        options.rules.overrides[.viewAppearedTwice] = .some(nil)
        #expect(try analyze(sample: "view-appeared-twice.log", options: options).findings.isEmpty)
    }

    /// Legal sequences: appear, disappear, appear again; task while visible; onDisappear first (the log began while the
    /// view was on screen); task before onAppear; two views by id, each appearing once.
    @Test(arguments: [
        "DetailView onAppear\nDetailView onDisappear\nDetailView onAppear\nDetailView onDisappear\nDetailView onAppear",
        "DetailView onAppear\nDetailView task\nDetailView task\nDetailView onDisappear",
        "DetailView onDisappear\nDetailView onAppear",
        "DetailView task\nDetailView onAppear",
        "E621E1F8-C36C-495A-93FC-0C247A3E6E5F onAppear\n0C247A3E-6E5F-495A-93FC-E621E1F8C36C onAppear",
    ])
    func legalSequencesRaiseNothing(_ log: String) throws {
        let result = try analyze(text: log + "\n")
        #expect(result.findings.isEmpty, "\(result.findings.map(\.message))")
    }

    /// The same id twice without onDisappear is the same view appearing twice.
    @Test func identifiedViewAppearingTwice() throws {
        let id = "E621E1F8-C36C-495A-93FC-0C247A3E6E5F"
        let result = try analyze(text: "\(id) onAppear\n\(id) onAppear\n")
        #expect(result.findings.map(\.rule) == [.viewAppearedTwice])
        #expect(result.findings.first?.line == 2)
    }

    /// A log of SwiftUI views alone has lifecycle events: `no-lifecycle-events` does not fire.
    @Test func swiftUIOnlyLogIsNotEmpty() throws {
        let result = try analyze(text: "ContentView onAppear\nNetworkClient: GET /feed -> 200\nContentView onDisappear\n")
        #expect(!result.findings.contains { $0.rule == .noLifecycleEvents })
        #expect(result.findings.isEmpty)
    }

    /// Views sit beside controllers without changing what the controllers' transitions are.
    @Test func viewsBesideControllers() throws {
        let log = """
        HomeViewController viewDidLoad()
        HomeViewController viewWillAppear(_:)
        HomeViewController viewDidAppear(_:)
        ContentView onAppear
        ContentView onDisappear
        """
        let result = try analyze(text: log + "\n")
        #expect(result.findings.isEmpty, "\(result.findings.map(\.message))")
        let session = try #require(result.sessions.first)
        #expect(session.controllers.map(\.kind) == [.controller, .view])
        #expect(session.transitions.map(\.kind) == [.appear])
    }

    @Test func reportsMarkViews() throws {
        let text = try lctrace(["--no-events", "SampleLogs/view-appeared-twice.log"])
        #expect(text.stdout.contains("DetailView (SwiftUI view)"))
        let json = try lctrace(["--format", "json", "--no-events", "SampleLogs/view-appeared-twice.log"])
        #expect(json.stdout.contains("\"kind\": \"view\""))
        let controllers = try lctrace(["--format", "json", "--no-events", "SampleLogs/did-appear-twice.log"])
        #expect(!controllers.stdout.contains("\"kind\": \"view\""))
        #expect(!controllers.stdout.contains("\"kind\": \"controller\""))
    }
}
