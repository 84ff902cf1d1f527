/// The rule catalogue: for every rule, its default severity, a one-line summary, an explanation, a minimal log
/// that triggers it and what UIKit does instead. `lctrace rules` lists it and `lctrace explain RULE` prints an
/// entry; section numbers refer to lifecycle-ground-truth.md, where each claim is sourced.
public enum RuleCatalog {
    public struct Entry: Sendable {
        public let rule: Rule
        public let severity: Severity
        public let summary: String
        /// What the rule checks and when it stays silent.
        public let explanation: String
        /// A minimal log (bare `print` lines unless a header matters) that triggers the rule.
        public let example: String
        /// What UIKit does, and why a log that breaks the rule points at a bug.
        public let uikit: String
        public let reference: String
        /// For the rules that hold a run against a model of earlier runs (`--against`): the log of a good run that
        /// the example is held against.
        public var modelExample: String? = nil
    }

    /// A log of `count` sheets of `B`, each shown `loadToAppearMs` after its view loaded, one second apart.
    static func sheetsExample(count: Int, loadToAppearMs: Int) -> String {
        (0..<count).map { sheet in
            let head = "2016-03-17 16:02:\(10 + sheet * 2)"
            let digits = String(loadToAppearMs)
            let appeared = String(repeating: "0", count: max(0, 3 - digits.count)) + digits  // milliseconds, three digits
            return ["\(head).000 App[1:1] B >>>> viewDidLoad", "\(head).000 App[1:1] B >>>> viewWillAppear:",
                    "\(head).\(appeared) App[1:1] B >>>> viewDidAppear:", "\(head).900 App[1:1] B >>>> viewWillDisappear:",
                    "\(head).950 App[1:1] B >>>> viewDidDisappear:", "\(head).960 App[1:1] B >>>> dealloc"].joined(separator: "\n")
        }.joined(separator: "\n")
    }

    private static let pushExample = "A viewDidLoad()\nA viewWillAppear(_:)\nA viewDidAppear(_:)\nB viewDidLoad()\nA viewWillDisappear(_:)\nB viewWillAppear(_:)\nA viewDidDisappear(_:)\nB viewDidAppear(_:)"

    public static func entry(for rule: Rule) -> Entry { byRule[rule]! }

    private static let byRule: [Rule: Entry] = Dictionary(uniqueKeysWithValues: entries.map { ($0.rule, $0) })

