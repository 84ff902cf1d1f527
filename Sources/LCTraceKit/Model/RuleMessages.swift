/// The words of the findings, beside the catalogue that explains each rule: what a finding says, what was expected
/// and what came instead. The analysis decides that a rule fired and hands the facts; only this file writes prose.
extension RuleCatalog {
    /// The text of one finding.
    struct Wording {
        var message: String
        var expected: String?
        var actual: String?
    }

    // MARK: One controller instance

    /// A per-controller rule that fired when `callback` came to `controller` in `phase`. `earlier` is the appearance
    /// callback a late viewDidLoad came after; `notice` is a UIKit notice's whole text.
    static func controllerWording(_ rule: Rule, callback: Callback, phase: ControllerPhase, controller name: String,
                                  earlier: (line: Int, callback: Callback)?, notice: String) -> Wording {
        let actual = callback.rawValue
        switch rule {
        case .didAppearWithoutWillAppear:
            return Wording(message: "viewDidAppear on \(name) without a viewWillAppear before it (controller was \(phase.rawValue))",
                           expected: "viewWillAppear first", actual: actual)
        case .didDisappearWithoutWillDisappear:
            return Wording(message: "viewDidDisappear on \(name) without a viewWillDisappear before it (controller was \(phase.rawValue))",
                           expected: "viewWillDisappear first", actual: actual)
        case .didAppearTwice:
            return Wording(message: "viewDidAppear on \(name), which is already visible",
                           expected: "viewWillDisappear before appearing again", actual: actual)
        case .unbalancedWillCallback:
            return Wording(message: "\(callback.rawValue) on \(name), which is already \(phase.rawValue)",
                           expected: callback == .viewWillAppear ? "viewWillDisappear/viewDidDisappear first" : "viewWillAppear/viewDidAppear first",
                           actual: actual)
        case .isAppearingOutsideAppearance:
            return Wording(message: "viewIsAppearing on \(name) outside viewWillAppear … viewDidAppear (controller was \(phase.rawValue))",
                           expected: "viewWillAppear first", actual: actual)
        case .appearanceBeforeViewDidLoad:
            if callback == .viewDidLoad, let earlier {
                return Wording(message: "viewDidLoad came after \(earlier.callback.rawValue) (line \(earlier.line)) on \(name)",
                               expected: "viewDidLoad before \(earlier.callback.rawValue)", actual: "viewDidLoad after \(earlier.callback.rawValue)")
            }
            return Wording(message: "\(callback.rawValue) on \(name) before its view was loaded (controller was \(phase.rawValue))",
                           expected: "viewDidLoad first", actual: actual)
        case .viewLoadedTwice:
            return Wording(message: "\(name) loaded its view again with no memory warning or viewDidUnload in between",
                           expected: "one viewDidLoad per view life", actual: "viewDidLoad again")
        case .viewReloadedWhileVisible:
            return Wording(message: "\(name) reloaded its view while on screen, after a memory warning",
                           expected: "purge only the views of controllers not on screen", actual: "viewDidLoad while visible")
        case .callbackAfterDealloc:
            return Wording(message: "\(callback.rawValue) on \(name) after its dealloc/deinit", expected: "no callback after dealloc", actual: actual)
        case .viewUnloadedWhileVisible:
            return Wording(message: "\(callback.rawValue) on \(name) while it is \(phase.rawValue)",
                           expected: "views unloaded only while not on screen", actual: actual)
        case .deallocWhileOnScreen:
            return Wording(message: "\(name) was deallocated while \(phase.rawValue), before its viewDidDisappear",
                           expected: "viewWillDisappear and viewDidDisappear before dealloc", actual: actual)
        case .callbackWithoutLiveInstance:
            return Wording(message: "\(callback.rawValue) on \(name), the last instance of its class, after its dealloc/deinit; the class logged its creation in an earlier launch, and no new instance's creation is logged",
                           expected: "no callback with every instance of the class deallocated", actual: actual)
        case .logGap:
            return Wording(message: "viewWillDisappear on \(name), which already disappeared: lines are missing here (a log without times, excerpts joined)",
                           expected: "the lines that showed \(name) again", actual: actual)
        case .viewAppearedTwice:
            return Wording(message: "onAppear on SwiftUI view \(name), which is already visible",
                           expected: "onDisappear before appearing again", actual: actual)
        case _ where callback.isContainmentCallback:
            // did-move-without-will-move, and unbalanced-appearance-transition from a logged endAppearanceTransition.
            let open = ControllerLifecycle.containmentPairs.first { $0.close == callback }?.open.rawValue ?? "its opening call"
            return Wording(message: "\(callback.rawValue) on \(name) with no \(open) before it", expected: "\(open) first", actual: actual)
        case _ where callback.noticeRule == rule:
            return Wording(message: noticeMessage(rule, controller: name, notice: notice), expected: noticeExpectation(rule), actual: notice)
        default:
            return Wording(message: "\(callback.rawValue) on \(name): \(rule.summary)", actual: actual)
        }
    }

