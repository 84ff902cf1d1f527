import Foundation
import Testing
@testable import LCTraceKit
@testable import lctrace_loggen

/// Who is who when the log does not say: legal traffic of apps with every combination of logging habits stays
/// silent in every spelling, planted deviations stay caught, and the rules for what a class-only log used to
/// swallow fire on their fixtures and not on legal look-alikes.
@Suite struct IdentityReadingTests {
    static let styles = ["arrows", "objc", "swift", "swift-address"]

    /// Every combination of the generator's logging habits, the empty one first.
    static let combinations: [[LoggingHabit]] = (0..<(1 << LoggingHabit.allCases.count)).map { mask in
        LoggingHabit.allCases.enumerated().filter { mask & (1 << $0.offset) != 0 }.map(\.element)
    }

    static func name(_ habits: [LoggingHabit]) -> String {
        habits.isEmpty ? "none" : habits.map(\.rawValue).joined(separator: ",")
    }

    @Test(arguments: combinations)
    func legalTrafficWithEveryHabitIsSilent(_ habits: [LoggingHabit]) throws {
        var total = 0
        var seen: [String] = []
        for style in IdentityReadingTests.styles {
            let counts = try habitFindings(habits: habits, style: style)
            let count = counts.values.reduce(0, +)
            total += count
            if count > 0 { seen.append("\(style): \(counts.sorted { $0.key < $1.key })") }
            // Addresses leave nothing to infer.
            if style == "swift-address" { #expect(count == 0, "\(IdentityReadingTests.name(habits)) \(style): \(counts)") }
        }
        #expect(total == 0, "\(IdentityReadingTests.name(habits)): \(total) false findings: \(seen)")
    }

    /// Every deviation the generator plants (those a habit leaves provable) is reported at its line, in every
    /// combination and spelling, and nothing else is an error or a warning.
    @Test(arguments: combinations)
    func plantedDeviationsAreCaughtWithEveryHabit(_ habits: [LoggingHabit]) throws {
        for style in IdentityReadingTests.styles {
            let manifest = TestFiles.root.appendingPathComponent("habit-manifest-\(UUID().uuidString)").path
            let log = try habitLog(habits: habits, style: style, traffic: "plant", bytes: "200K", seed: 51,
                                   format: "nslog-modern", manifest: manifest)
            let planted = Set(try String(contentsOfFile: manifest, encoding: .utf8).split(separator: "\n").map(String.init))
            let result = try analyze(paths: [log])
            let reported = Set(result.findings.map { "\($0.line) \($0.rule.rawValue)" })
            let problems = Set(result.problems.map { "\($0.line) \($0.rule.rawValue)" })
            #expect(planted.subtracting(reported).isEmpty,
                    "\(IdentityReadingTests.name(habits)) \(style): missed \(planted.subtracting(reported).sorted())")
            #expect(problems.subtracting(planted).isEmpty,
                    "\(IdentityReadingTests.name(habits)) \(style): not planted \(problems.subtracting(planted).sorted())")
        }
    }

    /// A push of a second instance onto one of its class, by an app that logs no loading, reads like a cancelled pop
    /// until the push completes; then it is a push, and the pop back and the dealloc that follow are legal.
    @Test func aPushOfTheSameClassWithoutLoadLinesIsAPush() throws {
        let log = """
            2024-02-09 09:14:03.200 ShopApp[4410:1a2b] ArticleViewController viewWillAppear(_:)
            2024-02-09 09:14:03.500 ShopApp[4410:1a2b] ArticleViewController viewDidAppear(_:)
            2024-02-09 09:14:05.000 ShopApp[4410:1a2b] ArticleViewController viewWillDisappear(_:)
            2024-02-09 09:14:05.010 ShopApp[4410:1a2b] ArticleViewController viewWillAppear(_:)
            2024-02-09 09:14:05.500 ShopApp[4410:1a2b] ArticleViewController viewDidDisappear(_:)
            2024-02-09 09:14:05.510 ShopApp[4410:1a2b] ArticleViewController viewDidAppear(_:)
            2024-02-09 09:14:12.000 ShopApp[4410:1a2b] ArticleViewController viewWillDisappear(_:)
            2024-02-09 09:14:12.010 ShopApp[4410:1a2b] ArticleViewController viewWillAppear(_:)
            2024-02-09 09:14:12.500 ShopApp[4410:1a2b] ArticleViewController viewDidDisappear(_:)
            2024-02-09 09:14:12.510 ShopApp[4410:1a2b] ArticleViewController viewDidAppear(_:)
            2024-02-09 09:14:12.520 ShopApp[4410:1a2b] ArticleViewController deinit

            """
        let result = try analyze(text: log)
        #expect(result.problems.isEmpty, "\(result.problems.map(\.message))")
        #expect(result.sessions.first?.transitions.map(\.kind) == [.appear, .push, .pop])
    }

    /// A list on screen under a dozen sheets of its own class, in an app that logs no dealloc: every sheet lives on,
    /// and more than the window of instances that appeared last (`InferenceRules.maxCandidates`) appeared after the
    /// list, which a sheet's presenter does not see. The list is still weighed, being on screen and then on its stack:
    /// its push and the pop back to it are its own, not a dismissed sheet's.
    @Test func aControllerUnderManySheetsOfItsClassStaysInReach() throws {
        var log = ""
        var millis = 0
        func add(_ message: String) {
            millis += 120
            log += String(format: "2024-02-09 09:%02d:%02d.%03d ShopApp[4410:1a2b] %@\n", 14 + millis / 60_000,
                          millis / 1000 % 60, millis % 1000, message)
        }
        for callback in ["viewDidLoad()", "viewWillAppear(_:)", "viewDidAppear(_:)"] { add("ListViewController " + callback) }
        for _ in 0..<12 {
            for callback in ["viewDidLoad()", "viewWillAppear(_:)", "viewDidAppear(_:)", "viewWillDisappear(_:)", "viewDidDisappear(_:)"] {
                add("ListViewController " + callback)
            }
        }
        for step in ["ListViewController viewWillDisappear(_:)", "DetailViewController viewWillAppear(_:)",
                     "ListViewController viewDidDisappear(_:)", "DetailViewController viewDidAppear(_:)",
                     "DetailViewController viewWillDisappear(_:)", "ListViewController viewWillAppear(_:)",
                     "DetailViewController viewDidDisappear(_:)", "ListViewController viewDidAppear(_:)"] {
            add(step)
        }
        let result = try analyze(text: log)
        #expect(result.problems.isEmpty, "\(result.problems.map(\.message))")
        let transitions = try #require(result.sessions.first?.transitions)
        #expect(transitions.map(\.kind) == [.appear] + Array(repeating: [.sheetPresent, .sheetDismiss], count: 12).flatMap { $0 } + [.push, .pop])
        #expect(transitions.suffix(2).map { [$0.from, $0.to] } == [["ListViewController", "DetailViewController"],
                                                                   ["DetailViewController", "ListViewController"]])
    }

    /// A second DetailViewController, just loaded, is pushed two levels above the first; then the app goes back to the
    /// first. The first one's viewWillAppear is the way back, not the top one's cancelled exit coming back: the top one
    /// then disappears and deallocates, as a cancelled exit never would.
    @Test func aWayBackToAnInstanceDeeperInTheStackIsNotACancelledExit() throws {
        let log = """
            2024-02-09 09:14:03.100 ShopApp[4410:1a2b] DetailViewController viewDidLoad()
            2024-02-09 09:14:03.200 ShopApp[4410:1a2b] DetailViewController viewWillAppear(_:)
            2024-02-09 09:14:03.500 ShopApp[4410:1a2b] DetailViewController viewDidAppear(_:)
            2024-02-09 09:14:05.000 ShopApp[4410:1a2b] SettingsViewController viewDidLoad()
            2024-02-09 09:14:05.010 ShopApp[4410:1a2b] DetailViewController viewWillDisappear(_:)
            2024-02-09 09:14:05.020 ShopApp[4410:1a2b] SettingsViewController viewWillAppear(_:)
            2024-02-09 09:14:05.500 ShopApp[4410:1a2b] DetailViewController viewDidDisappear(_:)
            2024-02-09 09:14:05.510 ShopApp[4410:1a2b] SettingsViewController viewDidAppear(_:)
            2024-02-09 09:14:07.000 ShopApp[4410:1a2b] DetailViewController viewDidLoad()
            2024-02-09 09:14:07.010 ShopApp[4410:1a2b] SettingsViewController viewWillDisappear(_:)
            2024-02-09 09:14:07.020 ShopApp[4410:1a2b] DetailViewController viewWillAppear(_:)
            2024-02-09 09:14:07.500 ShopApp[4410:1a2b] SettingsViewController viewDidDisappear(_:)
            2024-02-09 09:14:07.510 ShopApp[4410:1a2b] DetailViewController viewDidAppear(_:)
            2024-02-09 09:14:09.000 ShopApp[4410:1a2b] DetailViewController viewWillDisappear(_:)
            2024-02-09 09:14:09.010 ShopApp[4410:1a2b] DetailViewController viewWillAppear(_:)
            2024-02-09 09:14:09.500 ShopApp[4410:1a2b] DetailViewController viewDidAppear(_:)
            2024-02-09 09:14:09.510 ShopApp[4410:1a2b] DetailViewController viewDidDisappear(_:)
            2024-02-09 09:14:09.520 ShopApp[4410:1a2b] DetailViewController deinit
            2024-02-09 09:14:09.530 ShopApp[4410:1a2b] SettingsViewController deinit

            """
        let result = try analyze(text: log)
        #expect(result.problems.isEmpty, "\(result.problems.map(\.message))")
        let transitions = try #require(result.sessions.first?.transitions)
        #expect(transitions.map { [$0.from, $0.to] } == [[nil, "DetailViewController"], ["DetailViewController", "SettingsViewController"],
                                                         ["SettingsViewController", "DetailViewController#2"],
                                                         ["DetailViewController#2", "DetailViewController"]])
    }

    /// A class that logs neither its creation nor its loading can release an instance the log never showed: a dealloc
    /// while the only instance known is on screen is that one's, not the visible one's. Once the class logs its
    /// loading, every instance is known, and the same dealloc is a controller released while on screen.
    @Test func aDeallocOfAClassThatLogsNoCreationMayBeAnUnseenInstance() throws {
        let visit = """
            2024-02-09 09:14:03.200 ShopApp[4410:1a2b] ArticleViewController viewWillAppear(_:)
            2024-02-09 09:14:03.500 ShopApp[4410:1a2b] ArticleViewController viewDidAppear(_:)
            2024-02-09 09:14:04.000 ShopApp[4410:1a2b] ArticleViewController deinit
            2024-02-09 09:14:05.000 ShopApp[4410:1a2b] ArticleViewController viewWillDisappear(_:)
            2024-02-09 09:14:05.010 ShopApp[4410:1a2b] CommentsViewController viewWillAppear(_:)
            2024-02-09 09:14:05.500 ShopApp[4410:1a2b] ArticleViewController viewDidDisappear(_:)
            2024-02-09 09:14:05.510 ShopApp[4410:1a2b] CommentsViewController viewDidAppear(_:)

            """
        let unseen = try analyze(text: visit)
        #expect(unseen.problems.isEmpty, "\(unseen.problems.map(\.message))")
        #expect(unseen.sessions.first?.transitions.map(\.kind) == [.appear, .push])
        let loaded = "2024-02-09 09:14:03.100 ShopApp[4410:1a2b] ArticleViewController viewDidLoad()\n" + visit
        let released = try analyze(text: loaded).findings.filter { $0.rule == .deallocWhileOnScreen }
        #expect(released.map(\.line) == [4])
        #expect(released.map(\.severity) == [.warning])
    }

    /// A foreground entry in an app that logs no way out of the foreground is info; once the input shows the app
    /// logging its background, the same entry is a warning.
    @Test func aForegroundEntryIsInfoWhereTheAppNeverLogsLeavingIt() throws {
        let entry = "AppDelegate application(_:didFinishLaunchingWithOptions:)\nAppDelegate applicationDidBecomeActive(_:)\n"
            + "AppDelegate applicationWillEnterForeground(_:)\nAppDelegate applicationDidBecomeActive(_:)\n"
        let quiet = try analyze(text: entry).findings.filter { $0.rule == .unexpectedStateCallback }
        #expect(quiet.map(\.severity) == [.info])
        #expect(quiet.first?.message.contains("logs no resign-active or enter-background callback") == true)
        let logged = "AppDelegate application(_:didFinishLaunchingWithOptions:)\nAppDelegate applicationDidBecomeActive(_:)\n"
            + "AppDelegate applicationWillResignActive(_:)\nAppDelegate applicationDidEnterBackground(_:)\n"
            + "AppDelegate applicationWillEnterForeground(_:)\nAppDelegate applicationDidBecomeActive(_:)\n" + entry.split(separator: "\n").suffix(2).joined(separator: "\n") + "\n"
        #expect(try analyze(text: logged).findings.filter { $0.rule == .unexpectedStateCallback }.map(\.severity) == [.warning])
    }

    /// Load loops: told once, at the third identical cycle; a run of viewDidLoad alone (a carousel of new instances)
    /// and cycles with something between them are not one.
    @Test func loadLoopsAreToldOnceAndOnlyForRepeatedLoadView() throws {
        let loop = String(repeating: "ProfileViewController loadView()\nProfileViewController viewDidLoad()\n", count: 5)
        let found = try analyze(text: loop).findings.filter { $0.rule == .loadLoop }
        #expect(found.map(\.line) == [6])
        let carousel = String(repeating: "PageViewController viewDidLoad()\n", count: 6)
        #expect(try analyze(text: carousel).findings.filter { $0.rule == .loadLoop }.isEmpty)
        let interrupted = "A loadView()\nA viewDidLoad()\nA viewWillAppear(_:)\nA loadView()\nA viewDidLoad()\nB viewDidLoad()\n"
            + "A loadView()\nA viewDidLoad()\n"
        #expect(try analyze(text: interrupted).findings.filter { $0.rule == .loadLoop }.isEmpty)
        let singleCall = String(repeating: "A loadView()\n", count: 3)
        #expect(try analyze(text: singleCall).findings.filter { $0.rule == .loadLoop }.map(\.line) == [3])
    }

    /// With addresses, the same callbacks stay the rules they always were: a second viewWillAppear is
    /// unbalanced-will-callback, a callback after dealloc is callback-after-dealloc.
    @Test func addressesKeepTheCertainRules() throws {
        let twice = "<M.A: 0x1> viewWillAppear(_:)\n<M.A: 0x1> viewWillAppear(_:)\n<M.A: 0x1> viewDidAppear(_:)\n"
        #expect(try analyze(text: twice).findings.map(\.rule).contains(.unbalancedWillCallback))
        #expect(!(try analyze(text: twice).findings.map(\.rule).contains(.willAppearTwice)))
    }

    /// When readings are decided without one being dropped, a finding the cheapest needs and another does not is told
    /// as info, saying the log was ambiguous and how to make it certain; one every reading needs keeps its severity.
    @Test func findingsOnlySomeReadingsNeedAreToldAsAmbiguous() {
        func finding(_ rule: Rule, line: Int) -> Finding {
            Finding(rule: rule, severity: .warning, input: "app.log", line: line, session: 1, controller: "B", message: "B left", expected: nil, actual: nil)
        }
        func reading(holding findings: [Finding]) -> IdentityReading {
            IdentityReading(instances: InstanceRegistry(expected: 0, limits: SessionLimits()), transitions: TransitionTracker(), leaks: LeakWatch(timeoutSeconds: 3),
                            hostedViews: HostedViewWatch(), transitionReports: [], transitionsNotListed: 0, findings: findings,
                            findingsNotListed: 0, held: findings.map { .finding($0, listedAt: nil) }, madeAt: 0, cost: 50)
        }
        let leak8 = finding(.possibleLeak, line: 8)
        let others = [reading(holding: [finding(.possibleLeak, line: 13)]), reading(holding: [leak8])]
        #expect(!IdentityReadings.isShared(leak8, by: others))
        #expect(IdentityReadings.isShared(leak8, by: [others[1]]))
        let told = IdentityReadings.ambiguous(leak8)
        #expect(told.severity == .info && told.rule == .possibleLeak && told.line == 8)
        #expect(told.message.hasPrefix("B left (the log names controllers by class, and it is ambiguous here"))
        #expect(told.message.contains("`print(self, #function)`"))
    }
}
