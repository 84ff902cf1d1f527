/// How serious a finding is (lifecycle-ground-truth §0): `error` — UIKit cannot produce it for one instance;
/// `warning` — possible but suspicious; `info` — worth showing, never a failure.
public enum Severity: String, Sendable, Codable, CaseIterable, Comparable {
    case info, warning, error

    private var rank: Int { self == .info ? 0 : self == .warning ? 1 : 2 }
    public static func < (lhs: Severity, rhs: Severity) -> Bool { lhs.rank < rhs.rank }
}

/// Every rule lctrace checks: a stable id, a default severity and a one-line summary. The state machines and
/// transition templates name these ids; nothing else decides what a finding is called or how serious it is.
public enum Rule: String, Sendable, CaseIterable, Codable {
    // Per view-controller instance (ground truth §4, §5, §8, §9, §11.2)
    case didAppearWithoutWillAppear = "did-appear-without-will-appear"
    case didDisappearWithoutWillDisappear = "did-disappear-without-will-disappear"
    case didAppearTwice = "did-appear-twice"
    case unbalancedWillCallback = "unbalanced-will-callback"
    case isAppearingOutsideAppearance = "is-appearing-outside-appearance"
    case appearanceBeforeViewDidLoad = "appearance-before-view-did-load"
    case viewLoadedTwice = "view-loaded-twice"
    case callbackAfterDealloc = "callback-after-dealloc"
    // App delegate (ground truth §3)
    case backgroundWithoutResignActive = "background-without-resign-active"
    case activeFromBackgroundWithoutForeground = "active-from-background-without-foreground"
    // Transitions between controllers (ground truth §4, §6, §11.3)
    case transitionOrder = "transition-order"
    case transitionUnrecognized = "transition-unrecognized"

    public var defaultSeverity: Severity {
        switch self {
        case .didAppearWithoutWillAppear, .didDisappearWithoutWillDisappear, .isAppearingOutsideAppearance,
             .appearanceBeforeViewDidLoad, .viewLoadedTwice, .callbackAfterDealloc,
             .backgroundWithoutResignActive, .activeFromBackgroundWithoutForeground:
            return .error
        case .didAppearTwice, .unbalancedWillCallback, .transitionOrder, .transitionUnrecognized:
            return .warning
        }
    }

    public var summary: String {
        switch self {
        case .didAppearWithoutWillAppear:
            return "viewDidAppear with no open viewWillAppear on the same instance"
        case .didDisappearWithoutWillDisappear:
            return "viewDidDisappear with no open viewWillDisappear on the same instance"
        case .didAppearTwice:
            return "viewDidAppear twice in a row with no disappearance in between"
        case .unbalancedWillCallback:
            return "viewWillAppear on a controller already appearing or visible, or viewWillDisappear on one already disappearing or hidden"
        case .isAppearingOutsideAppearance:
            return "viewIsAppearing outside a viewWillAppear … viewDidAppear window"
        case .appearanceBeforeViewDidLoad:
            return "appearance or layout callbacks before the view was loaded (viewDidLoad)"
        case .viewLoadedTwice:
            return "viewDidLoad again on one instance with no memory warning or unload in between"
        case .callbackAfterDealloc:
            return "a lifecycle callback on an instance after its dealloc/deinit"
        case .backgroundWithoutResignActive:
            return "applicationDidEnterBackground while active, without applicationWillResignActive first"
        case .activeFromBackgroundWithoutForeground:
            return "applicationDidBecomeActive from the background, without applicationWillEnterForeground first"
        case .transitionOrder:
            return "a transition declared by a logged push/pop/present/dismiss call runs in another order than UIKit's"
        case .transitionUnrecognized:
            return "two controllers exchange the screen in an order that fits no UIKit transition"
        }
    }
}

/// One deviation found in a log.
public struct Finding: Sendable, Equatable {
    public var rule: Rule
    public var severity: Severity
    /// The input's display name (a path, or `<stdin>`).
    public var input: String
    /// 1-based line number in that input.
    public var line: Int
    /// 1-based session number across the whole run.
    public var session: Int
    /// The controller (or `AppDelegate`) the finding is about.
    public var controller: String?
    public var message: String
    public var expected: String?
    public var actual: String?
}
