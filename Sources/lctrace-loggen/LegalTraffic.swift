import LCTraceKit

// Legal traffic: launches of an app whose every lifecycle sequence is one UIKit produces, with the hard cases for
// telling instances apart by class name — the same class pushed onto itself and presented over itself, a tab bar with
// one navigation stack per tab (the same root class in two tabs), full-screen presentations and iOS 13 sheets with a
// silent presenter, cancelled swipe-backs and swipe-downs, pop-to-root with silent intermediates, the background and
// memory warnings — and every popped or dismissed controller deallocating. With `plant`, one deviation of each
// controller and app rule is written at a recorded line, in a place where nothing else is disturbed. Logging habits
// (`LoggingHabit`) leave lines out or make the hard cases commoner, still with only sequences UIKit produces.

/// How lifecycle messages are written.
enum MessageStyle: String, CaseIterable {
    /// `NSLog(@"%@ >>>> %@", NSStringFromClass([self class]), NSStringFromSelector(_cmd))`
    case arrows
    /// `NSLog(@"%s", __PRETTY_FUNCTION__)`: `-[Class selector:]`
    case objc
    /// `print(type(of: self), #function)`: `Class viewWillAppear(_:)`
    case swift
    /// `print(self, #function)`: `<Module.Class: 0x…> viewWillAppear(_:)`
    case swiftAddress = "swift-address"

    var hasAddresses: Bool { self == .swiftAddress }

    /// The message for an object of `className` at `address`, calling the Objective-C `selector`.
    func message(_ className: String, address: UInt64, _ selector: String) -> String {
        switch self {
        case .arrows: return "\(className)    >>>>    \(selector)"
        case .objc: return "-[\(className) \(selector)]"
        case .swift: return "\(className) \(MessageStyle.swiftName(selector))"
        case .swiftAddress: return "<ShopApp.\(className): 0x\(String(address, radix: 16))> \(MessageStyle.swiftName(selector))"
        }
    }

    /// The Swift `#function` of an Objective-C selector.
    static func swiftName(_ selector: String) -> String {
        if let special = swiftNames[selector] { return special }
        return selector.hasSuffix(":") ? selector.dropLast() + "(_:)" : selector + "()"
    }

    private static let swiftNames = [
        "dealloc": "deinit",
        "application:didFinishLaunchingWithOptions:": "application(_:didFinishLaunchingWithOptions:)",
        "scene:willConnectToSession:options:": "scene(_:willConnectTo:options:)",
        "didMoveToParentViewController:": "didMove(toParent:)",
    ]
}

/// What the app leaves out of its log, or does more of than the default traffic: each a habit of real apps, and each
/// still only sequences UIKit produces. With no habit the traffic is the default one, byte for byte.
enum LoggingHabit: String, CaseIterable {
    /// The app never logs loadView or viewDidLoad (the controllers still load; the lines are not written).
    case noLoad = "no-load"
    /// The app never logs dealloc (deinit).
    case noDealloc = "no-dealloc"
    /// Each class decides once, for the whole run, whether it logs loadView: all its instances do, or none does
    /// (by default each instance logs it at random, one in five).
    case loadViewSometimes = "loadview-sometimes"
    /// A memory warning also reaches the tab bar controller, and every controller gets it in the order the
    /// controllers were created — the order they registered for UIApplicationDidReceiveMemoryWarningNotification,
    /// which is NotificationCenter's. By default it reaches every controller on every tab's stack (presented ones and
    /// hidden tabs' whole stacks included) but not the tab bar controller, tab by tab from each stack's top down.
    /// Controllers off every stack (dead ones an app without dealloc logging cannot show dead, a leaked one) never get it.
    case memoryWarningsEverywhere = "memory-warnings-everywhere"
    /// Every tab's root is a ListViewController, and a push picks the top's class twice as often (three in five):
    /// hidden instances of one class sit on several tab stacks.
    case sameClassTabs = "same-class-tabs"
    /// Sheets, all FilterViewController, are presented and dismissed (sometimes cancelled) far more often.
    case manySheets = "many-sheets"
}

