import Foundation
import Testing
@testable import LCTraceKit
@testable import lctrace_loggen

/// The generator's logging habits (`lctrace-loggen --habit`): each leaves out, or makes commoner, what it says, and
/// plant traffic plants only what the habits' logs can show. That lctrace raises no finding on legal traffic written
/// with habits is for the analysis's own tests (`habitFindings` gives the findings by rule); with no habit the
/// generator is the one the ground-truth tests and goldens already pin down.
@Suite struct LoggingHabitTests {
    static let styles = ["arrows", "objc", "swift", "swift-address"]

    /// Each habit alone, and all together.
    static let combinations: [[LoggingHabit]] = LoggingHabit.allCases.map { [$0] } + [LoggingHabit.allCases]

    @Test(arguments: styles)
    func noLoadWritesNoViewLoading(_ style: String) throws {
        let text = try habitLogText(habits: [.noLoad], style: style)
        #expect(!text.contains("viewDidLoad") && !text.contains("loadView"))
        // The controllers still come and go.
        #expect(text.contains("viewWillAppear") && text.contains("viewDidDisappear"))
        for habits in [[LoggingHabit.noLoad, .loadViewSometimes], LoggingHabit.allCases] {
            let text = try habitLogText(habits: habits, style: style, bytes: "300K")
            #expect(!text.contains("viewDidLoad") && !text.contains("loadView"), "\(habits)")
        }
    }

    @Test(arguments: styles)
    func noDeallocWritesNoDealloc(_ style: String) throws {
        let text = try habitLogText(habits: [.noDealloc], style: style)
        #expect(!text.contains("dealloc") && !text.contains("deinit"))
        #expect(text.contains("viewDidLoad") && text.contains("viewWillDisappear"))
        let all = try habitLogText(habits: LoggingHabit.allCases, style: style, bytes: "300K")
        #expect(!all.contains("dealloc") && !all.contains("deinit"))
    }