    private static func noticeMessage(_ rule: Rule, controller: String, notice: String) -> String {
        switch rule {
        case .appearanceMethodCalledDirectly:
            let call = notice.range(of: "Calling ").flatMap { start in
                notice.range(of: " directly", range: start.upperBound..<notice.endIndex).map { String(notice[start.upperBound..<$0.lowerBound]) }
            } ?? "an appearance method"
            return "UIKit reported that \(call) was called directly on \(controller)"
        case .presentNotInWindowHierarchy:
            return "UIKit did not present \(controller): the presenting controller's view is not in the window hierarchy"
        case .presentWhilePresenting:
            let others = objects(in: notice)
            let on = others.count > 1 ? " on \(others[1])" : ""
            let already = others.count > 2 ? " \(others[others.count - 1])" : " another controller"
            return "UIKit did not present \(controller)\(on), which was already presenting\(already)"
        case .presentWhileTransitioning:
            let others = objects(in: notice)
            return "UIKit did not present \(controller)\(others.count > 1 ? " on \(others[1])" : ""): another presentation was in progress"
        case .dismissWhileTransitioning:
            return "UIKit did not dismiss from \(controller): a presentation or dismissal was in progress"
        case .presentOnDetachedController:
            return "\(controller) presented a controller while detached (not in a window and not a child of a controller that is)"
        case .presentAlreadyPresented:
            let others = objects(in: notice)
            let by = others.count > 1 ? " by \(others[others.count - 1])" : ""
            return "\(controller) was presented again while already presented\(by): UIKit raised an exception"
        default:
            return "UIKit reported unbalanced calls to begin/end appearance transitions for \(controller)"
        }
    }

    /// The controllers a notice names, as `<Module.Class: 0x…>`, by class, in order.
    static func objects(in notice: String) -> [String] {
        var names: [String] = []
        var rest = notice[...]
        while let open = rest.firstIndex(of: "<") {
            rest = rest[rest.index(after: open)...]
            guard let end = rest.firstIndex(where: { $0 == ":" || $0 == ">" || $0 == " " }) else { break }
            let name = rest[..<end]
            if let first = name.first, first.isLetter || first == "_" {
                names.append(String(name.split(separator: ".").last ?? name))
            }
            rest = rest[end...]
        }
        return names
    }

    private static func noticeExpectation(_ rule: Rule) -> String {
        switch rule {
        case .appearanceMethodCalledDirectly: return "appearance forwarded with beginAppearanceTransition/endAppearanceTransition"
        case .presentNotInWindowHierarchy: return "a presentation from a controller on screen (after its viewDidAppear)"
        case .presentWhilePresenting: return "a presentation from a controller that is presenting nothing (or from the one on top)"
        case .presentWhileTransitioning, .dismissWhileTransitioning: return "one presentation or dismissal at a time (in the completion of the one before)"
        case .presentOnDetachedController: return "a presentation from a controller in the window, or from its parent"
        case .presentAlreadyPresented: return "a controller presented once until it is dismissed"
        default: return "each beginAppearanceTransition closed by one endAppearanceTransition"
        }
    }

