import OrderedCollections

/// The app delegate and the scenes of one session: runs `ActivityAutomaton` for the app and for each scene
/// (keyed by address when logged, else by delegate class) and checks the launch-order rules of §1–§2.
struct ActivityTracker {
    private struct SceneState {
        var report: SceneReport
        /// The first state callback seen before the scene's willConnectTo, if any.
        var stateBeforeConnect: (line: Int, callback: Callback)?
    }

    /// The session's start is in the log (main() or a new process id), so "before launch" can be judged.
    let launchLogged: Bool
    private(set) var appPhase: ActivityPhase = .unknown
    private var scenes: OrderedDictionary<String, SceneState> = [:]
    private(set) var sawFinishLaunching = false
    private var firstStateBeforeLaunch: (line: Int, callback: Callback)?
    private var sawConnect = false
    private var firstAppStateChange: Int?
    private var firstSceneCallback: Int?
    private var reportedMixedFamilies = false

    init(launchLogged: Bool) {
        self.launchLogged = launchLogged
    }

    var sceneReports: [SceneReport] { scenes.values.map(\.report) }

    /// The app is known to have left the foreground for good (background, terminated) or every scene has.
    var reachedBackgroundOrEnd: Bool {
        let ended: Set<ActivityPhase> = [.background, .terminated, .disconnected]
        if ended.contains(appPhase) { return true }
        return !scenes.isEmpty && scenes.values.allSatisfy { ended.contains($0.report.finalPhase) }
    }

    /// Takes one app-delegate or scene-delegate callback; returns the deviations it reveals.
    mutating func take(_ callback: Callback, line: Int, message: LifecycleMessage) -> [Deviation] {
        guard let step = ActivityStep(callback) else { return [] }
        var deviations: [Deviation] = []
        let isScene = callback.family == .scene
        let launchedBefore = sawFinishLaunching
        if step == .launch {
            sawFinishLaunching = true
            if let early = firstStateBeforeLaunch {
                deviations.append(Deviation(
                    rule: .stateCallbackBeforeLaunch, line: early.line, subject: "AppDelegate",
                    message: "\(early.callback.rawValue) (line \(early.line)) came before didFinishLaunching (line \(line))",
                    expected: "application:didFinishLaunchingWithOptions first", actual: early.callback.rawValue))
                firstStateBeforeLaunch = nil
            }
        } else if launchLogged, !sawFinishLaunching, firstStateBeforeLaunch == nil, step != .willLaunch, step != .terminate {
            firstStateBeforeLaunch = (line, callback)
        }
        deviations += mixedFamilies(step, isScene: isScene, line: line)

        if isScene {
            deviations += takeScene(step, callback: callback, line: line, message: message)
        } else {
            let result = ActivityAutomaton.step(step, from: appPhase)
            // A launch is "repeated" only after one was seen: state reached without one (a late log, or callbacks
            // before launch, reported on their own) does not count.
            if let rule = result.violation, rule != .launchRepeated || launchedBefore {
                deviations.append(Deviation(
                    rule: rule, line: line, subject: message.className ?? "AppDelegate",
                    message: "\(callback.rawValue) while the app is \(appPhase.rawValue)",
                    expected: ActivityAutomaton.expectation(rule, step: step, scene: false), actual: callback.rawValue))
            }
            appPhase = result.next
        }
        return deviations
    }

    private mutating func takeScene(_ step: ActivityStep, callback: Callback, line: Int, message: LifecycleMessage) -> [Deviation] {
        let className = message.className ?? "SceneDelegate"
        let key = message.address ?? className
        let isNew = scenes[key] == nil
        var scene = scenes[key] ?? SceneState(report: SceneReport(
            id: message.address.map { "\(className)@\($0)" } ?? className, className: className, address: message.address,
            firstLine: line, eventCount: 0, finalPhase: .unknown))
        var deviations: [Deviation] = []
        let id = scene.report.id
        if step == .connect {
            sawConnect = true
            if launchLogged, let early = scene.stateBeforeConnect {
                deviations.append(Deviation(
                    rule: .sceneNotConnected, line: early.line, subject: id,
                    message: "\(early.callback.rawValue) on \(id) (line \(early.line)) came before its willConnectTo (line \(line))",
                    expected: "scene:willConnectToSession:options first", actual: early.callback.rawValue))
            }
            scene.stateBeforeConnect = nil
        } else if step.isStateChange, scene.report.finalPhase == .unknown {
            if isNew, launchLogged, sawConnect {
                deviations.append(Deviation(
                    rule: .sceneNotConnected, line: line, subject: id,
                    message: "\(callback.rawValue) on \(id), which never connected (no willConnectTo in this process)",
                    expected: "scene:willConnectToSession:options first", actual: callback.rawValue))
            } else if scene.stateBeforeConnect == nil {
                scene.stateBeforeConnect = (line, callback)
            }
        }
        let result = ActivityAutomaton.step(step, from: scene.report.finalPhase)
        if let rule = result.violation {
            deviations.append(Deviation(
                rule: rule, line: line, subject: id,
                message: "\(callback.rawValue) while \(id) is \(scene.report.finalPhase.rawValue)"
                    + (message.address == nil ? " (no scene address: several scenes may interleave)" : ""),
                expected: ActivityAutomaton.expectation(rule, step: step, scene: true), actual: callback.rawValue,
                cap: message.address == nil ? .warning : nil))
        }
        scene.report.finalPhase = result.next
        scene.report.eventCount += 1
        scenes[key] = scene
        return deviations
    }

    /// App-delegate activation callbacks and scene callbacks in one session (§2): reported once.
    private mutating func mixedFamilies(_ step: ActivityStep, isScene: Bool, line: Int) -> [Deviation] {
        if isScene {
            if firstSceneCallback == nil { firstSceneCallback = line }
        } else if step.isStateChange {
            if firstAppStateChange == nil { firstAppStateChange = line }
        }
        guard !reportedMixedFamilies, let app = firstAppStateChange, let scene = firstSceneCallback else { return [] }
        reportedMixedFamilies = true
        return [Deviation(
            rule: .appCallbacksWithScenes, line: line, subject: "AppDelegate",
            message: "app-delegate activation callbacks (line \(app)) and scene callbacks (line \(scene)) in one launch: the app forwards them by hand, or its scene manifest is misconfigured",
            expected: "scene callbacks only", actual: "both")]
    }
}