/// The rules `plant` writes one deviation of, in the order it plants them: every controller and app rule.
enum PlantedRules {
    static let all: [Rule] = [
        .didAppearWithoutWillAppear, .didDisappearWithoutWillDisappear, .didAppearTwice, .unbalancedWillCallback,
        .isAppearingOutsideAppearance, .appearanceBeforeViewDidLoad, .viewLoadedTwice, .viewUnloadedWhileVisible,
        .viewReloadedWhileVisible, .callbackAfterDealloc, .didMoveWithoutWillMove, .unbalancedAppearanceTransition,
        .appearanceMethodCalledDirectly, .presentNotInWindowHierarchy, .callbackOffMainThread, .possibleLeak,
        .deallocWhileOnScreen, .stateCallbackBeforeLaunch, .launchRepeated, .backgroundWithoutResignActive,
        .activeFromBackgroundWithoutForeground, .unexpectedStateCallback, .sceneNotConnected, .appCallbacksWithScenes,
    ]

    /// Whether the style, format and habits can show the rule: a second viewDidLoad, or one after an appearance,
    /// proves a deviation only when an address names the instance, and only in an app that logs viewDidLoad; a thread
    /// needs thread ids, and a second launch in one process its id (without one, a second launch starts a new
    /// session); a callback after dealloc, a leak and a dealloc on screen need an app that logs dealloc.
    ///
    /// In an app that never logs loading, a callback logged by class name alone may be another instance's, one the
    /// log cannot rule out: a new one whose loading went unlogged (a stray viewWillAppear reads as a sheet of the
    /// class presented over it, a callback after dealloc as a new instance's), or one a reading of the log keeps
    /// alive (a pop back to an instance reads as well as the top replaced by a new instance of its class, and the
    /// pop a leak needs, one no dealloc follows, as a push of one). A hidden instance of the top's class makes a
    /// second viewDidAppear one without viewWillAppear, and a viewDidUnload or a dealloc legal. So without addresses
    /// only the deviations no instance of the class could take legally, each under the same rule, are planted there.
    static func isPlantable(_ rule: Rule, style: MessageStyle, hasThreads: Bool, habits: Set<LoggingHabit> = []) -> Bool {
        let instancesAreKnown = style.hasAddresses || !habits.contains(.noLoad)
        switch rule {
        case .viewLoadedTwice, .viewReloadedWhileVisible, .appearanceBeforeViewDidLoad:
            return style.hasAddresses && !habits.contains(.noLoad)
        case .unbalancedWillCallback, .didAppearTwice, .viewUnloadedWhileVisible: return instancesAreKnown
        case .callbackAfterDealloc, .possibleLeak, .deallocWhileOnScreen:
            return instancesAreKnown && !habits.contains(.noDealloc)
        case .callbackOffMainThread, .launchRepeated: return hasThreads
        default: return true
        }
    }
}

struct LegalTraffic: TrafficWriter {
    private struct Controller {
        let className: String
        let address: UInt64
        var alive = true
        /// It got a memory warning: its view may have been released, so loading it again is legal.
        var warned = false
    }

    private enum Arrival { case root, push, present, sheet }

    private struct Level {
        var controller: Int
        var arrival: Arrival
    }

    var random: SeededGenerator
    let lineHeader: LineHeader
    let style: MessageStyle
    let noise: Double
    let habits: Set<LoggingHabit>
    let out = Writer()
    /// `line rule` for each planted deviation.
    private(set) var planted: [(line: Int, rule: Rule)] = []
    private var toPlant: [Rule]

    var pid = 2000
    var micros: Int64 = 1_707_466_443_000_000
    private var controllers: [Controller] = []
    private var tabs: [[Level]] = []
    private var activeTab = 0
    private var usesScenes = false
    /// The session's tab bar controller, when it has tabs.
    private var tabBar: Int?
    /// With `loadViewSometimes`: whether each class logs loadView, decided the first time one of it loads.
    private var classLogsLoadView: [String: Bool] = [:]