    // MARK: The app and its scenes

    /// A state callback (`callback`, at `line`) came before didFinishLaunching at `launchLine`.
    static func stateBeforeLaunchWording(callback: Callback, line: Int, launchLine: Int) -> Wording {
        Wording(message: "\(callback.rawValue) (line \(line)) came before didFinishLaunching (line \(launchLine))",
                expected: "application:didFinishLaunchingWithOptions first", actual: callback.rawValue)
    }

    /// `rule` fired when `callback` (its `step`) came to the app in `phase`.
    static func appStateWording(_ rule: Rule, callback: Callback, step: ActivityStep, phase: ActivityPhase) -> Wording {
        Wording(message: "\(callback.rawValue) while the app is \(phase.rawValue)",
                expected: activityExpectation(rule, step: step, scene: false), actual: callback.rawValue)
    }

    /// `rule` fired when `callback` (its `step`) came to the scene `scene` in `phase`; `addressed` when the log names the
    /// scene's instance.
    static func sceneStateWording(_ rule: Rule, callback: Callback, step: ActivityStep, scene: String, phase: ActivityPhase,
                                  addressed: Bool) -> Wording {
        Wording(message: "\(callback.rawValue) while \(scene) is \(phase.rawValue)"
                    + (addressed ? "" : " (no scene address: several scenes may interleave)"),
                expected: activityExpectation(rule, step: step, scene: true), actual: callback.rawValue)
    }

    /// A scene's state callback before its willConnectTo: logged earlier at `line` when the connection came later at
    /// `connectLine`, or never connected (`connectLine` nil).
    static func sceneNotConnectedWording(callback: Callback, scene: String, line: Int, connectLine: Int?) -> Wording {
        let message = connectLine.map { "\(callback.rawValue) on \(scene) (line \(line)) came before its willConnectTo (line \($0))" }
            ?? "\(callback.rawValue) on \(scene), which never connected (no willConnectTo in this process)"
        return Wording(message: message, expected: "scene:willConnectToSession:options first", actual: callback.rawValue)
    }

    /// App-delegate activation callbacks from `appLine` and scene callbacks from `sceneLine` in one launch.
    static func appCallbacksWithScenesWording(appLine: Int, sceneLine: Int) -> Wording {
        Wording(message: "app-delegate activation callbacks (line \(appLine)) and scene callbacks (line \(sceneLine)) in one launch: the app forwards them by hand, or its scene manifest is misconfigured",
                expected: "scene callbacks only", actual: "both")
    }

    /// What UIKit would have sent instead of the step that broke `rule`, for an app (or a scene's) state finding.
    static func activityExpectation(_ rule: Rule, step: ActivityStep, scene: Bool) -> String? {
        let prefix = scene ? "scene" : "application"
        switch rule {
        case .backgroundWithoutResignActive: return "\(prefix)WillResignActive first"
        case .activeFromBackgroundWithoutForeground: return "\(prefix)WillEnterForeground first"
        case .launchRepeated: return "one launch per process"
        case .unexpectedStateCallback:
            switch step {
            case .terminate: return "applicationDidEnterBackground before applicationWillTerminate"
            case .enterForeground: return "\(prefix)WillEnterForeground only from the background"
            case .becomeActive: return "\(prefix)WillResignActive between two activations"
            default: return "\(prefix)DidBecomeActive after \(prefix)WillEnterForeground"
            }
        default: return nil
        }
    }

    /// `subject`'s `callback` was logged on `thread`, where the session's main thread is `main`.
    static func offMainThreadWording(subject: String, callback: Callback, thread: ThreadID, main: ThreadID) -> Wording {
        Wording(message: "\(subject) \(callback.rawValue) was logged on thread \(thread), not the main thread \(main)",
                expected: "thread \(main)", actual: "thread \(thread)")
    }

    /// Added to a foreground entry that breaks the app's state order, in an app that logs no resign-active or
    /// enter-background callback anywhere before it.
    static let noLoggedWayOutOfForeground = "; this app logs no resign-active or enter-background callback anywhere before, so the log cannot show how it left the foreground"