    /// Every viewDidLoad of a class comes right after its loadView, or none does; some classes log it, some do not.
    @Test func loadViewSometimesIsDecidedOncePerClass() throws {
        for style in ["arrows", "swift-address"] {
            let counts = loadViewCounts(try callbacks(habitLogText(habits: [.loadViewSometimes], style: style, bytes: "2M")))
            for (className, count) in counts {
                #expect(count.withLoadView == 0 || count.withLoadView == count.loads, "\(style) \(className): \(count)")
                #expect(count.loadViews == count.withLoadView, "\(style) \(className): a loadView without its viewDidLoad")
            }
            #expect(counts.values.contains { $0.withLoadView > 0 } && counts.values.contains { $0.withLoadView == 0 },
                    "\(style): \(counts)")
        }
        // By default each instance decides: some class logs it for some instances only.
        let counts = loadViewCounts(try callbacks(habitLogText(habits: [], style: "arrows", bytes: "2M")))
        #expect(counts.values.contains { $0.withLoadView > 0 && $0.withLoadView < $0.loads }, "\(counts)")
    }

    /// A memory warning reaches exactly the controllers alive (on some stack, or the tab bar controller), in the
    /// order they were made (their addresses rise with it); by default the tab bar controller gets none.
    @Test func memoryWarningsReachEveryLiveControllerInOrder() throws {
        for (habits, tabBarWarned) in [([LoggingHabit.memoryWarningsEverywhere], true), ([], false)] {
            let lines = try callbacks(habitLogText(habits: habits, style: "swift-address", bytes: "2M"))
            var alive: Set<UInt64> = []
            var warned: [(className: String, address: UInt64)] = []
            var warnings = 0, tabBarWarnings = 0
            var tabBar: UInt64?
            func endWarning() {
                guard !warned.isEmpty else { return }
                warnings += 1
                let addresses = warned.map(\.address)
                let expected = alive.filter { tabBarWarned || $0 != tabBar }
                #expect(Set(addresses) == expected, "\(habits): warned \(warned), alive \(alive.sorted())")
                if habits.contains(.memoryWarningsEverywhere) {
                    #expect(addresses == addresses.sorted(), "\(habits): not in the order of creation: \(warned)")
                }
                tabBarWarnings += warned.filter { $0.className == "MainTabBarController" }.count
                warned = []
            }
            for line in lines {
                if line.selector != "didReceiveMemoryWarning()" { endWarning() }
                switch line.selector {
                case "main()": (alive, tabBar) = ([], nil)
                case "deinit": alive.remove(line.address)
                case "didReceiveMemoryWarning()": warned.append((line.className, line.address))
                default:
                    if !line.isApp, line.address != 0 { alive.insert(line.address) }
                    if line.className == "MainTabBarController" { tabBar = line.address }
                }
            }
            endWarning()
            #expect(warnings > 20, "\(habits): \(warnings) memory warnings")
            #expect((tabBarWarnings > 0) == tabBarWarned, "\(habits): the tab bar controller was warned \(tabBarWarnings) times")
        }
    }

    /// Every tab's root is a ListViewController: some session has three, two of them hidden while the third shows;
    /// and a new controller takes the class of the one it covers more often than by default.
    @Test func sameClassTabsShareTheRootClass() throws {
        let habit = tabFacts(try callbacks(habitLogText(habits: [.sameClassTabs], style: "swift-address", bytes: "2M")))
        let plain = tabFacts(try callbacks(habitLogText(habits: [], style: "swift-address", bytes: "2M")))
        #expect(!habit.rootClasses.isEmpty && habit.rootClasses.allSatisfy { $0 == "ListViewController" }, "\(Set(habit.rootClasses))")
        #expect(habit.mostListRootsInASession >= 3, "\(habit.mostListRootsInASession)")
        #expect(Set(plain.rootClasses).count > 1)
        #expect(habit.sameClassCovers > plain.sameClassCovers + 0.1, "\(habit.sameClassCovers) against \(plain.sameClassCovers)")
    }

    /// FilterViewController sheets, presented and dismissed many times (and no other sheet class).
    @Test(arguments: styles)
    func manySheetsPresentsOneClassOften(_ style: String) throws {
        func sheets(_ habits: [LoggingHabit]) throws -> (filters: Int, filterDeallocs: Int, shares: Int) {
            let lines = try callbacks(habitLogText(habits: habits, style: style, bytes: "1M"))
            let filters = lines.filter { $0.className == "FilterViewController" }
            return (filters.filter { $0.selector == "viewDidAppear(_:)" }.count, filters.filter { $0.selector == "deinit" }.count,
                    lines.filter { $0.className == "ShareViewController" }.count)
        }
        let habit = try sheets([.manySheets]), plain = try sheets([])
        #expect(habit.filters > 5 * plain.filters, "\(habit) against \(plain)")
        #expect(habit.filterDeallocs > habit.filters / 2, "\(habit)")
        #expect(habit.shares == 0 && plain.shares > 0, "\(habit) against \(plain)")
    }

    /// Habits are for legal and plant traffic: classic traffic refuses them, as a usage error.
    @Test func classicTrafficRefusesHabits() throws {
        #expect(try loggenExitStatus(["--bytes", "1K", "--habit", "no-load"]) == 2)
    }

    /// A whole-device log (`--app-share`): other processes' lines around the app's, the app's at about the share asked
    /// for and exactly the lines the app writes alone, each of the others in order of time; refused for bare lines,
    /// which name no process.
    @Test func otherProcessesSurroundTheAppAtItsShare() throws {
        for traffic in ["classic", "legal"] {
            let alone = try String(contentsOfFile: generatedLog(bytes: "300K", seed: 61, format: "log-compact",
                                                                 options: ["--traffic", traffic]), encoding: .utf8)
            let device = try String(contentsOfFile: generatedLog(bytes: "3M", seed: 61, format: "log-compact",
                                                                  options: ["--traffic", traffic, "--app-share", "0.1"]), encoding: .utf8)
            let lines = device.split(separator: "\n")
            let appLines = lines.filter { $0.contains(" ShopApp[") }
            let share = Double(appLines.count) / Double(lines.count)
            #expect(share > 0.08 && share < 0.12, "\(traffic): \(share)")
            // The app's lines are the ones it writes alone (the device log is longer: compare what both hold).
            let aloneLines = alone.split(separator: "\n")
            let both = min(appLines.count, aloneLines.count)
            let sameLines = appLines.prefix(both).elementsEqual(aloneLines.prefix(both))
            #expect(both > 1000 && sameLines, "\(traffic): the app's lines differ from its lines alone")
            let processes = Set(lines.compactMap { line -> String? in
                let fields = line.split(separator: " ")
                return fields.count > 3 ? String(fields[3].prefix { $0 != "[" }) : nil
            })
            #expect(processes.count > 10 && processes.contains("SpringBoard") && processes.contains("kernel"), "\(processes)")
            let times = lines.map { String($0.prefix(23)) }
            let inOrder = times == times.sorted()
            #expect(inOrder, "\(traffic): times go back")
        }
        #expect(try loggenExitStatus(["--bytes", "1K", "--format", "bare", "--app-share", "0.5"]) == 2)
    }

    /// Plant traffic with habits plants every rule the style, format and habits can show, and nothing else; the lines
    /// a habit leaves out stay out.
    @Test(arguments: styles)
    func plantTrafficPlantsOnlyWhatTheHabitsCanShow(_ style: String) throws {
        let messageStyle = try #require(MessageStyle(rawValue: style))
        for habits in LoggingHabitTests.combinations + [[.noLoad, .noDealloc]] {
            for (seed, format) in [(61, "nslog-modern"), (62, "bare")] {
                let manifest = TestFiles.root.appendingPathComponent("lctrace-manifest-\(UUID().uuidString)").path
                let text = try habitLogText(habits: habits, style: style, traffic: "plant", bytes: "200K", seed: seed,
                                            format: format, manifest: manifest)
                let rows = try String(contentsOfFile: manifest, encoding: .utf8).split(separator: "\n")
                let planted = try rows.map { row in try #require(Rule(rawValue: String(row.split(separator: " ")[1])), "\(row)") }
                let plantable = PlantedRules.all.filter {
                    PlantedRules.isPlantable($0, style: messageStyle, hasThreads: format != "bare", habits: Set(habits))
                }
                #expect(planted.sorted { $0.rawValue < $1.rawValue } == plantable.sorted { $0.rawValue < $1.rawValue },
                        "\(habits) \(style) \(format): planted \(planted.map(\.rawValue))")
                if habits.contains(.noLoad) { #expect(!text.contains("viewDidLoad") && !text.contains("loadView"), "\(habits)") }
                if habits.contains(.noDealloc) { #expect(!text.contains("dealloc") && !text.contains("deinit"), "\(habits)") }
            }
        }
        // What each habit takes away from what the style can show.
        func removed(by habits: Set<LoggingHabit>) -> Set<Rule> {
            Set(PlantedRules.all.filter {
                PlantedRules.isPlantable($0, style: messageStyle, hasThreads: true)
                    && !PlantedRules.isPlantable($0, style: messageStyle, hasThreads: true, habits: habits)
            })
        }
        // Without addresses a second or late viewDidLoad is never planted; without loading lines either, a callback
        // by class name alone may be another instance's, one the log cannot rule out.
        #expect(removed(by: [.noLoad]) == (messageStyle.hasAddresses
            ? [.appearanceBeforeViewDidLoad, .viewLoadedTwice, .viewReloadedWhileVisible]
            : [.unbalancedWillCallback, .didAppearTwice, .viewUnloadedWhileVisible, .callbackAfterDealloc, .possibleLeak,
               .deallocWhileOnScreen]))
        #expect(removed(by: [.noDealloc]) == [.callbackAfterDealloc, .possibleLeak, .deallocWhileOnScreen])
        for habit in [LoggingHabit.loadViewSometimes, .memoryWarningsEverywhere, .sameClassTabs, .manySheets] {
            #expect(removed(by: [habit]).isEmpty, "\(habit)")
        }
    }

    // MARK: Reading the generated logs

    /// A lifecycle line of a generated log in the bare format: the class, the address (0 without one) and the
    /// callback in Swift's `#function` form; `main()` and UIKit's memory warning as selectors of their own.
    struct LogLine: CustomStringConvertible {
        var className: String
        var address: UInt64
        var selector: String
        var isApp: Bool { className.hasSuffix("Delegate") }
        var description: String { "\(className)@\(String(address, radix: 16)) \(selector)" }
    }

    /// The lifecycle lines of a bare-format log in any style, leaving out ordinary app logging.
    func callbacks(_ text: String) -> [LogLine] {
        text.split(separator: "\n").compactMap { line -> LogLine? in
            if line == "main()" { return LogLine(className: "", address: 0, selector: "main()") }
            if line == "Received memory warning." { return LogLine(className: "", address: 0, selector: "memoryWarning") }
            if line.hasPrefix("<ShopApp.") {  // <ShopApp.Class: 0x…> selector()
                guard let colon = line.firstIndex(of: ":"), let close = line.firstIndex(of: ">") else { return nil }
                let className = String(line[line.index(line.startIndex, offsetBy: 9)..<colon])
                let address = UInt64(line[line.index(colon, offsetBy: 4)..<close], radix: 16) ?? 0
                return LogLine(className: className, address: address, selector: String(line[line.index(close, offsetBy: 2)...]))
            }
            if line.hasPrefix("-[") {  // -[Class selector:]
                let parts = line.dropFirst(2).dropLast().split(separator: " ")
                guard parts.count == 2 else { return nil }
                return LogLine(className: String(parts[0]), address: 0, selector: MessageStyle.swiftName(String(parts[1])))
            }
            let words = line.split(separator: " ")
            if words.count == 3, words[1] == ">>>>" {  // Class    >>>>    selector
                return LogLine(className: String(words[0]), address: 0, selector: MessageStyle.swiftName(String(words[2])))
            }
            if words.count == 2, words[1].hasSuffix(")") || words[1] == "deinit" {  // Class selector()
                return LogLine(className: String(words[0]), address: 0, selector: String(words[1]))
            }
            return nil
        }
    }

    struct LoadViewCount: CustomStringConvertible {
        var loads = 0, withLoadView = 0, loadViews = 0
        var description: String { "\(withLoadView) of \(loads) loads after loadView, \(loadViews) loadView" }
    }

    /// By class: the viewDidLoads, those right after the class's loadView, and the loadViews.
    func loadViewCounts(_ lines: [LogLine]) -> [String: LoadViewCount] {
        var counts: [String: LoadViewCount] = [:]
        var previous: LogLine?
        for line in lines {
            if line.selector == "loadView()" { counts[line.className, default: LoadViewCount()].loadViews += 1 }
            if line.selector == "viewDidLoad()" {
                counts[line.className, default: LoadViewCount()].loads += 1
                if let previous, previous.selector == "loadView()", previous.className == line.className {
                    counts[line.className, default: LoadViewCount()].withLoadView += 1
                }
            }
            previous = line
        }
        return counts
    }

    /// Of a swift-address log: the classes of the tab roots (in sessions with a tab bar: the first controller that
    /// appears, and each that first appears opening a tab switch, before the one leaving disappears), the most
    /// ListViewController roots of one session, and of the controllers that first appear as another one disappears
    /// (pushed or presented over it), the fraction of the same class as that one.
    func tabFacts(_ lines: [LogLine]) -> (rootClasses: [String], mostListRootsInASession: Int, sameClassCovers: Double) {
        var rootClasses: [String] = []
        var mostListRoots = 0, covers = 0, sameClassCovers = 0
        var seen: Set<UInt64> = [], hasTabBar = false, listRoots = 0, firstAppearance = true
        var lastDisappearing: LogLine?
        for (index, line) in lines.enumerated() {
            switch line.selector {
            case "main()":
                seen = []; hasTabBar = false; listRoots = 0; firstAppearance = true; lastDisappearing = nil
            case "viewDidLoad()" where line.className == "MainTabBarController":
                hasTabBar = true
            case "viewWillDisappear(_:)":
                lastDisappearing = line
            case "viewWillAppear(_:)" where !line.isApp && !seen.contains(line.address):
                seen.insert(line.address)
                let next = lines[(index + 1)...].first { !["loadView()", "viewDidLoad()"].contains($0.selector) }
                let opensTabSwitch = next?.selector == "viewWillDisappear(_:)" && next?.address != line.address
                if hasTabBar, firstAppearance || opensTabSwitch {
                    rootClasses.append(line.className)
                    if line.className == "ListViewController" { listRoots += 1 }
                    mostListRoots = max(mostListRoots, listRoots)
                } else if let covered = lastDisappearing, covered.address != line.address {
                    covers += 1
                    if covered.className == line.className { sameClassCovers += 1 }
                }
                firstAppearance = false
                lastDisappearing = nil
            case "viewDidAppear(_:)", "viewDidDisappear(_:)":
                lastDisappearing = nil
            default:
                break
            }
        }
        return (rootClasses, mostListRoots, covers == 0 ? 0 : Double(sameClassCovers) / Double(covers))
    }
}