    static let screens = ["FeedViewController", "DetailViewController", "ListViewController", "ProfileViewController",
                          "SettingsViewController", "CartViewController"]
    static let tabRoots = ["FeedViewController", "ListViewController", "ListViewController", "ProfileViewController"]
    static let sheets = ["FilterViewController", "ShareViewController", "FeedViewController"]

    init(random: SeededGenerator, header: LineHeader, style: MessageStyle, noise: Double, plant: Bool,
         habits: Set<LoggingHabit> = []) {
        self.random = random
        self.lineHeader = header
        self.style = style
        self.noise = noise
        self.habits = habits
        toPlant = plant ? PlantedRules.all.filter {
            PlantedRules.isPlantable($0, style: style, hasThreads: header.hasThreads, habits: habits)
        } : []
    }

    /// Writes sessions until `bytes` are written and every rule is planted (or, should one find no place, for a
    /// thousand sessions more).
    mutating func run(until bytes: Int) {
        var extra = 0
        while out.written < bytes || (!toPlant.isEmpty && extra < 1000) {
            if out.written >= bytes { extra += 1 }
            session()
        }
        out.flush()
    }

    // MARK: Writing

    private mutating func line(_ message: String, thread: Int? = nil) {
        lastMessageLine = write(message, thread: thread)
    }

    /// A controller's callback, by its Objective-C selector.
    private mutating func call(_ controller: Int, _ selector: String, thread: Int? = nil) {
        line(style.message(controllers[controller].className, address: controllers[controller].address, selector), thread: thread)
    }

    private mutating func app(_ selector: String) {
        line(style.message(usesScenes && selector.hasPrefix("scene") ? "SceneDelegate" : "AppDelegate", address: 0x6000_00c0_4000, selector))
    }

    /// Writes the callback and records it as the planted deviation of `rule`.
    private mutating func plant(_ rule: Rule, _ write: (inout LegalTraffic) -> Void) {
        write(&self)
        planted.append((lastMessageLine, rule))
        toPlant.removeAll { $0 == rule }
    }

    /// The line of the last message written (noise may follow it).
    private var lastMessageLine = 0

    private mutating func make(_ className: String) -> Int {
        controllers.append(Controller(className: className, address: 0x6000_03a1_c000 + UInt64(controllers.count) * 0x400))
        return controllers.count - 1
    }

    private mutating func dealloc(_ controller: Int) {
        if !habits.contains(.noDealloc) { call(controller, "dealloc") }
        controllers[controller].alive = false
    }

    private func liveCount(of className: String) -> Int {
        controllers.reduce(0) { $0 + ($1.alive && $1.className == className ? 1 : 0) }
    }

    /// The instances of the class the log cannot show dead: the live ones, and without dealloc logging every one the
    /// session made.
    private func undeadCount(of className: String) -> Int {
        guard habits.contains(.noDealloc) else { return liveCount(of: className) }
        return controllers.reduce(0) { $0 + ($1.className == className ? 1 : 0) }
    }

    // MARK: Screens

    private var stack: [Level] {
        get { tabs[activeTab] }
        set { tabs[activeTab] = newValue }
    }
    private var top: Level { stack[stack.count - 1] }

    /// The levels from the top down to the root of its navigation controller (a tab's root or a presented one).
    private var navigationSegment: ArraySlice<Level> {
        let root = stack.lastIndex { $0.arrival != .push } ?? 0
        return stack[root...]
    }

    private mutating func load(_ controller: Int) {
        if habits.contains(.noLoad) { return }
        if habits.contains(.loadViewSometimes) {
            if logsLoadView(controllers[controller].className) { call(controller, "loadView") }
        } else if chance(0.2) {
            call(controller, "loadView")
        }
        call(controller, "viewDidLoad")
    }