    // MARK: Leaks

    /// `controller` was taken off a stack by the transition of `kind` and not deallocated: `within` says how long was
    /// waited; `silent` when it left without callbacks (an intermediate of a pop-to-root); `confirmed` when its class logs
    /// dealloc elsewhere.
    static func leakWording(controller name: String, kind: TransitionKind, within: String, silent: Bool, confirmed: Bool) -> Wording {
        let how = silent ? "was taken off its stack, without callbacks, by the \(kind.rawValue) ending here" : "left with the \(kind.rawValue) ending here"
        let proof = silent ? "; it was never seen again, but without instance addresses this is not proof" : ""
        return Wording(message: "\(name) \(how) and was not deallocated \(within)"
                           + (confirmed ? "" : "; its class never logs dealloc/deinit, so this cannot be confirmed") + proof,
                       expected: "dealloc/deinit \(within)", actual: "no dealloc/deinit")
    }

    // MARK: Transitions and sessions

    static func willAppearTwiceWording(controller: String) -> Wording {
        Wording(message: "viewWillAppear on \(controller) again while it is appearing, with nothing else taking part: one controller told twice",
                expected: "one viewWillAppear per appearance", actual: "viewWillAppear again")
    }

    static func loadLoopWording(className: String, cycles: Int, firstLine: Int) -> Wording {
        Wording(message: "\(className) loaded its view \(cycles) times in a row from line \(firstLine), with nothing between: a loadView that does not set `view` loads again on every access",
                expected: "one load per view", actual: "the same load cycle \(cycles) times")
    }

    static func viewAppearedWhileCoveredWording(view: String, controller: String, coveredAt line: Int) -> Wording {
        Wording(message: "onAppear on SwiftUI view \(view) while \(controller), which hosts it, is covered (viewDidDisappear at line \(line), not shown again since)",
                expected: "onAppear when \(controller) appears again", actual: "onAppear while covered")
    }

    /// A transition declared as `declared` (at `declaredLine`) went on with `actual` where its template has `expected`.
    static func transitionOrderWording(declared: TransitionKind, declaredLine: Int, expected: String, actual: String) -> Wording {
        Wording(message: "\(declared.rawValue) declared at line \(declaredLine) expects \(expected) next, but \(actual) came",
                expected: expected, actual: actual)
    }

    /// `actual` fits no transition template after the steps `before` (each "Controller callback").
    static func transitionUnrecognizedWording(actual: String, before: [String]) -> Wording {
        Wording(message: "\(actual) fits no UIKit transition" + (before.isEmpty ? "" : " after " + before.joined(separator: " → ")),
                actual: actual)
    }

    static func slowTransitionWording(kind: TransitionKind, controllers: [String], durationMs: Double, thresholdMs: Double) -> Wording {
        Wording(message: "\(kind.rawValue) \(controllers.joined(separator: " → ")) took \(TextFormat.measure(durationMs)) ms (threshold \(TextFormat.measure(thresholdMs)) ms)",
                expected: "at most \(TextFormat.measure(thresholdMs)) ms", actual: "\(TextFormat.measure(durationMs)) ms")
    }

    /// The logged time went back by `stepMs` from `previous` to `time`.
    static func clockWentBackWording(stepMs: Double, previous: String, time: String) -> Wording {
        Wording(message: "the logged time went back \(TextFormat.duration(stepMs)), from \(previous) to \(time); durations across the step count it as zero",
                expected: "a time at or after \(previous)", actual: time)
    }

    /// Added to a finding that only some readings of a log naming controllers by class need.
    static let ambiguousIdentity = " (the log names controllers by class, and it is ambiguous here: in another reading of which instance "
        + "each callback was for, this does not happen; log the instance, as `print(self, #function)` does, to make it certain)"

    // MARK: The run against a model of earlier runs

    /// `runs`: how many runs the model holds.
    private static func modelRuns(_ runs: Int) -> String { runs == 1 ? "the model's run" : "the model's \(runs) runs" }

