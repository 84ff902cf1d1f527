/// How serious a finding is (lifecycle-ground-truth §0): `error` — UIKit cannot produce it for one instance;
/// `warning` — possible but suspicious; `info` — worth showing, never a failure.
public enum Severity: String, Sendable, Codable, CaseIterable, Comparable {
    case info, warning, error

    private var rank: Int { self == .info ? 0 : self == .warning ? 1 : 2 }
    public static func < (lhs: Severity, rhs: Severity) -> Bool { lhs.rank < rhs.rank }
}

/// Every rule lctrace checks, by its stable id. What each rule means, how serious it is by default and why
/// lives in `RuleCatalog`; the state machines, templates and checks name these ids and nothing else.
public enum Rule: String, Sendable, CaseIterable, Codable, BitwiseCopyable {
    // One view-controller instance (ground truth §4, §5, §7, §8, §9, §11.2)
    case didAppearWithoutWillAppear = "did-appear-without-will-appear"
    case didDisappearWithoutWillDisappear = "did-disappear-without-will-disappear"
    case didAppearTwice = "did-appear-twice"
    case unbalancedWillCallback = "unbalanced-will-callback"
    case isAppearingOutsideAppearance = "is-appearing-outside-appearance"
    case appearanceBeforeViewDidLoad = "appearance-before-view-did-load"
    case viewLoadedTwice = "view-loaded-twice"
    case viewUnloadedWhileVisible = "view-unloaded-while-visible"
    case viewReloadedWhileVisible = "view-reloaded-while-visible"
    case callbackAfterDealloc = "callback-after-dealloc"
    case deallocWhileOnScreen = "dealloc-while-on-screen"
    case didMoveWithoutWillMove = "did-move-without-will-move"
    case unbalancedAppearanceTransition = "unbalanced-appearance-transition"
    case appearanceMethodCalledDirectly = "appearance-method-called-directly"
    case presentNotInWindowHierarchy = "present-not-in-window-hierarchy"
    case presentWhilePresenting = "present-while-presenting"
    case presentWhileTransitioning = "present-while-transition-in-progress"
    case dismissWhileTransitioning = "dismiss-while-transition-in-progress"
    case presentOnDetachedController = "present-on-detached-controller"
    case presentAlreadyPresented = "present-already-presented"
    case callbackOffMainThread = "callback-off-main-thread"
    case possibleLeak = "possible-leak"
    case willAppearTwice = "will-appear-twice"
    case callbackWithoutLiveInstance = "callback-without-live-instance"
    case loadLoop = "load-loop"
    case logGap = "log-gap"
    // One SwiftUI view instance
    case viewAppearedTwice = "view-appeared-twice"
    case viewAppearedWhileCovered = "view-appeared-while-covered"
    // App and scene delegates (ground truth §1–§3)
    case stateCallbackBeforeLaunch = "state-callback-before-launch"
    case launchRepeated = "launch-repeated"
    case backgroundWithoutResignActive = "background-without-resign-active"
    case activeFromBackgroundWithoutForeground = "active-from-background-without-foreground"
    case unexpectedStateCallback = "unexpected-state-callback"
    case sceneNotConnected = "scene-not-connected"
    case appCallbacksWithScenes = "app-callbacks-with-scenes"
    // Transitions between controllers (ground truth §4–§7, §11.3)
    case transitionOrder = "transition-order"
    case transitionUnrecognized = "transition-unrecognized"
    case slowTransition = "slow-transition"
    // Whole sessions
    case sessionEndedAbruptly = "session-ended-abruptly"
    case clockWentBack = "clock-went-back"
    // Whole inputs
    case noLifecycleEvents = "no-lifecycle-events"
    case unreadLifecycleLines = "unread-lifecycle-lines"
    // The run against a model of earlier runs (`--against`)
    case newTransition = "new-transition"
    case newController = "new-controller"
    case missingTransition = "missing-transition"
    case slowerThanModel = "slower-than-model"

    public var entry: RuleCatalog.Entry { RuleCatalog.entry(for: self) }
    public var defaultSeverity: Severity { entry.severity }
    public var summary: String { entry.summary }
}