    /// viewDidLoad alone, for a controller whose class never logs loadView (the tab bar controller, a child).
    private mutating func didLoad(_ controller: Int) {
        if !habits.contains(.noLoad) { call(controller, "viewDidLoad") }
    }

    /// With `loadViewSometimes`, whether the class logs loadView: decided once, the first time it is asked.
    private mutating func logsLoadView(_ className: String) -> Bool {
        if let decided = classLogsLoadView[className] { return decided }
        let logs = chance(0.5)
        classLogsLoadView[className] = logs
        return logs
    }

    private mutating func layout(_ controller: Int) {
        call(controller, "viewWillLayoutSubviews")
        call(controller, "viewDidLayoutSubviews")
    }

    private mutating func push() {
        let from = top.controller
        let repeatsClass = chance(habits.contains(.sameClassTabs) ? 0.6 : 0.3)
        let next = make(repeatsClass ? controllers[from].className : pick(LegalTraffic.screens))
        let loadsEarly = chance(0.2)
        if loadsEarly { load(next) }
        call(from, "viewWillDisappear:")
        if !loadsEarly { load(next) }
        call(next, "viewWillAppear:")
        if chance(0.5) { layout(next) }
        call(from, "viewDidDisappear:")
        call(next, "viewDidAppear:")
        stack.append(Level(controller: next, arrival: .push))
    }

    private mutating func pop(cancelled: Bool) {
        let leaving = top.controller
        let below = stack[stack.count - 2].controller
        call(leaving, "viewWillDisappear:")
        call(below, "viewWillAppear:")
        if cancelled {
            call(below, "viewWillDisappear:")
            call(below, "viewDidDisappear:")
            call(leaving, "viewWillAppear:")
            call(leaving, "viewDidAppear:")
            return
        }
        call(leaving, "viewDidDisappear:")
        call(below, "viewDidAppear:")
        stack.removeLast()
        dealloc(leaving)
    }

    private mutating func popToRoot() {
        let segment = navigationSegment
        let rootIndex = segment.startIndex
        let leaving = top.controller
        let root = stack[rootIndex].controller
        call(leaving, "viewWillDisappear:")
        call(root, "viewWillAppear:")
        call(leaving, "viewDidDisappear:")
        call(root, "viewDidAppear:")
        let removed = stack[(rootIndex + 1)...].map(\.controller).reversed()
        stack.removeSubrange((rootIndex + 1)...)
        for controller in removed { dealloc(controller) }
    }

    private mutating func present(asSheet: Bool) {
        let from = top.controller
        let next: Int
        if asSheet, habits.contains(.manySheets) {
            next = make(LegalTraffic.sheets[0])
        } else {
            let sameClass = chance(0.25)
            next = make(sameClass ? controllers[from].className : pick(asSheet ? LegalTraffic.sheets : LegalTraffic.screens))
        }
        load(next)
        if asSheet {
            call(next, "viewWillAppear:")
            call(next, "viewDidAppear:")
        } else {
            call(from, "viewWillDisappear:")
            call(next, "viewWillAppear:")
            call(next, "viewDidAppear:")
            call(from, "viewDidDisappear:")
        }
        stack.append(Level(controller: next, arrival: asSheet ? .sheet : .present))
    }

    /// Dismisses the presented navigation controller the top is in (and every controller pushed in it).
    private mutating func dismiss(cancelled: Bool) {
        let leaving = top.controller
        if top.arrival == .sheet {
            call(leaving, "viewWillDisappear:")
            if cancelled {
                call(leaving, "viewWillAppear:")
                call(leaving, "viewDidAppear:")
                return
            }
            call(leaving, "viewDidDisappear:")
            stack.removeLast()
            dealloc(leaving)
            return
        }
        let presentedRoot = navigationSegment.startIndex
        let presenter = stack[presentedRoot - 1].controller
        call(leaving, "viewWillDisappear:")
        call(presenter, "viewWillAppear:")
        call(presenter, "viewDidAppear:")
        call(leaving, "viewDidDisappear:")
        let removed = stack[presentedRoot...].map(\.controller).reversed()
        stack.removeSubrange(presentedRoot...)
        for controller in removed { dealloc(controller) }
    }