    /// A transition the model never saw; `otherKinds`: the kinds the model has between the same classes.
    static func newTransitionWording(_ path: String, modelRuns runs: Int, otherKinds: [String]) -> Wording {
        let others = otherKinds.isEmpty ? "" : "; the model has it as \(otherKinds.joined(separator: " or "))"
        return Wording(message: "\(path) is new: it never happened in \(modelRuns(runs))\(others)",
                       expected: otherKinds.isEmpty ? nil : otherKinds.joined(separator: " or "), actual: path)
    }

    static func newControllerWording(_ className: String, modelRuns runs: Int) -> Wording {
        Wording(message: "\(className) is new: no instance of it appeared in \(modelRuns(runs))")
    }

    /// A transition every run of the model took, which this run never took.
    static func missingTransitionWording(_ path: String, modelRuns runs: Int, count: Int) -> Wording {
        let every = runs == 1 ? "in the model's run" : "in every one of the model's \(runs) runs"
        return Wording(message: "\(path) did not happen in this run; it happened \(every) (\(TextFormat.plural(count, "time")) in all)",
                       expected: path)
    }

    /// `what` took `percent` % longer at `percentile` (50, 90) than in the model: `ms` against `modelMs`, over
    /// `samples` timings here and `modelSamples` in the model.
    static func slowerThanModelWording(_ what: String, percentile: Int, ms: Double, modelMs: Double, samples: Int,
                                       modelSamples: Int) -> Wording {
        let slower = modelMs > 0 ? "\(Int(min((ms / modelMs - 1) * 100, 1e9).rounded())) % slower" : "slower"
        let name = percentile == 50 ? "median" : "p\(percentile)"
        return Wording(message: "\(what) is \(slower) than the model at its \(name): \(TextFormat.measure(ms)) ms "
                           + "against \(TextFormat.measure(modelMs)) ms (\(samples) timings here, \(modelSamples) in the model)",
                       expected: "at most \(TextFormat.measure(modelMs)) ms at the \(name)", actual: "\(TextFormat.measure(ms)) ms")
    }

    // MARK: Whole inputs

    /// No lifecycle event was read from `input`, of `lines` lines: `read` says how they were read (counts by
    /// disposition), `skipped` how many were blank or skipped, `otherProcesses` how many of those the process filter
    /// left out (nil without one).
    static func noLifecycleEventsWording(input: String, lines: Int, read: String, skipped: Int, otherProcesses: Int?) -> Wording {
        let filtered = otherProcesses.map { ", \($0) of them of processes --process/--pid leave out" } ?? ""
        return Wording(message: "no lifecycle event was read from \(input) (\(lines) lines: \(read), \(skipped) blank or skipped\(filtered)); `lctrace lines \(input)` shows how each line was read",
                       expected: "view controller, app or scene callbacks", actual: "none")
    }

    /// `unread` of the `namingCallbacks` lines of `input` that name a lifecycle callback could not be read; `firstLines`
    /// are the numbers of the first of them.
    static func unreadLifecycleLinesWording(input: String, unread: Int, namingCallbacks: Int, firstLines: [Int]) -> Wording {
        let listed = firstLines.map(String.init).joined(separator: ", ") + (unread > firstLines.count ? ", …" : "")
        return Wording(message: "\(unread) of the \(namingCallbacks) lines that name a lifecycle callback could not be read as one "
                           + "(lines \(listed)): no controller was found around the callback; "
                           + "`lctrace lines --only unread \(input)` shows them and why",
                       expected: "a controller and its callback on each line", actual: "\(unread) lines unread")
    }

    /// The post-mortem: the session ended mid-transition (`inFlight`) or in the foreground (`state`).
    static func sessionEndedWording(inFlight: Bool, state: String, lastEvents: String) -> Wording {
        let why = inFlight ? "in the middle of a transition" : "with the app \(state), before any didEnterBackground or willTerminate"
        return Wording(message: "the session ends \(why) (a crash or a kill looks like this); last events: " + lastEvents,
                       expected: "applicationDidEnterBackground or applicationWillTerminate", actual: "end of session")
    }
}
