import Foundation
import Testing
@testable import LCTraceKit

@Suite struct RuleCatalogTests {
    @Test func everyRuleIsDocumented() {
        #expect(RuleCatalog.entries.map(\.rule) == Rule.allCases)
        for entry in RuleCatalog.entries {
            #expect(!entry.summary.isEmpty && !entry.explanation.isEmpty && !entry.uikit.isEmpty && !entry.reference.isEmpty)
        }
    }

    /// The example in each rule's explanation really triggers that rule.
    @Test(arguments: Rule.allCases)
    func exampleTriggersItsRule(_ rule: Rule) throws {
        var options = AnalysisOptions()
        options.rules.slowTransitionMs = 1000
        // A rule that holds the run against a model is shown with the log of a good run the model is learned from.
        if let modelLog = rule.entry.modelExample { options.against = try learnModel(modelLog + "\n") }
        let result = try analyze(text: rule.entry.example + "\n", options: options)
        #expect(result.findings.map(\.rule).contains(rule), "\(result.findings.map(\.rule))")
    }

    @Test func explainNamesTheRuleAndItsExample() {
        let text = RuleCatalogRendering.explain(.possibleLeak)
        #expect(text.hasPrefix("possible-leak (warning)\n"))
        #expect(text.contains("    2016-03-17 16:02:45.000 App[1:1] A >>>> didReceiveMemoryWarning\n"))
        var settings = RuleSettings()
        settings.overrides[.possibleLeak] = .some(nil)
        #expect(RuleCatalogRendering.explain(.possibleLeak, settings: settings).hasPrefix("possible-leak (off)\n"))
    }
}

@Suite struct RuleSettingsTests {
    @Test func overridesAndCaps() {
        var settings = RuleSettings()
        #expect(settings.severity(of: .viewLoadedTwice) == .error)
        #expect(settings.severity(of: .viewLoadedTwice, cappedAt: .warning) == .warning)
        settings.overrides[.viewLoadedTwice] = .some(.info)
        #expect(settings.severity(of: .viewLoadedTwice, cappedAt: .warning) == .info)
        settings.overrides[.viewLoadedTwice] = .some(nil)
        #expect(settings.severity(of: .viewLoadedTwice) == nil)
        #expect(!settings.isEnabled(.slowTransition))
        settings.slowTransitionMs = 100
        #expect(settings.isEnabled(.slowTransition))
    }

    @Test func assignments() {
        #expect(RuleSettings.assignment("possible-leak=off")! == (.possibleLeak, nil))
        #expect(RuleSettings.assignment("did-appear-twice=error")! == (.didAppearTwice, .error))
        #expect(RuleSettings.assignment("did-appear-twice") == nil)
        #expect(RuleSettings.assignment("nope=error") == nil)
        #expect(RuleSettings.assignment("did-appear-twice=loud") == nil)
    }

    @Test func turningARuleOffRemovesItsFindings() throws {
        var options = AnalysisOptions()
        options.rules.overrides[.appearanceBeforeViewDidLoad] = .some(nil)
        #expect(try analyze(sample: "appearance-before-view-did-load.log", options: options).findings.isEmpty)
        options.rules.overrides[.appearanceBeforeViewDidLoad] = .some(.warning)
        #expect(try analyze(sample: "appearance-before-view-did-load.log", options: options).findings.map(\.severity) == [.warning])
        // The severity set is the severity reported, with or without instance addresses.
        options.rules.overrides[.didAppearTwice] = .some(.error)
        #expect(try analyze(sample: "did-appear-twice.log", options: options).findings.map(\.severity) == [.error])
    }

    @Test func configFileIsReadWithYams() throws {
        let config = try ConfigFile.parse("""
            severity:
              possible-leak: off
              transition-unrecognized: error
            leak-timeout: 5
            slow-transition: 600.5
            """, path: "x.yml")
        #expect(config.severity[.possibleLeak]! == nil)
        #expect(config.severity[.transitionUnrecognized]! == .error)
        var settings = RuleSettings()
        config.apply(to: &settings)
        #expect(settings.leakTimeoutSeconds == 5 && settings.slowTransitionMs == 600.5)
        #expect(try ConfigFile.parse("", path: "empty.yml") == ConfigFile())
    }