    private mutating func switchTab() {
        let target = (activeTab + Int.random(in: 1..<tabs.count, using: &random)) % tabs.count
        let leaving = top.controller
        if tabs[target].isEmpty {
            let root = make(tabRoot(target))
            tabs[target] = [Level(controller: root, arrival: .root)]
            load(root)
        }
        let arriving = tabs[target][tabs[target].count - 1].controller
        call(arriving, "viewWillAppear:")
        call(leaving, "viewWillDisappear:")
        call(leaving, "viewDidDisappear:")
        call(arriving, "viewDidAppear:")
        activeTab = target
    }

    private mutating func backgroundAndBack() {
        if usesScenes {
            app("sceneWillResignActive:")
            app("sceneDidEnterBackground:")
            tick(1_000_000, 30_000_000)
            app("sceneWillEnterForeground:")
            app("sceneDidBecomeActive:")
        } else {
            app("applicationWillResignActive:")
            app("applicationDidEnterBackground:")
            tick(1_000_000, 30_000_000)
            app("applicationWillEnterForeground:")
            app("applicationDidBecomeActive:")
        }
    }

    /// The class of a tab's root.
    private func tabRoot(_ tab: Int) -> String {
        habits.contains(.sameClassTabs) ? "ListViewController" : LegalTraffic.tabRoots[tab % LegalTraffic.tabRoots.count]
    }

    private mutating func memoryWarning() {
        line("Received memory warning.")
        app("applicationDidReceiveMemoryWarning:")
        if habits.contains(.memoryWarningsEverywhere) {
            // Every controller alive in the hierarchy, the tab bar controller too, in the order they were made.
            let reached = (tabs.flatMap { $0.map(\.controller) } + (tabBar.map { [$0] } ?? [])).sorted()
            for controller in reached {
                call(controller, "didReceiveMemoryWarning")
                controllers[controller].warned = true
            }
            return
        }
        for tab in tabs {
            for level in tab.reversed() {
                call(level.controller, "didReceiveMemoryWarning")
                controllers[level.controller].warned = true
            }
        }
    }

    // MARK: Sessions

    private mutating func session() {
        pid += 1
        controllers = []
        tick(5_000_000, 60_000_000)
        usesScenes = chance(0.3)
        line("main()")
        if toPlant.first == .stateCallbackBeforeLaunch, !usesScenes {
            plant(.stateCallbackBeforeLaunch) { $0.app("applicationWillEnterForeground:") }
        }
        app("application:didFinishLaunchingWithOptions:")
        if usesScenes {
            // Planted: the scene enters the foreground before it connects (and does not enter it again after).
            let entersEarly = toPlant.first == .sceneNotConnected
            if entersEarly { plant(.sceneNotConnected) { $0.app("sceneWillEnterForeground:") } }
            app("scene:willConnectToSession:options:")
            if !entersEarly { app("sceneWillEnterForeground:") }
            app("sceneDidBecomeActive:")
        } else {
            app("applicationDidBecomeActive:")
        }
        let tabCount = chance(0.5) ? Int.random(in: 2...4, using: &random) : 1
        tabs = Array(repeating: [], count: tabCount)
        activeTab = 0
        tabBar = nil
        if tabCount > 1 {
            tabBar = make("MainTabBarController")
            didLoad(tabBar!)
        }
        let root = make(tabCount > 1 ? tabRoot(0) : pick(LegalTraffic.screens))
        tabs[0] = [Level(controller: root, arrival: .root)]
        load(root)
        call(root, "viewWillAppear:")
        layout(root)
        call(root, "viewDidAppear:")

        let steps = Int.random(in: 6...40, using: &random)
        for _ in 0..<steps {
            tick(300_000, 2_500_000)
            if let rule = toPlant.first, chance(0.3), plantIfPossible(rule) { continue }
            step()
        }
        if toPlant.first == .deallocWhileOnScreen, undeadCount(of: controllers[top.controller].className) == 1 {
            plant(.deallocWhileOnScreen) { $0.dealloc($0.top.controller) }
        }
        if usesScenes {
            app("sceneWillResignActive:")
            app("sceneDidEnterBackground:")
        } else {
            app("applicationWillResignActive:")
            app("applicationDidEnterBackground:")
            if chance(0.5) { app("applicationWillTerminate:") }
        }
    }