/// The exit status of the built `lctrace-loggen` run with `arguments`, its output thrown away.
func loggenExitStatus(_ arguments: [String]) throws -> Int32 {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: try builtProduct("lctrace-loggen"))
    process.arguments = arguments
    process.standardOutput = FileHandle.nullDevice
    process.standardError = FileHandle.nullDevice
    try process.run()
    process.waitUntilExit()
    return process.terminationStatus
}

/// A log written by the built `lctrace-loggen` with logging habits: its path. `manifest`, for plant traffic, is where
/// the planted deviations are listed.
func habitLog(habits: [LoggingHabit], style: String, traffic: String = "legal", bytes: String = "1M", seed: Int = 7,
              format: String = "bare", manifest: String? = nil) throws -> String {
    var options = ["--traffic", traffic, "--style", style] + habits.flatMap { ["--habit", $0.rawValue] }
    if let manifest { options += ["--manifest", manifest] }
    return try generatedLog(bytes: bytes, seed: seed, format: format, options: options)
}

/// The text of `habitLog`'s log.
func habitLogText(habits: [LoggingHabit], style: String, traffic: String = "legal", bytes: String = "1M", seed: Int = 7,
                  format: String = "bare", manifest: String? = nil) throws -> String {
    try String(contentsOfFile: habitLog(habits: habits, style: style, traffic: traffic, bytes: bytes, seed: seed,
                                        format: format, manifest: manifest), encoding: .utf8)
}

/// The warnings and errors the analysis (in process, with the default settings) raises on legal traffic written with
/// `habits`, counted by rule id: every one is a false finding. For the tests of the analysis of logs that leave lines
/// out; nslog-modern lines carry thread ids and times, bare ones neither.
func habitFindings(habits: [LoggingHabit], style: String, bytes: String = "1M", seed: Int = 7,
                   format: String = "nslog-modern") throws -> [String: Int] {
    let log = try habitLog(habits: habits, style: style, bytes: bytes, seed: seed, format: format)
    let result = try analyze(paths: [log])
    return result.problems.reduce(into: [:]) { counts, finding in counts[finding.rule.rawValue, default: 0] += 1 }
}