    @Test func badConfigFilesAreClearErrors() {
        #expect(throws: ConfigError(path: "c.yml", message: "severity: unknown rule 'bogus' (see `lctrace rules`)")) {
            try ConfigFile.parse("severity:\n  bogus: off\n", path: "c.yml")
        }
        #expect(throws: ConfigError(path: "c.yml", message: "severity of possible-leak: 'loud' is not error, warning, info or off")) {
            try ConfigFile.parse("severity:\n  possible-leak: loud\n", path: "c.yml")
        }
        #expect(throws: ConfigError(path: "c.yml", message: "unknown key 'colour'; expected \(ConfigFile.keys.joined(separator: ", "))")) {
            try ConfigFile.parse("colour: red\n", path: "c.yml")
        }
        #expect(throws: ConfigError.self) { try ConfigFile.parse("severity: [1, 2\n", path: "c.yml") }
    }
}

@Suite struct TemplateTests {
    @Test func sheetUnderADeclaredPresentIsLegal() throws {
        let result = try analyze(text: """
            Home viewDidLoad()
            Home viewWillAppear(_:)
            Home viewDidAppear(_:)
            Home present(_:animated:completion:)
            Sheet viewDidLoad()
            Sheet viewWillAppear(_:)
            Sheet viewDidAppear(_:)
            Sheet dismiss(animated:completion:)
            Sheet viewWillDisappear(_:)
            Sheet viewDidDisappear(_:)
            Sheet deinit

            """)
        #expect(result.findings.isEmpty, "\(result.findings.map(\.message))")
        #expect(result.sessions.first?.transitions.map(\.kind) == [.appear, .sheetPresent, .sheetDismiss])
        #expect(result.sessions.first?.transitions[1].declared == .present)
    }

    @Test func aDeclaredPushWhereOnlyTheNewControllerAppearsIsFlagged() throws {
        let result = try analyze(text: """
            Home viewDidLoad()
            Home viewWillAppear(_:)
            Home viewDidAppear(_:)
            Home pushViewController(_:animated:)
            Detail viewDidLoad()
            Detail viewWillAppear(_:)
            Detail viewDidAppear(_:)

            """)
        #expect(result.findings.map(\.rule) == [.transitionOrder])
        #expect(result.findings.first?.line == 6)
        #expect(result.findings.first?.expected == "the outgoing controller viewWillDisappear")
    }

    @Test func aLoggedPopToRootIsHeldToItsTemplate() throws {
        let result = try analyze(text: """
            Item viewWillAppear(_:)
            Item viewDidAppear(_:)
            Item popToRootViewController(animated:)
            Item viewWillDisappear(_:)
            Root viewWillAppear(_:)
            Item viewDidDisappear(_:)
            Root viewDidAppear(_:)

            """)
        #expect(result.problems.isEmpty)
        #expect(result.sessions.first?.transitions.last?.kind == .popToRoot)
        #expect(result.sessions.first?.transitions.last?.declared == .popToRoot)
    }
}

@Suite struct LeakTests {
    @Test func leakIsInfoWhenTheClassNeverLogsDealloc() throws {
        let pop = try String(contentsOfFile: Fixtures.sample("possible-leak.log"), encoding: .utf8)
            .split(separator: "\n").filter { !$0.hasSuffix("dealloc") }.joined(separator: "\n")
        let leaks = try analyze(text: pop + "\n").findings.filter { $0.rule == .possibleLeak }
        #expect(leaks.map(\.severity) == [.info, .info])
        #expect(leaks.map(\.line) == [12, 21])
    }

    @Test func leakTimeoutIsConfigurable() throws {
        var options = AnalysisOptions()
        #expect(try analyze(sample: "possible-leak.log", options: options).findings.map(\.rule) == [.possibleLeak])
        options.rules.leakTimeoutSeconds = 20
        let patient = try analyze(sample: "possible-leak.log", options: options)
        #expect(patient.findings.isEmpty, "\(patient.findings.map(\.message))")
        #expect(patient.inputs.first?.lifecycleLines ?? 0 > 20 && patient.inputs.first?.unreadLines == 0)
    }