    /// One legal step, chosen among those the screens allow.
    private mutating func step() {
        if habits.contains(.manySheets), chance(0.35), sheetStep() { return }
        let onSheet = top.arrival == .sheet
        let presented = stack.contains { $0.arrival == .present || $0.arrival == .sheet }
        let roll = Int.random(in: 0..<100, using: &random)
        switch roll {
        case 0..<22 where !onSheet && stack.count < 8: push()
        case 22..<38 where top.arrival == .push: pop(cancelled: false)
        case 38..<42 where top.arrival == .push: pop(cancelled: true)
        case 42..<46 where !onSheet && navigationSegment.count >= 3: popToRoot()
        case 46..<53 where !onSheet && stack.count < 8: present(asSheet: false)
        case 53..<60 where !onSheet && stack.count < 8: present(asSheet: true)
        case 60..<72 where top.arrival == .sheet || navigationSegment.first?.arrival == .present: dismiss(cancelled: false)
        case 72..<75 where onSheet: dismiss(cancelled: true)
        case 75..<85 where tabs.count > 1 && !presented: switchTab()
        case 85..<91: backgroundAndBack()
        case 91..<95: memoryWarning()
        default: layout(top.controller)
        }
    }

    /// With `manySheets`: dismisses the sheet on top (one time in five cancelled), or presents one; false when
    /// neither can be done here.
    private mutating func sheetStep() -> Bool {
        if top.arrival == .sheet {
            dismiss(cancelled: chance(0.2))
            return true
        }
        guard stack.count < 8 else { return false }
        present(asSheet: true)
        return true
    }

    // MARK: Planting

