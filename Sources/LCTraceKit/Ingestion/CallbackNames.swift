/// The name table of lifecycle-ground-truth §10: every spelling a log may use for a callback —
/// the Objective-C `_cmd` form (`viewWillAppear:`) and the Swift `#function` form (`viewWillAppear(_:)`) —
/// mapped to its canonical `Callback`. The mapping is not mechanical (`willMoveToParentViewController:` is
/// `willMove(toParent:)` in Swift), so it is a table; unknown names fall back to stripping `(…)` or `:`.
public enum CallbackNames {
    /// canonical callback → the spellings seen in logs (beyond the canonical name itself).
    static let spellings: [(Callback, [String])] = [
        (.initialize, ["init()", "init(coder:)", "init(nibName:bundle:)", "initWithCoder:", "initWithNibName:bundle:"]),
        (.loadView, ["loadView()"]),
        (.viewDidLoad, ["viewDidLoad()"]),
        (.viewWillAppear, ["viewWillAppear:", "viewWillAppear(_:)"]),
        (.viewIsAppearing, ["viewIsAppearing:", "viewIsAppearing(_:)"]),
        (.viewDidAppear, ["viewDidAppear:", "viewDidAppear(_:)"]),
        (.viewWillDisappear, ["viewWillDisappear:", "viewWillDisappear(_:)"]),
        (.viewDidDisappear, ["viewDidDisappear:", "viewDidDisappear(_:)"]),
        (.viewWillLayoutSubviews, ["viewWillLayoutSubviews()"]),
        (.viewDidLayoutSubviews, ["viewDidLayoutSubviews()"]),
        (.didReceiveMemoryWarning, ["didReceiveMemoryWarning()"]),
        (.viewWillUnload, []),
        (.viewDidUnload, []),
        (.willMoveToParentViewController, ["willMoveToParentViewController:", "willMove(toParent:)", "willMove(toParentViewController:)"]),
        (.didMoveToParentViewController, ["didMoveToParentViewController:", "didMove(toParent:)", "didMove(toParentViewController:)"]),
        (.beginAppearanceTransition, ["beginAppearanceTransition:animated:", "beginAppearanceTransition(_:animated:)"]),
        (.endAppearanceTransition, ["endAppearanceTransition()"]),
        (.dealloc, ["deinit"]),

        // SwiftUI: `DetailView onAppear`, `<uuid> onAppear`, and the phrases `DetailScreen appeared` / `disappeared`.
        // Read only as a whole message after a type name or a UUID (`MessageParser`), never inside other text.
        (.onAppear, ["appeared"]),
        (.onDisappear, ["disappeared"]),
        (.task, []),

        (.willFinishLaunching, ["application:willFinishLaunchingWithOptions:", "application(_:willFinishLaunchingWithOptions:)"]),
        (.didFinishLaunching, ["application:didFinishLaunchingWithOptions:", "application(_:didFinishLaunchingWithOptions:)"]),
        (.applicationDidBecomeActive, ["applicationDidBecomeActive:", "applicationDidBecomeActive(_:)"]),
        (.applicationWillResignActive, ["applicationWillResignActive:", "applicationWillResignActive(_:)"]),
        (.applicationDidEnterBackground, ["applicationDidEnterBackground:", "applicationDidEnterBackground(_:)"]),
        (.applicationWillEnterForeground, ["applicationWillEnterForeground:", "applicationWillEnterForeground(_:)"]),
        (.applicationWillTerminate, ["applicationWillTerminate:", "applicationWillTerminate(_:)"]),
        (.applicationDidReceiveMemoryWarning, ["applicationDidReceiveMemoryWarning:", "applicationDidReceiveMemoryWarning(_:)"]),
        (.configurationForConnecting, ["application:configurationForConnectingSceneSession:options:", "application(_:configurationForConnecting:options:)"]),
        (.didDiscardSceneSessions, ["application:didDiscardSceneSessions:", "application(_:didDiscardSceneSessions:)"]),

        (.sceneWillConnect, ["scene:willConnectToSession:options:", "scene(_:willConnectTo:options:)"]),
        (.sceneWillEnterForeground, ["sceneWillEnterForeground:", "sceneWillEnterForeground(_:)"]),
        (.sceneDidBecomeActive, ["sceneDidBecomeActive:", "sceneDidBecomeActive(_:)"]),
        (.sceneWillResignActive, ["sceneWillResignActive:", "sceneWillResignActive(_:)"]),
        (.sceneDidEnterBackground, ["sceneDidEnterBackground:", "sceneDidEnterBackground(_:)"]),
        (.sceneDidDisconnect, ["sceneDidDisconnect:", "sceneDidDisconnect(_:)"]),

        (.pushViewController, ["pushViewController:animated:", "pushViewController(_:animated:)"]),
        (.popViewController, ["popViewControllerAnimated:", "popViewController(animated:)"]),
        (.popToRootViewController, ["popToRootViewControllerAnimated:", "popToRootViewController(animated:)"]),
        (.popToViewController, ["popToViewController:animated:", "popToViewController(_:animated:)"]),
        (.presentViewController, ["presentViewController:animated:completion:", "present(_:animated:completion:)", "present(_:animated:)"]),
        (.dismissViewController, ["dismissViewControllerAnimated:completion:", "dismiss(animated:completion:)", "dismiss(animated:)"]),
    ]

    private static let table: [String: Callback] = {
        var table: [String: Callback] = [:]
        for (callback, names) in spellings where callback.family != .marker {
            table[callback.rawValue] = callback
            for name in names { table[name] = callback }
        }
        return table
    }()

    /// The canonical callback for a logged selector or Swift function name, or nil when it is not a
    /// lifecycle callback lctrace knows (ordinary methods, typos).
    public static func callback(forSelector spelled: String) -> Callback? {
        if let exact = table[spelled] { return exact }
        // Fallback: `name(args…)` → `name`, `name:` → `name`.
        var base = Substring(spelled)
        if let paren = base.firstIndex(of: "(") { base = base[..<paren] }
        while base.last == ":" { base = base.dropLast() }
        return base.count == spelled.count ? nil : table[String(base)]
    }
}