    @Test func withoutTimestampsTheLeakIsDecidedAtTheEndOfTheSession() throws {
        let pop = "\nB viewWillDisappear(_:)\nA viewWillAppear(_:)\nB viewDidDisappear(_:)\nA viewDidAppear(_:)\n"
        let result = try analyze(text: ControllerAutomatonTests.launchThenPush + pop)
        #expect(result.sessions.first?.transitions.map(\.kind) == [.appear, .push, .pop])
        #expect(result.findings.map(\.rule) == [.possibleLeak])
        #expect(result.findings.first?.message.contains("before the session ended") == true)
    }
}

@Suite struct IdentityAndSceneTests {
    @Test func callbackAfterDeallocWithoutAnAddressKeepsItsSeverity() throws {
        // The class logs its view loading, so a new instance would have: the callback is on the deallocated one.
        let result = try analyze(text: "A viewDidLoad()\nA deinit\nA viewWillAppear(_:)\n")
        #expect(result.findings.map(\.rule) == [.callbackAfterDealloc])
        #expect(result.findings.first?.severity == .error)
        let addressed = try analyze(text: "<M.A: 0x1> viewDidLoad()\n<M.A: 0x1> deinit\n<M.A: 0x1> viewWillAppear(_:)\n")
        #expect(addressed.findings.first?.severity == .error)
    }

    @Test func sceneErrorsNeedSceneIdentity() throws {
        let plain = try analyze(text: """
            SceneDelegate scene(_:willConnectTo:options:)
            SceneDelegate sceneDidBecomeActive(_:)
            SceneDelegate sceneDidEnterBackground(_:)

            """)
        #expect(plain.findings.map(\.rule) == [.backgroundWithoutResignActive])
        #expect(plain.findings.first?.severity == .warning)
        let addressed = try analyze(text: """
            <App.SceneDelegate: 0x600001> scene(_:willConnectTo:options:)
            <App.SceneDelegate: 0x600001> sceneDidBecomeActive(_:)
            <App.SceneDelegate: 0x600001> sceneDidEnterBackground(_:)
            <App.SceneDelegate: 0x600002> scene(_:willConnectTo:options:)

            """)
        #expect(addressed.problems.map(\.severity) == [.error])
        #expect(addressed.sessions.first?.scenes.map(\.id) == ["SceneDelegate@0x600001", "SceneDelegate@0x600002"])
        #expect(addressed.sessions.first?.scenes.map(\.finalPhase) == [.background, .launched])
    }

    @Test func theMainThreadIsTheMajorityWithoutALaunch() throws {
        let lines = (0..<5).map { "2024-02-09 09:14:0\($0).000000+0100 App[1:77] A viewWillLayoutSubviews()" }
            + ["2024-02-09 09:14:06.000000+0100 App[1:99] A viewDidLayoutSubviews()",
               "2024-02-09 09:14:07.000000+0100 App[1:99] A deinit"]
        let result = try analyze(text: lines.joined(separator: "\n") + "\n")
        #expect(result.findings.map(\.rule) == [.callbackOffMainThread])
        #expect(result.findings.first?.line == 6)
        #expect(result.findings.first?.message.contains("thread 99, not the main thread 77") == true)
    }

    @Test func postMortemAtAProcessChangeButNotAfterBackground() throws {
        let result = try analyze(text: """
            2016-03-17 16:02:36.940 App[10:1]  AppDelegate >>>> application:didFinishLaunchingWithOptions:
            2016-03-17 16:02:37.000 App[10:1]  AppDelegate >>>> applicationDidBecomeActive:
            2016-03-17 16:05:00.000 App[11:1]  AppDelegate >>>> application:didFinishLaunchingWithOptions:
            2016-03-17 16:05:00.100 App[11:1]  AppDelegate >>>> applicationDidBecomeActive:
            2016-03-17 16:05:09.000 App[11:1]  AppDelegate >>>> applicationWillResignActive:
            2016-03-17 16:05:09.500 App[11:1]  AppDelegate >>>> applicationDidEnterBackground:

            """)
        #expect(result.findings.map(\.rule) == [.sessionEndedAbruptly])
        #expect(result.findings.first?.line == 2)
        #expect(result.findings.first?.session == 1)
        #expect(result.sessions.first?.launch.finishLaunchingToActiveMs == 60)
    }