/// One deviation found in a log.
public struct Finding: Sendable, Equatable {
    public var rule: Rule
    public var severity: Severity
    /// The input's display name (a path, or `<stdin>`).
    public var input: String
    /// 1-based line number in that input.
    public var line: Int
    /// 1-based session number across the whole run; 0 for a finding about a whole input.
    public var session: Int
    /// The controller (or `AppDelegate`) the finding is about.
    public var controller: String?
    public var message: String
    public var expected: String?
    public var actual: String?
}

/// How rules apply in one run: severities overridden (or turned off) by `--severity` or the config file, and
/// the thresholds of the timing rules.
public struct RuleSettings: Sendable, Equatable {
    /// Rule → severity for this run; `nil` turns the rule off.
    public var overrides: [Rule: Severity?] = [:]
    /// A popped or dismissed controller not deallocated within this many seconds is a possible leak.
    public var leakTimeoutSeconds: Double = 3
    /// Transitions slower than this are `slow-transition` warnings; nil leaves the rule off.
    public var slowTransitionMs: Double?
    /// Against a model (`--against`): a transition or first appearance this many percent slower than the model's,
    /// at its median or 90th percentile, is `slower-than-model`.
    public var slowerThanModelPercent: Double = 20
    /// Controller classes whose findings are left out (third-party controllers the app cannot change).
    public var ignoredClasses: [ClassPattern] = []

    /// Whether the findings about `className` are left out (`ignoredClasses`).
    public func ignores(_ className: String) -> Bool { ignoredClasses.contains { $0.matches(className) } }

    public init() {}

    /// The severity a finding of `rule` gets, or nil when the rule is off. `cap` lowers it where the evidence is
    /// weaker than the rule assumes (no instance addresses, a class that never logs dealloc).
    public func severity(of rule: Rule, cappedAt cap: Severity? = nil) -> Severity? {
        let configured: Severity?
        if let override = overrides[rule] { configured = override } else { configured = rule.defaultSeverity }
        guard let configured else { return nil }
        if let cap { return min(configured, cap) }
        return configured
    }

    public func isEnabled(_ rule: Rule) -> Bool {
        if rule == .slowTransition, slowTransitionMs == nil { return false }
        return severity(of: rule) != nil
    }
}

extension RuleSettings {
    /// The largest `leak-timeout` accepted, in seconds (one day): beyond it the rule means nothing in one run.
    public static let maxLeakTimeoutSeconds: Double = 86_400
    /// The largest `slow-transition` accepted, in milliseconds (one hour).
    public static let maxSlowTransitionMs: Double = 3_600_000

    /// Why `seconds` cannot be a leak timeout (not a finite number from 0 to a day), or nil when it can.
    public static func leakTimeoutProblem(_ seconds: Double) -> String? {
        guard seconds.isFinite, seconds >= 0, seconds <= maxLeakTimeoutSeconds else {
            return "must be a number of seconds from 0 to \(TextFormat.measure(maxLeakTimeoutSeconds)), not \(seconds)"
        }
        return nil
    }

    /// Why `ms` cannot be a slow-transition threshold (not a finite number from 0 to an hour), or nil when it can.
    public static func slowTransitionProblem(_ ms: Double) -> String? {
        guard ms.isFinite, ms >= 0, ms <= maxSlowTransitionMs else {
            return "must be a number of milliseconds from 0 to \(TextFormat.measure(maxSlowTransitionMs)), not \(ms)"
        }
        return nil
    }

    /// `error`, `warning`, `info` → that severity; `off` → `.some(nil)`; anything else → nil.
    public static func level(_ text: String) -> Severity?? {
        if text == "off" { return .some(nil) }
        return Severity(rawValue: text).map { .some($0) }
    }

    /// Parses `RULE=LEVEL` (`--severity possible-leak=off`).
    public static func assignment(_ text: String) -> (rule: Rule, severity: Severity?)? {
        let parts = text.split(separator: "=", maxSplits: 1).map(String.init)
        guard parts.count == 2, let rule = Rule(rawValue: parts[0]), let level = level(parts[1]) else { return nil }
        return (rule, level)
    }
}
