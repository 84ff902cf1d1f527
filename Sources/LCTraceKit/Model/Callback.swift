/// A lifecycle callback, intent or marker in its canonical form: the Objective-C selector with the
/// trailing colon dropped (lifecycle-ground-truth §10). `CallbackNames` maps every spelling to one of these.
public enum Callback: String, Sendable, CaseIterable, Codable, CaseOrdinal {
    // View controller
    case initialize = "init"
    case loadView
    case viewDidLoad
    case viewWillAppear
    case viewIsAppearing
    case viewDidAppear
    case viewWillDisappear
    case viewDidDisappear
    case viewWillLayoutSubviews
    case viewDidLayoutSubviews
    case didReceiveMemoryWarning
    case viewWillUnload
    case viewDidUnload
    case willMoveToParentViewController
    case didMoveToParentViewController
    case beginAppearanceTransition = "beginAppearanceTransition:animated"
    case endAppearanceTransition
    case dealloc
    /// UIKit's console line "Unbalanced calls to begin/end appearance transitions for <X>", attached to X.
    case unbalancedAppearanceNotice = "Unbalanced calls to begin/end appearance transitions"
    /// UIKit's "[ViewController] Calling -viewWillDisappear: directly on a view controller is not supported … View
    /// controller: <X>", attached to X.
    case appearanceCalledDirectlyNotice = "Calling an appearance method directly"
    /// UIKit's "Attempt to present <B> on <A> whose view is not in the window hierarchy", attached to B.
    case presentNotInWindowNotice = "Attempt to present on a view not in the window hierarchy"
    /// UIKit's "Attempt to present <B> on <A> which is already presenting <C>", attached to B.
    case presentWhilePresentingNotice = "Attempt to present on a controller already presenting"
    /// UIKit's "Attempt to present <B> on <A> while a presentation is in progress", attached to B.
    case presentWhileTransitioningNotice = "Attempt to present while a presentation is in progress"
    /// UIKit's "Attempt to dismiss from view controller <A> while a presentation or dismiss is in progress", attached to A.
    case dismissWhileTransitioningNotice = "Attempt to dismiss while a presentation or dismiss is in progress"
    /// UIKit's "Presenting view controllers on detached view controllers is discouraged <A>", attached to A.
    case presentOnDetachedNotice = "Presenting on a detached view controller"
    /// UIKit's exception reason "Application tried to present modally a view controller <B> that is already being
    /// presented by <A>", attached to B.
    case presentAlreadyPresentedNotice = "Presenting a controller already presented"

    // SwiftUI view: the modifiers an app logs from (`.onAppear { print("DetailView onAppear") }`).
    case onAppear
    case onDisappear
    case task

    // App delegate
    case willFinishLaunching = "application:willFinishLaunchingWithOptions"
    case didFinishLaunching = "application:didFinishLaunchingWithOptions"
    case applicationDidBecomeActive
    case applicationWillResignActive
    case applicationDidEnterBackground
    case applicationWillEnterForeground
    case applicationWillTerminate
    case applicationDidReceiveMemoryWarning
    case configurationForConnecting = "application:configurationForConnectingSceneSession:options"
    case didDiscardSceneSessions = "application:didDiscardSceneSessions"

    // Scene delegate
    case sceneWillConnect = "scene:willConnectToSession:options"
    case sceneWillEnterForeground
    case sceneDidBecomeActive
    case sceneWillResignActive
    case sceneDidEnterBackground
    case sceneDidDisconnect

    // Intents: a logged navigation call declares the kind of the transition that follows.
    case pushViewController = "pushViewController:animated"
    case popViewController = "popViewControllerAnimated"
    case popToRootViewController = "popToRootViewControllerAnimated"
    case popToViewController = "popToViewController:animated"
    case presentViewController = "presentViewController:animated:completion"
    case dismissViewController = "dismissViewControllerAnimated:completion"

    // Markers that are not callbacks of a class.
    case main = "main()"
    case receivedMemoryWarning = "Received memory warning."

    public enum Family: Sendable {
        case controller, application, scene, intent, marker
        /// A SwiftUI view's modifiers: kept per view instance like a controller's callbacks, by `ViewAutomaton` rules.
        case view
    }