    /// The post-mortem names its last events as logged: class names and selectors (kept as the parser's numbers)
    /// and markers (kept as text) alike, also once newer events have taken the places of older ones.
    @Test func postMortemNamesTheLastEventsAsLogged() throws {
        let head = "2016-03-17 16:02:37.000 App[10:1] "
        let launch = ["main()", "AppDelegate >>>> application:didFinishLaunchingWithOptions:",
                      "AppDelegate >>>> applicationDidBecomeActive:"]
        func lastEvents(_ messages: [String]) throws -> String? {
            let result = try analyze(text: messages.map { head + $0 }.joined(separator: "\n") + "\n")
            let message = result.findings.first { $0.rule == .sessionEndedAbruptly }?.message
            return message.flatMap { $0.range(of: "last events: ") }.map { String(message![$0.upperBound...]) }
        }
        #expect(try lastEvents(launch) == "line 1 main(), line 2 AppDelegate application:didFinishLaunchingWithOptions:, "
            + "line 3 AppDelegate applicationDidBecomeActive:")
        #expect(try lastEvents(launch + ["Received memory warning.", "ShopApp.HomeViewController >>>> viewDidLoad"])
            == "line 3 AppDelegate applicationDidBecomeActive:, line 4 Received memory warning., line 5 HomeViewController viewDidLoad")
        #expect(try lastEvents(launch + ["HomeViewController >>>> viewDidLoad", "HomeViewController viewWillAppear(_:)", "HomeViewController >>>> viewDidAppear:"])
            == "line 4 HomeViewController viewDidLoad, line 5 HomeViewController viewWillAppear(_:), line 6 HomeViewController viewDidAppear:")
    }
}

@Suite struct FidelityIngestionTests {
    @Test func threadIDs() throws {
        func parse(_ text: String) -> ThreadID? {
            var text = text
            return text.withUTF8 { ThreadID(UnsafeRawBufferPointer($0)[...]) }
        }
        #expect(parse("117099")?.value == 117_099)
        #expect(parse("117099")?.isHex == false)
        #expect(parse("0x1e4a1")?.value == 0x1e4a1)
        #expect(parse("1e4a1")?.description == "0x1e4a1")
        #expect(parse("xyz") == nil)
        #expect(parse("0X1E4A1")?.value == 0x1e4a1)
        #expect(parse("12x3") == nil)
        #expect(parse("0x") == nil)
        #expect(parse("") == nil)
        #expect(parse("12345678901234567") == nil)
        #expect(parse("ffffffffffffffff")?.value == UInt64.max)
    }

    @Test func timeOfDayTimestamps() {
        let zoned: Int64 = (8 * 3600 + 14 * 60 + 3) * 1_000_000 + 118_204  // +0100: 08:14 UTC
        let plain: Int64 = (9 * 3600 + 14 * 60 + 3) * 1_000_000 + 500_000
        #expect(Timestamp.microseconds("09:14:03.118204+0100") == zoned)
        #expect(Timestamp.microseconds("09:14:03.5") == plain)
    }

    @Test func unbalancedAppearanceNoticeNamesTheController() throws {
        let line = "Unbalanced calls to begin/end appearance transitions for <ShopApp.DetailViewController: 0x7FA1>."
        let message = try line.utf8.withContiguousStorageIfAvailable { bytes in
            try MessageParser().parse(UnsafeRawBufferPointer(bytes), message: 0..<bytes.count)
        }!
        #expect(message?.callback == .unbalancedAppearanceNotice)
        #expect(message?.className == "DetailViewController")
        #expect(message?.address == "0x7fa1")
    }

    @Test func durationPercentiles() {
        var aggregator = DurationAggregator()
        for ms in 1...100 { aggregator.record(Double(ms), for: "A") }
        let stats = aggregator.stats()
        #expect(stats.count == 1)
        #expect(stats[0].count == 100)
        #expect(abs(stats[0].p50Ms - 50) <= 0.1)
        #expect(abs(stats[0].p90Ms - 90) <= 0.1)
        #expect(stats[0].maxMs == 100)
    }
}