    /// Writes one deviation of `rule` if the screens allow it here without disturbing anything else.
    private mutating func plantIfPossible(_ rule: Rule) -> Bool {
        let current = top.controller
        let name = controllers[current].className
        // The top's class has no other instance the log cannot show dead: a misplaced callback could not be taken as
        // another's.
        let alone = undeadCount(of: name) == 1 && top.arrival != .sheet
        let address = "<ShopApp.\(name): 0x\(String(controllers[current].address, radix: 16))>"
        switch rule {
        case .didAppearWithoutWillAppear where alone:
            call(current, "viewWillDisappear:")
            call(current, "viewDidDisappear:")
            plant(rule) { $0.call(current, "viewDidAppear:") }
        case .didDisappearWithoutWillDisappear where alone:
            plant(rule) { $0.call(current, "viewDidDisappear:") }
            call(current, "viewWillAppear:")
            call(current, "viewDidAppear:")
        case .didAppearTwice where alone:
            plant(rule) { $0.call(current, "viewDidAppear:") }
        case .unbalancedWillCallback where alone:
            plant(rule) { $0.call(current, "viewWillAppear:") }
            call(current, "viewDidAppear:")
        case .isAppearingOutsideAppearance where alone:
            plant(rule) { $0.call(current, "viewIsAppearing:") }
        case .appearanceBeforeViewDidLoad where top.arrival != .sheet && stack.count < 8:
            let nextClass = pick(LegalTraffic.screens)
            // A class that logs loadView would log it with the late viewDidLoad: left for another place.
            if habits.contains(.loadViewSometimes), logsLoadView(nextClass) { return false }
            let next = make(nextClass)
            call(current, "viewWillDisappear:")
            call(next, "viewWillAppear:")
            plant(rule) { $0.call(next, "viewDidLoad") }
            call(current, "viewDidDisappear:")
            call(next, "viewDidAppear:")
            stack.append(Level(controller: next, arrival: .push))
        case .viewLoadedTwice where alone && !controllers[current].warned:
            plant(rule) { $0.call(current, "viewDidLoad") }
        case .viewUnloadedWhileVisible where alone:
            plant(rule) { $0.call(current, "viewDidUnload") }
        case .viewReloadedWhileVisible where alone:
            call(current, "didReceiveMemoryWarning")
            plant(rule) { $0.call(current, "viewDidLoad") }
        case .callbackAfterDealloc:
            guard let gone = controllers.indices.last(where: { !controllers[$0].alive }),
                  undeadCount(of: controllers[gone].className) == 0 else { return false }
            plant(rule) { $0.call(gone, "viewWillLayoutSubviews") }
        case .didMoveWithoutWillMove:
            let child = make("BannerViewController")
            didLoad(child)
            plant(rule) { $0.call(child, "didMoveToParentViewController:") }
        case .unbalancedAppearanceTransition:
            plant(rule) { $0.line("Unbalanced calls to begin/end appearance transitions for \(address).") }
        case .appearanceMethodCalledDirectly:
            plant(rule) {
                $0.line("[ViewController] Calling -viewWillAppear: directly on a view controller is not supported, and may result in out-of-order callbacks and other inconsistent behavior. Use the -beginAppearanceTransition:animated: and -endAppearanceTransition APIs on UIViewController to manually drive appearance callbacks instead. Make a symbolic breakpoint at UIViewControllerAlertForAppearanceCallbackMisuse to catch this in the debugger. View controller: \(address)")
            }
        case .presentNotInWindowHierarchy:
            plant(rule) {
                $0.line("[Presentation] Attempt to present <ShopApp.PromoViewController: 0x600003b2d000> on \(address) (from \(address)) whose view is not in the window hierarchy.")
            }
        case .callbackOffMainThread:
            plant(rule) { $0.call(current, "viewWillLayoutSubviews", thread: 1_982_377) }
            call(current, "viewDidLayoutSubviews")
        case .possibleLeak where top.arrival != .sheet && stack.count < 8:
            // A controller of a class of its own is pushed and popped, and never deallocates: no later callback of
            // another controller can be taken as its.
            let leaking = make("LeakyViewController")
            call(current, "viewWillDisappear:")
            load(leaking)
            call(leaking, "viewWillAppear:")
            call(current, "viewDidDisappear:")
            call(leaking, "viewDidAppear:")
            tick(300_000, 2_500_000)
            call(leaking, "viewWillDisappear:")
            call(current, "viewWillAppear:")
            call(leaking, "viewDidDisappear:")
            plant(rule) { $0.call(current, "viewDidAppear:") }
            // Past the leak timeout before anything else happens: a session that ends first leaves it undecided.
            tick(4_000_000, 6_000_000)
            layout(current)
        case .launchRepeated where !usesScenes:
            plant(rule) { $0.app("application:didFinishLaunchingWithOptions:") }
        case .backgroundWithoutResignActive where !usesScenes:
            plant(rule) { $0.app("applicationDidEnterBackground:") }
            app("applicationWillEnterForeground:")
            app("applicationDidBecomeActive:")
        case .activeFromBackgroundWithoutForeground where !usesScenes:
            app("applicationWillResignActive:")
            app("applicationDidEnterBackground:")
            plant(rule) { $0.app("applicationDidBecomeActive:") }
        case .unexpectedStateCallback where !usesScenes:
            plant(rule) { $0.app("applicationDidBecomeActive:") }
        case .appCallbacksWithScenes where usesScenes:
            plant(rule) { $0.line($0.style.message("AppDelegate", address: 0x6000_00c0_4000, "applicationDidBecomeActive:")) }
        default:
            return false
        }
        return true
    }
}