    @inline(__always)
    public var family: Family {
        switch self {
        case .initialize, .loadView, .viewDidLoad, .viewWillAppear, .viewIsAppearing, .viewDidAppear,
             .viewWillDisappear, .viewDidDisappear, .viewWillLayoutSubviews, .viewDidLayoutSubviews,
             .didReceiveMemoryWarning, .viewWillUnload, .viewDidUnload, .willMoveToParentViewController,
             .didMoveToParentViewController, .beginAppearanceTransition, .endAppearanceTransition, .dealloc,
             .unbalancedAppearanceNotice, .appearanceCalledDirectlyNotice, .presentNotInWindowNotice,
             .presentWhilePresentingNotice, .presentWhileTransitioningNotice, .dismissWhileTransitioningNotice,
             .presentOnDetachedNotice, .presentAlreadyPresentedNotice:
            return .controller
        case .onAppear, .onDisappear, .task:
            return .view
        case .willFinishLaunching, .didFinishLaunching, .applicationDidBecomeActive, .applicationWillResignActive,
             .applicationDidEnterBackground, .applicationWillEnterForeground, .applicationWillTerminate,
             .applicationDidReceiveMemoryWarning, .configurationForConnecting, .didDiscardSceneSessions:
            return .application
        case .sceneWillConnect, .sceneWillEnterForeground, .sceneDidBecomeActive, .sceneWillResignActive,
             .sceneDidEnterBackground, .sceneDidDisconnect:
            return .scene
        case .pushViewController, .popViewController, .popToRootViewController, .popToViewController,
             .presentViewController, .dismissViewController:
            return .intent
        case .main, .receivedMemoryWarning:
            return .marker
        }
    }

    /// The transition kind a logged navigation call declares, for intent callbacks.
    public var declaredKind: TransitionKind? {
        switch self {
        case .pushViewController: return .push
        case .popViewController: return .pop
        case .popToRootViewController, .popToViewController: return .popToRoot
        case .presentViewController: return .present
        case .dismissViewController: return .dismiss
        default: return nil
        }
    }

    /// Callbacks UIKit delivers on the main thread (what `callback-off-main-thread` checks): controller, app
    /// and scene callbacks, except init and dealloc, which run wherever the object is created or released.
    public var isDeliveredOnMainThread: Bool {
        switch family {
        case .controller: return self != .initialize && self != .dealloc && noticeRule == nil
        case .application, .scene: return true
        case .intent, .marker, .view: return false
        }
    }

    /// Containment callbacks: a controller that logs one is a child of a custom container.
    @inline(__always)
    public var isContainmentCallback: Bool {
        switch self {
        case .willMoveToParentViewController, .didMoveToParentViewController, .beginAppearanceTransition, .endAppearanceTransition:
            return true
        default: return false
        }
    }

    /// For a notice UIKit prints about a controller, the rule it is reported under; nil for everything else.
    @inline(__always)
    public var noticeRule: Rule? {
        switch self {
        case .unbalancedAppearanceNotice: return .unbalancedAppearanceTransition
        case .appearanceCalledDirectlyNotice: return .appearanceMethodCalledDirectly
        case .presentNotInWindowNotice: return .presentNotInWindowHierarchy
        case .presentWhilePresentingNotice: return .presentWhilePresenting
        case .presentWhileTransitioningNotice: return .presentWhileTransitioning
        case .dismissWhileTransitioningNotice: return .dismissWhileTransitioning
        case .presentOnDetachedNotice: return .presentOnDetachedController
        case .presentAlreadyPresentedNotice: return .presentAlreadyPresented
        default: return nil
        }
    }

    /// init and dealloc: every class has them, so a class seen only with these is not known to be a view controller.
    @inline(__always)
    public var isSharedWithOtherClasses: Bool { self == .initialize || self == .dealloc }

    /// The callbacks that begin a controller's (view's) life: init, loadView, viewDidLoad.
    @inline(__always)
    public var beginsLife: Bool {
        switch self {
        case .initialize, .loadView, .viewDidLoad: return true
        default: return false
        }
    }

    /// The four callbacks that bracket an appearance change; transitions are built from these.
    @inline(__always)
    public var isAppearanceCallback: Bool {
        switch self {
        case .viewWillAppear, .viewDidAppear, .viewWillDisappear, .viewDidDisappear: return true
        default: return false
        }
    }
}