    public static let entries: [Entry] = [
        Entry(
            rule: .didAppearWithoutWillAppear, severity: .error,
            summary: "viewDidAppear with no open viewWillAppear on the same instance",
            explanation: "Per instance, viewDidAppear must close an appearance that viewWillAppear opened. Fires when viewDidAppear comes while the controller is hidden or disappearing.",
            example: "A viewDidLoad()\nA viewWillAppear(_:)\nA viewDidAppear(_:)\nA viewWillDisappear(_:)\nA viewDidDisappear(_:)\nA viewDidAppear(_:)",
            uikit: "UIKit always sends viewWillAppear before viewDidAppear for one appearance. A lone viewDidAppear comes from a container forwarding appearance methods by hand and skipping one.",
            reference: "§4, §7"),
        Entry(
            rule: .didDisappearWithoutWillDisappear, severity: .error,
            summary: "viewDidDisappear with no open viewWillDisappear on the same instance",
            explanation: "Per instance, viewDidDisappear must close a disappearance that viewWillDisappear opened.",
            example: "A viewDidLoad()\nA viewWillAppear(_:)\nA viewDidAppear(_:)\nA viewDidDisappear(_:)",
            uikit: "UIKit always sends viewWillDisappear first; a lone viewDidDisappear is a manual forwarding bug or a call to the method from app code.",
            reference: "§4"),
        Entry(
            rule: .didAppearTwice, severity: .warning,
            summary: "viewDidAppear twice in a row with no disappearance in between",
            explanation: "Fires on a second viewDidAppear while the instance is already visible.",
            example: "A viewWillAppear(_:)\nA viewDidAppear(_:)\nA viewDidAppear(_:)",
            uikit: "A known UIKit bug (a child added in applicationDidBecomeActive) can do this, and two instances sharing a class name look the same, so it is a warning.",
            reference: "§4 (rdar 14058168)"),
        Entry(
            rule: .unbalancedWillCallback, severity: .warning,
            summary: "viewWillAppear on a controller already appearing or visible, or viewWillDisappear on one already disappearing or hidden",
            explanation: "A will-callback that repeats the change already under way. Cancelled transitions (will-appear then will-disappear) are legal and do not fire it.",
            example: "A viewDidLoad()\nA viewWillAppear(_:)\nA viewWillAppear(_:)",
            uikit: "UIKit prints \"Unbalanced calls to begin/end appearance transitions\" in this situation: usually a push or present started while another transition was in flight.",
            reference: "§4"),
        Entry(
            rule: .isAppearingOutsideAppearance, severity: .error,
            summary: "viewIsAppearing outside a viewWillAppear … viewDidAppear window",
            explanation: "viewIsAppearing (iOS 13+ with the iOS 17 SDK) is only legal between viewWillAppear and viewDidAppear of one appearance.",
            example: "A viewWillAppear(_:)\nA viewDidAppear(_:)\nA viewIsAppearing(_:)",
            uikit: "UIKit calls viewIsAppearing once the view is in the hierarchy and laid out, always before viewDidAppear.",
            reference: "§4"),
        Entry(
            rule: .appearanceBeforeViewDidLoad, severity: .error,
            summary: "appearance or layout callbacks before the view was loaded (viewDidLoad)",
            explanation: "Fires when viewDidLoad shows up after appearance or layout callbacks of the same view life, or when a controller whose view was unloaded (viewDidUnload) appears without loading it again. A log that starts after viewDidLoad is not flagged. A late viewDidLoad needs the instance's address: logged by class name alone, it is a second instance of the class being created, which is legal.",
            example: "<App.A: 0x1> viewWillAppear(_:)\n<App.A: 0x1> viewDidLoad()\n<App.A: 0x1> viewDidAppear(_:)",
            uikit: "A view must exist before it can appear or be laid out: UIKit loads it (loadView, viewDidLoad) the first time `view` is touched.",
            reference: "§4, §8"),
        Entry(
            rule: .viewLoadedTwice, severity: .error,
            summary: "viewDidLoad again on one instance with no memory warning or unload in between",
            explanation: "Needs instance addresses. Logged by class name alone, a second viewDidLoad is a second instance of the class (Class#2), which is legal and common.",
            example: "<App.A: 0x1> viewDidLoad()\n<App.A: 0x1> viewWillAppear(_:)\n<App.A: 0x1> viewDidAppear(_:)\n<App.A: 0x1> viewDidLoad()",
            uikit: "Since iOS 6 UIKit keeps a controller's view for its whole life; it is loaded again only after viewDidUnload (iOS 5 and earlier) or after the app sets `self.view = nil`, typically in didReceiveMemoryWarning.",
            reference: "§8, §11.1"),
        Entry(
            rule: .viewUnloadedWhileVisible, severity: .error,
            summary: "viewWillUnload or viewDidUnload on a controller that is on screen",
            explanation: "Fires when viewWillUnload/viewDidUnload arrives while the instance is appearing, visible or disappearing.",
            example: "A viewWillAppear:\nA viewDidAppear:\nA didReceiveMemoryWarning\nA viewDidUnload",
            uikit: "On iOS 5 and earlier UIKit unloads only the views of controllers that are not in a window; a visible view is never released.",
            reference: "§8"),
        Entry(
            rule: .viewReloadedWhileVisible, severity: .warning,
            summary: "the view of a visible controller was loaded again after a memory warning",
            explanation: "Reloading a purged view (the seed's `self.view = nil` in didReceiveMemoryWarning) is legal for a hidden controller; for one on screen the user sees the screen blank and rebuild. Needs instance addresses: logged by class name alone, the viewDidLoad is a new instance of the class.",
            example: "<App.A: 0x1> viewWillAppear(_:)\n<App.A: 0x1> viewDidAppear(_:)\n<App.A: 0x1> didReceiveMemoryWarning()\n<App.A: 0x1> viewDidLoad()",
            uikit: "UIKit reloads a nil view the next time it is needed; if the controller is visible that is at once, which resets everything the user was looking at.",
            reference: "§8"),
        Entry(
            rule: .callbackAfterDealloc, severity: .error,
            summary: "a lifecycle callback on an instance after its dealloc/deinit",
            explanation: "With addresses, any callback after the instance's dealloc. Logged by class name alone, a callback when every instance of the class has deallocated, which does not start a new one (the class logs its view loading, so a new instance would have).",
            example: "<App.A: 0x1> viewDidLoad()\n<App.A: 0x1> deinit\n<App.A: 0x1> viewWillAppear(_:)",
            uikit: "A deallocated object receives nothing; a callback after dealloc means a dangling pointer or a log that mixes up instances.",
            reference: "§9"),
        Entry(
            rule: .deallocWhileOnScreen, severity: .warning,
            summary: "dealloc/deinit of a controller that is appearing, visible or disappearing",
            explanation: "Fires when an instance is deallocated before its viewDidDisappear.",
            example: "<App.A: 0x1> viewWillAppear(_:)\n<App.A: 0x1> viewDidAppear(_:)\n<App.A: 0x1> deinit",
            uikit: "UIKit releases a popped or dismissed controller after its viewDidDisappear; deallocating one on screen means something else owned it and dropped it too early.",
            reference: "§9"),
        Entry(
            rule: .didMoveWithoutWillMove, severity: .warning,
            summary: "didMove(toParent:) with no willMove(toParent:) before it",
            explanation: "Containment is bracketed: willMove then didMove. Fires on a didMove for an instance with no pending willMove in the session.",
            example: "Child viewDidLoad()\nChild didMove(toParent:)",
            uikit: "addChild calls willMove(toParent:) automatically and the container calls didMove; removing, the container calls willMove(toParent: nil) and removeFromParent calls didMove. A lone didMove means addChild was skipped or willMove(nil) was forgotten.",
            reference: "§7"),
        Entry(
            rule: .unbalancedAppearanceTransition, severity: .warning,
            summary: "UIKit reported unbalanced begin/end appearance transitions, or endAppearanceTransition came with no begin",
            explanation: "UIKit's own console line \"Unbalanced calls to begin/end appearance transitions for <X>\" is an event attached to X; a logged endAppearanceTransition with no beginAppearanceTransition open fires the same rule.",
            example: "Unbalanced calls to begin/end appearance transitions for <App.DetailViewController: 0x7f9>.",
            uikit: "Containers that forward appearance by hand must pair beginAppearanceTransition with endAppearanceTransition; UIKit logs this line when a push or present starts during another transition.",
            reference: "§7, §11.6"),
        Entry(
            rule: .appearanceMethodCalledDirectly, severity: .warning,
            summary: "UIKit reported an appearance method (viewWillAppear: and the like) called directly on a controller",
            explanation: "Fires on UIKit's console notice \"Calling -viewWillDisappear: directly on a view controller is not supported\", on the controller it names at its end (\"View controller: <…>\").",
            example: "2024-02-09 09:14:04.501 ShopApp[4410:1982201] [ViewController] Calling -viewWillAppear: directly on a view controller is not supported, and may result in out-of-order callbacks and other inconsistent behavior. Use the -beginAppearanceTransition:animated: and -endAppearanceTransition APIs on UIViewController to manually drive appearance callbacks instead. Make a symbolic breakpoint at UIViewControllerAlertForAppearanceCallbackMisuse to catch this in the debugger. View controller: <ShopApp.MiniPlayerViewController: 0x7fa1c8e0b600>",
            uikit: "UIKit sends the appearance methods itself; a custom container that calls them on a child skips UIKit's bookkeeping, and the child's callbacks can come twice or out of order. Containers drive them with beginAppearanceTransition(_:animated:) and endAppearanceTransition().",
            reference: "§7"),
        Entry(
            rule: .presentNotInWindowHierarchy, severity: .warning,
            summary: "UIKit refused a presentation from a controller whose view is not in the window hierarchy",
            explanation: "Fires on UIKit's console notice \"Attempt to present <B> on <A> whose view is not in the window hierarchy\" (with or without \"Warning:\" or \"[Presentation]\" before it), on the controller that was not presented (B).",
            example: "2024-02-09 09:14:03.119 ShopApp[4410:1982201] [Presentation] Attempt to present <ShopApp.PromoViewController: 0x7fa1c8f0d200> on <ShopApp.HomeViewController: 0x7fa1c8e0a200> (from <ShopApp.HomeViewController: 0x7fa1c8e0a200>) whose view is not in the window hierarchy.",
            uikit: "A controller can present only once its view is in a window (after viewDidAppear); presenting from viewDidLoad or viewWillAppear, or from a controller already dismissed, is ignored and the presented controller never appears.",
            reference: "§6"),
        Entry(
            rule: .presentWhilePresenting, severity: .warning,
            summary: "UIKit refused a presentation from a controller that was already presenting another",
            explanation: "Fires on UIKit's console notice \"Attempt to present <B> on <A> which is already presenting <C>\" (with or without \"Warning:\" or \"[Presentation]\" before it), on the controller that was not presented (B); the message names the presenter (A) and what it was presenting (C).",
            example: "2024-02-09 09:14:07.311 ShopApp[4410:1982201] [Presentation] Attempt to present <ShopApp.RatingViewController: 0x7fa1c8f0e400> on <ShopApp.HomeViewController: 0x7fa1c8e0a200> (from <ShopApp.HomeViewController: 0x7fa1c8e0a200>) which is already presenting <ShopApp.PromoViewController: 0x7fa1c8f0d200>.",
            uikit: "A controller presents one controller at a time. While it presents C, a second present from it is ignored and B never appears; present from the controller on top (C), or after C is dismissed, in dismiss's completion.",
            reference: "§6"),
        Entry(
            rule: .presentWhileTransitioning, severity: .warning,
            summary: "UIKit refused a presentation because another presentation was still in progress",
            explanation: "Fires on UIKit's console notice \"Attempt to present <B> on <A> while a presentation is in progress\", on the controller that was not presented (B).",
            example: "2024-02-09 09:14:07.312 ShopApp[4410:1982201] Warning: Attempt to present <ShopApp.RatingViewController: 0x7fa1c8f0e400> on <ShopApp.HomeViewController: 0x7fa1c8e0a200> while a presentation is in progress!",
            uikit: "A presentation runs its animation before the next may start. Presenting again before it ends (two presents in one run of the main loop, or one from viewWillAppear of the controller being presented) is ignored; start the second in the first one's completion.",
            reference: "§6"),
        Entry(
            rule: .dismissWhileTransitioning, severity: .warning,
            summary: "UIKit refused a dismissal because a presentation or dismissal was still in progress",
            explanation: "Fires on UIKit's console notice \"Attempt to dismiss from view controller <A> while a presentation or dismiss is in progress\", on the controller the dismissal was asked of (A).",
            example: "2024-02-09 09:14:07.313 ShopApp[4410:1982201] Warning: Attempt to dismiss from view controller <ShopApp.HomeViewController: 0x7fa1c8e0a200> while a presentation or dismiss is in progress!",
            uikit: "A dismissal asked for while a presentation or another dismissal animates is dropped, and the presented controller stays on screen; dismiss in the presentation's completion, or once viewDidAppear came.",
            reference: "§6"),
        Entry(
            rule: .presentOnDetachedController, severity: .warning,
            summary: "a controller presented another while detached from the window and from any parent",
            explanation: "Fires on UIKit's console notice \"Presenting view controllers on detached view controllers is discouraged <A>\", on the presenting controller (A).",
            example: "2024-02-09 09:14:07.314 ShopApp[4410:1982201] [Presentation] Presenting view controllers on detached view controllers is discouraged <ShopApp.CardViewController: 0x7fa1c8f0f600>.",
            uikit: "A controller whose view was added by hand, without addChild(_:) on its container, is not in the controller hierarchy: what it presents may show in the wrong place, get wrong traits or rotation, and miss its appearance callbacks. Add it with addChild(_:) and didMove(toParent:), or present from its parent.",
            reference: "§6, §7"),
        Entry(
            rule: .presentAlreadyPresented, severity: .error,
            summary: "a controller was presented while it was already presented: UIKit raises an exception",
            explanation: "Fires on UIKit's exception reason \"Application tried to present modally a view controller <B> that is already being presented by <A>\", alone or in the \"*** Terminating app due to uncaught exception\" line, on the controller presented twice (B).",
            example: "2024-02-09 09:14:07.315 ShopApp[4410:1982201] *** Terminating app due to uncaught exception 'NSInvalidArgumentException', reason: 'Application tried to present modally a view controller <ShopApp.PromoViewController: 0x7fa1c8f0d200> that is already being presented by <ShopApp.HomeViewController: 0x7fa1c8e0a200>.'",
            uikit: "A controller can be presented by one presenter at a time. Presenting it again before it is dismissed (a double tap that presents twice, a cached controller presented from two places) raises NSInvalidArgumentException and ends the app.",
            reference: "§6"),
        Entry(
            rule: .callbackOffMainThread, severity: .error,
            summary: "a UIKit lifecycle callback logged from a thread other than the session's main thread",
            explanation: "The main thread is the thread of main() or didFinishLaunching, or else the one most UIKit callbacks in the session use. Needs a format with thread ids (NSLog, log show/stream). dealloc/deinit may run on any thread and is not checked.",
            example: "2024-02-09 09:14:03.100000+0100 App[10:100] AppDelegate application(_:didFinishLaunchingWithOptions:)\n2024-02-09 09:14:03.200000+0100 App[10:207] A viewDidLoad()",
            uikit: "UIKit is main-thread only: it never calls lifecycle methods elsewhere. A callback on another thread means app code called it, or touched `view` off the main thread.",
            reference: "§10"),
        Entry(
            rule: .possibleLeak, severity: .warning,
            summary: "a popped or dismissed controller was not deallocated in time",
            explanation: "After a completed pop, pop-to-root or dismiss, each controller removed must log dealloc/deinit within the leak timeout (3 s, `leak-timeout`). A warning when its class logs dealloc elsewhere in the input; info when it never does (the log cannot tell). Never after a cancelled pop, and disarmed when the controller appears again. Without timestamps the check waits for the end of the session. The controllers a pop-to-root or a dismiss takes off without a callback (the ones between the top and the target) are checked only at the end of the session, and only when their class logs dealloc elsewhere: info, unless addresses name them.",
            example: "2016-03-17 16:02:36.000 App[1:1] A >>>> viewDidLoad\n2016-03-17 16:02:36.010 App[1:1] A >>>> viewWillAppear:\n2016-03-17 16:02:36.040 App[1:1] A >>>> viewDidAppear:\n2016-03-17 16:02:37.000 App[1:1] A >>>> viewWillDisappear:\n2016-03-17 16:02:37.010 App[1:1] B >>>> viewDidLoad\n2016-03-17 16:02:37.020 App[1:1] B >>>> viewWillAppear:\n2016-03-17 16:02:37.500 App[1:1] A >>>> viewDidDisappear:\n2016-03-17 16:02:37.510 App[1:1] B >>>> viewDidAppear:\n2016-03-17 16:02:39.000 App[1:1] B >>>> viewWillDisappear:\n2016-03-17 16:02:39.010 App[1:1] A >>>> viewWillAppear:\n2016-03-17 16:02:39.500 App[1:1] B >>>> viewDidDisappear:\n2016-03-17 16:02:39.510 App[1:1] A >>>> viewDidAppear:\n2016-03-17 16:02:45.000 App[1:1] A >>>> didReceiveMemoryWarning",
            uikit: "A navigation or presentation controller releases the controllers it removes once their viewDidDisappear has run; if nothing else retains them they deallocate at once. MLeaksFinder checks the same after 3 s.",
            reference: "§9"),
        Entry(
            rule: .willAppearTwice, severity: .warning,
            summary: "viewWillAppear twice on one controller, with no disappearance between and nothing else taking part",
            explanation: "For a class that logs no loading (no loadView or viewDidLoad lines), a second viewWillAppear while its only other instance is still appearing, and no other controller takes part, is that controller told twice: a second instance would have appeared in a transition of its own. Logged with addresses or with loading, the same callbacks are `unbalanced-will-callback` on the one instance instead. Two children of one class that a container shows together log the same: the rule is a warning, and logging the instance (`print(self, #function)`) tells them apart.",
            example: "ViewController viewWillAppear(_:)\nViewController viewWillAppear(_:)\nViewController viewDidAppear(_:)\nViewController viewDidAppear(_:)",
            uikit: "UIKit sends one viewWillAppear and one viewDidAppear per appearance. A pair logged twice comes from the app calling `viewWillAppear` itself (a refresh written as `self.viewWillAppear(true)`), or from a subclass or container calling `super` twice; whatever the method does then runs twice.",
            reference: "§4, §11.2"),
        Entry(
            rule: .callbackWithoutLiveInstance, severity: .warning,
            summary: "a callback for a class whose last known instance was deallocated, where the class logs its creation",
            explanation: "Logged by class name: every instance of the class in this launch logged dealloc/deinit, the class logged its creation (init, loadView or viewDidLoad) in an earlier launch of the input but not in this one, and a callback that no new life begins with comes. When the class logs its creation in the same launch, or addresses name the instance, the same callback is `callback-after-dealloc` (an error); with the evidence from another launch only, an instance made without its creation logged cannot be ruled out, so it is a warning.",
            example: "2016-03-17 16:00:01.000 App[1:1] ViewController loadView()\n2016-03-17 16:00:01.010 App[1:1] ViewController viewDidLoad()\n2016-03-17 16:02:01.000 App[2:1] ViewController viewWillAppear(_:)\n2016-03-17 16:02:01.300 App[2:1] ViewController viewDidAppear(_:)\n2016-03-17 16:02:05.000 App[2:1] ViewController viewWillDisappear(_:)\n2016-03-17 16:02:05.300 App[2:1] ViewController viewDidDisappear(_:)\n2016-03-17 16:02:05.310 App[2:1] ViewController deinit\n2016-03-17 16:04:12.000 App[2:1] ViewController didReceiveMemoryWarning()",
            uikit: "A deallocated controller gets no callback, and a new one logs its creation before anything else when its class does. A callback after the last dealloc comes from a zombie (an unretained delegate or observer calling into freed memory), or from an instance made in a way the logging misses.",
            reference: "§9, §11.2"),
        Entry(
            rule: .loadLoop, severity: .warning,
            summary: "a view loading over and over: the same loadView/viewDidLoad cycle three times or more, with nothing between",
            explanation: "Fires when one class logs the same cycle of load callbacks, beginning with loadView, three times in a row with no other lifecycle line between (once per loop). A run of viewDidLoad alone is not one: several new instances loading one after another log that.",
            example: "ViewController loadView()\nViewController viewDidLoad()\nViewController loadView()\nViewController viewDidLoad()\nViewController loadView()\nViewController viewDidLoad()",
            uikit: "UIKit calls loadView when `view` is read while nil. A loadView override that does not set `self.view` (or calls `super` after reading `view`) leaves it nil, so the next access loads again: the app hangs or spins loading the same screen.",
            reference: "§3.2"),
        Entry(
            rule: .logGap, severity: .info,
            summary: "a controller already gone from the screen disappears again in a log without times: a gap in the log",
            explanation: "In a log without timestamps (excerpts pasted together, bare `print` output), a viewWillDisappear on a controller that already completed its disappearance is read as lines missing between the excerpts, not as UIKit misbehaving: with no time, nothing shows how much of the log is gone. With timestamps the same callback is `unbalanced-will-callback`.",
            example: "ViewController viewDidLoad()\nViewController viewWillAppear(_:)\nViewController viewDidAppear(_:)\nSheetViewController viewWillAppear(_:)\nSheetViewController viewDidAppear(_:)\nSheetViewController viewWillDisappear(_:)\nSheetViewController viewDidDisappear(_:)\nSheetViewController viewWillDisappear(_:)\nSheetViewController viewDidDisappear(_:)",
            uikit: "UIKit sends one viewWillDisappear per disappearance, to a controller on screen. A complete disappearance of one already gone means the lines that showed it again were not in the log.",
            reference: "§4"),
        Entry(
            rule: .viewAppearedTwice, severity: .warning,
            summary: "a SwiftUI view's onAppear twice with no onDisappear in between",
            explanation: "Per SwiftUI view instance (a type name logged before onAppear/onDisappear, or a UUID naming the instance), fires on a second onAppear while the view is already visible. onAppear again after an onDisappear is legal (a view scrolled back into a List, a tab selected again), and so is task while the view is visible. onDisappear without an onAppear is not a finding: a log may start while the view is on screen.",
            example: "DetailView onAppear\nDetailView task\nDetailView onAppear",
            uikit: "SwiftUI calls onAppear once each time the view appears and onDisappear once when it goes away, so two onAppear in a row on one view mean two views logging under one name (two rows of a List, the same type on two tabs) or a view recreated without its onDisappear being logged. Identity is by the logged name, so it is a warning: log an id (`print(id, \"onAppear\")`) to tell instances apart.",
            reference: "§10"),
        Entry(
            rule: .viewAppearedWhileCovered, severity: .warning,
            summary: "a SwiftUI view's onAppear while the hosting controller that shows it is covered",
            explanation: "Judged where the log names both a SwiftUI view and the controller that hosts it: `UIHostingController<DetailView>` (`print(self, #function)` in a subclass, or `NSStringFromClass`) hosts the view `DetailView`. Once that controller's viewDidDisappear is logged, its screen is covered (something was pushed or presented over it, or it was popped) until it appears again; an onAppear of `DetailView` in that time fires. A new instance of the controller (init, loadView, viewDidLoad) or its dealloc ends the covering. Navigation logged only by SwiftUI views is not judged: two views visible at once is normal (a split view, a tab's view and a sheet).",
            example: "<SwiftUI.UIHostingController<DetailView>: 0x7fa1> viewWillAppear(_:)\nDetailView onAppear\n<SwiftUI.UIHostingController<DetailView>: 0x7fa1> viewDidAppear(_:)\n<SwiftUI.UIHostingController<DetailView>: 0x7fa1> viewWillDisappear(_:)\n<ShopApp.CartViewController: 0x7fb2> viewWillAppear(_:)\nDetailView onDisappear\n<SwiftUI.UIHostingController<DetailView>: 0x7fa1> viewDidDisappear(_:)\n<ShopApp.CartViewController: 0x7fb2> viewDidAppear(_:)\nDetailView onAppear",
            uikit: "A hosting controller's view leaves the window when another screen covers it, and SwiftUI calls onAppear of its content when that view is back in a window. An onAppear while the screen is covered means the view's state was rebuilt off screen (an identity change: an `if` or an `id(_:)` swapping the view, or an observable object recreated), or SwiftUI reattached it early; work started there (a fetch, a timer, analytics of a screen view) runs for a screen nobody sees.",
            reference: "§10"),
        Entry(
            rule: .stateCallbackBeforeLaunch, severity: .error,
            summary: "an app or scene state callback before didFinishLaunching in a process whose start is logged",
            explanation: "Checked only in sessions whose start is in the log (main() was logged, or a new process id began); a log that starts late is not flagged. configurationForConnecting and didDiscardSceneSessions are not state callbacks.",
            example: "main()\nAppDelegate applicationDidBecomeActive(_:)\nAppDelegate application(_:didFinishLaunchingWithOptions:)",
            uikit: "UIApplicationMain creates the delegate, sends willFinishLaunching and didFinishLaunching, and only then activates the app or connects scenes.",
            reference: "§1, §2"),
        Entry(
            rule: .launchRepeated, severity: .error,
            summary: "willFinishLaunching or didFinishLaunching again in one process, after didFinishLaunching",
            explanation: "One process launches once: a second launch callback under the same process id (or, in logs without one, a willFinishLaunching after didFinishLaunching with no new didFinishLaunching starting the next launch) is flagged. In logs without process ids a second willFinishLaunching or didFinishLaunching starts a new session instead.",
            example: "2016-03-17 16:02:37.100 App[1:1] AppDelegate >>>> application:didFinishLaunchingWithOptions:\n2016-03-17 16:02:37.200 App[1:1] AppDelegate >>>> applicationDidBecomeActive:\n2016-03-17 16:02:39.000 App[1:1] AppDelegate >>>> application:didFinishLaunchingWithOptions:",
            uikit: "UIApplicationMain calls willFinishLaunching and didFinishLaunching once per process; a second call means app code called the delegate method itself, or two processes were mixed under one id.",
            reference: "§1"),
        Entry(
            rule: .backgroundWithoutResignActive, severity: .error,
            summary: "didEnterBackground while active, without willResignActive first (app or scene)",
            explanation: "The app-delegate and each scene have an activation state machine; going from active straight to the background skips a state. For scenes logged without an address (no scene identity) this is a warning.",
            example: "AppDelegate applicationDidBecomeActive(_:)\nAppDelegate applicationDidEnterBackground(_:)",
            uikit: "Leaving the foreground always passes through inactive: UIKit sends willResignActive before didEnterBackground.",
            reference: "§3"),
        Entry(
            rule: .activeFromBackgroundWithoutForeground, severity: .error,
            summary: "didBecomeActive from the background, without willEnterForeground first (app or scene)",
            explanation: "The mirror of background-without-resign-active. For scenes without identity it is a warning.",
            example: "AppDelegate applicationDidEnterBackground(_:)\nAppDelegate applicationDidBecomeActive(_:)",
            uikit: "Returning from the background always passes through inactive: UIKit sends willEnterForeground before didBecomeActive.",
            reference: "§3"),
        Entry(
            rule: .unexpectedStateCallback, severity: .warning,
            summary: "a state callback UIKit rarely sends in the current state (foreground twice, resign while not active, …)",
            explanation: "The possible-but-suspicious edges of the app and scene state machines: willEnterForeground while already in the foreground, willResignActive while not active, didBecomeActive twice, willTerminate with no didEnterBackground, a willEnterForeground not followed by didBecomeActive. A swipe-kill (resign, then disconnect with no background) is legal.",
            example: "AppDelegate applicationDidBecomeActive(_:)\nAppDelegate applicationDidBecomeActive(_:)",
            uikit: "Each of these has been seen in the field (quick minimise-then-kill races, apps opting out of background execution), so they are warnings, not errors.",
            reference: "§3"),
        Entry(
            rule: .sceneNotConnected, severity: .warning,
            summary: "a scene enters the foreground or becomes active with no willConnectTo in this process",
            explanation: "Checked only in sessions whose start is in the log: fires when a scene's willConnectTo comes after its state callbacks, or when a scene that never connects changes state while another scene did connect (so the app does log connections).",
            example: "main()\nAppDelegate application(_:didFinishLaunchingWithOptions:)\nSceneDelegate sceneWillEnterForeground(_:)\nSceneDelegate scene(_:willConnectTo:options:)",
            uikit: "A scene is connected (scene(_:willConnectTo:options:)) before any of its state callbacks.",
            reference: "§2"),
        Entry(
            rule: .appCallbacksWithScenes, severity: .warning,
            summary: "app-delegate activation callbacks in a session that also has scene callbacks",
            explanation: "Reported once per session, at the first app-delegate activation callback after a scene callback (or the first scene callback after one).",
            example: "SceneDelegate sceneDidBecomeActive(_:)\nAppDelegate applicationDidBecomeActive(_:)",
            uikit: "With scenes adopted UIKit does not call applicationDidBecomeActive and its siblings; seeing both means the app forwards them by hand or the scene manifest is misconfigured.",
            reference: "§2"),
        Entry(
            rule: .transitionOrder, severity: .warning,
            summary: "a transition declared by a logged push/pop/present/dismiss call runs in another order than UIKit's",
            explanation: "When the app logs its navigation call, the transition that follows is held to that kind's templates (a logged pop may also be a cancelled swipe-back, a logged present a sheet).",
            example: "A pushViewController(_:animated:)\nA viewWillDisappear(_:)\nB viewWillAppear(_:)\nB viewDidAppear(_:)\nA viewDidDisappear(_:)",
            uikit: "A push ends with the old controller's viewDidDisappear before the new one's viewDidAppear; a full-screen present the other way round.",
            reference: "§4, §6, §11.3"),
        Entry(
            rule: .transitionUnrecognized, severity: .warning,
            summary: "two controllers exchange the screen in an order that fits no UIKit transition",
            explanation: "Without a logged navigation call, only sequences that fit no template (push, pop, present, dismiss, tab switch, page scroll/curl and their cancelled forms) are flagged.",
            example: "A viewDidLoad()\nA viewWillAppear(_:)\nA viewDidAppear(_:)\nB viewDidLoad()\nB viewWillAppear(_:)\nA viewWillDisappear(_:)\nB viewWillDisappear(_:)\nB viewDidDisappear(_:)\nA viewDidDisappear(_:)",
            uikit: "Within one controller will precedes did; across two, UIKit's containers use a handful of fixed orders.",
            reference: "§4–§7, §11.3"),
        Entry(
            rule: .slowTransition, severity: .warning,
            summary: "a transition took longer than the --slow-transition threshold",
            explanation: "Off unless a threshold is given (`--slow-transition MS` or `slow-transition:` in the config). Measured from the transition's first to its last callback.",
            example: "2016-03-17 16:02:37.000 App[1:1] A >>>> viewWillDisappear:\n2016-03-17 16:02:37.010 App[1:1] B >>>> viewWillAppear:\n2016-03-17 16:02:38.500 App[1:1] A >>>> viewDidDisappear:\n2016-03-17 16:02:38.510 App[1:1] B >>>> viewDidAppear:",
            uikit: "An animated push or present takes about 0.35–0.5 s; much longer means work on the main thread during the transition.",
            reference: "§4 (seed 001 timings)"),
        Entry(
            rule: .sessionEndedAbruptly, severity: .info,
            summary: "a session ended with the app still in the foreground or in the middle of a transition",
            explanation: "When the next launch begins or the log ends and the app never reached the background or willTerminate, or a transition is still in flight, the finding names the last events: what a crash or a kill looked like.",
            example: "main()\nAppDelegate application(_:didFinishLaunchingWithOptions:)\nA viewWillAppear(_:)",
            uikit: "A suspended app is killed silently after didEnterBackground, and willTerminate precedes a normal exit; a log that stops elsewhere usually means a crash or a kill from the debugger.",
            reference: "§3"),
        Entry(
            rule: .clockWentBack, severity: .info,
            summary: "the logged time went back within a session",
            explanation: "Fires at each event whose logged time is earlier than the event before it in the same session: logs pasted out of order, a device clock that was set back, or a time of day without a date that passes midnight. Durations never go negative: the session's time stands still across the step, so a duration that spans it counts the step as zero.",
            example: "2016-03-17 16:02:47.000 App[1:1] A >>>> viewWillAppear:\n2016-03-17 16:02:37.000 App[1:1] A >>>> viewDidAppear:",
            uikit: "UIKit's callbacks for one launch happen in order on the main thread, so their times only move forward; a step back comes from how the log was made or joined, and the durations around it are unreliable.",
            reference: "§10"),
        Entry(
            rule: .noLifecycleEvents, severity: .warning,
            summary: "an input from which no lifecycle event was read",
            explanation: "Fires once per input (at line 1) when none of its lines was read as a controller, app or scene callback, a navigation call or a marker: the wrong file, a log level that hides the app's messages, or a line shape lctrace does not read. The summary counts how every line was read, and `lctrace lines FILE` shows it line by line. `lctrace check` makes it an error, so that a CI job cannot pass on a log with nothing in it; `--allow-empty-input` leaves it a warning.",
            example: "NetworkClient: GET /api/v2/products?page=3 -> 200 (182 ms)\nImageCache: hit ratio 0.93 after 412 lookups",
            uikit: "An app that logs its controllers' callbacks prints several for every screen it shows; a log of a running app with none of them was not written by that logging.",
            reference: "§10"),
        Entry(
            rule: .unreadLifecycleLines, severity: .warning,
            summary: "many lines of an input name a lifecycle callback but could not be read as one",
            explanation: "Fires once per input (at its first unread line) when at least 5 of its lines, and at least 10 % of the lines that name a callback (those read as lifecycle events and the unread ones), name a lifecycle callback with no controller lctrace can read around it: a logging wrapper or a message shape it does not know, so the timelines miss much of what was logged. The finding names the first of those lines; `lctrace lines --only unread FILE` shows them all and why each was not read. A few such lines in a long log (a sentence that mentions viewDidLoad) only count in the summary.",
            example: "HomeViewController viewDidLoad()\nabout to run viewWillAppear\nfinished with viewDidAppear\nabout to run viewWillDisappear\nfinished with viewDidDisappear\nabout to run viewWillAppear",
            uikit: "Each callback the app logs is a step of a controller's lifecycle; when many cannot be tied to a controller, the orderings the other rules check are incomplete, and a clean report means little.",
            reference: "§10"),
        Entry(
            rule: .newTransition, severity: .warning,
            summary: "a transition between two controller classes that the model of earlier runs never saw",
            explanation: "With `--against MODEL` (a model written by `lctrace learn` or `--write-model`, or a log of a good run): fires once per new transition (its kind, the class it leaves and the class it shows), at its first occurrence, and says when the model has the same two classes in another kind of transition (a controller now pushed that used to be presented).",
            example: "A viewDidLoad()\nA viewWillAppear(_:)\nA viewDidAppear(_:)\nB viewDidLoad()\nA viewWillDisappear(_:)\nB viewWillAppear(_:)\nB viewDidAppear(_:)\nA viewDidDisappear(_:)",
            uikit: "A change to an app's navigation shows as transitions its earlier runs never took: intended with a new feature, a regression when a screen is reached another way than it used to be.",
            reference: "§4–§7", modelExample: pushExample),
        Entry(
            rule: .newController, severity: .warning,
            summary: "a controller class that appeared in no run of the model",
            explanation: "With `--against MODEL`: fires once per class, at its first instance, when no run of the model had an instance of it.",
            example: pushExample + "\nC viewDidLoad()\nB viewWillDisappear(_:)\nC viewWillAppear(_:)\nB viewDidDisappear(_:)\nC viewDidAppear(_:)",
            uikit: "The screens a test run reaches are much the same from one run to the next; a class never seen before is a new screen, or one the tests now reach that they did not.",
            reference: "§4", modelExample: pushExample),
        Entry(
            rule: .missingTransition, severity: .warning,
            summary: "a transition every run of the model took that this run never took",
            explanation: "With `--against MODEL`: fires once per transition that happened in every run the model was learned from and not once in this run, at the first line of the run's first input. A transition only some runs took is not missed.",
            example: "A viewDidLoad()\nA viewWillAppear(_:)\nA viewDidAppear(_:)",
            uikit: "A path every earlier run took and this one did not is a screen the tests no longer reach: a flow that broke, or a test that stopped early.",
            reference: "§4–§7", modelExample: pushExample),
        Entry(
            rule: .slowerThanModel, severity: .warning,
            summary: "a transition, or a controller's first appearance, slower than in the model at its median or 90th percentile",
            explanation: "With `--against MODEL`: compares each transition (kind, from class, to class) and each class's time from viewDidLoad to its first viewDidAppear at the median and the 90th percentile, where both this run and the model timed it at least 5 times. Fires once per transition or class when a percentile is slower by more than `--slower-by` percent (20 unless told otherwise) and by at least 10 ms, which keeps timer noise out.",
            example: sheetsExample(count: 5, loadToAppearMs: 600),
            uikit: "The time from viewDidLoad to viewDidAppear is the work a screen does before it shows; a transition's time is the animation plus the main-thread work during it. Both are stable from one run to the next on the same device, so a large step is a regression.",
            reference: "§4 (seed 001 timings)", modelExample: sheetsExample(count: 5, loadToAppearMs: 300)),
    ]
}
