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

    /// The app is known to have left the foreground (background) or ended (terminated, disconnected), or every scene
    /// has.
    var reachedBackgroundOrEnd: Bool {
        if appPhase.isBackgroundOrEnd { return true }
        return !scenes.isEmpty && scenes.values.allSatisfy { $0.report.finalPhase.isBackgroundOrEnd }
    }

    /// Takes one app-delegate or scene-delegate callback; returns the deviations it reveals. The message, with its
    /// names written out, is made only where it is read: for a scene's callback, and for a finding.
    mutating func take(_ callback: Callback, line: Int, message: @autoclosure () -> LifecycleMessage) -> [Deviation] {
        guard let step = ActivityStep(callback) else { return [] }
        var deviations: [Deviation] = []
        let isScene = callback.family == .scene
        let launchedBefore = sawFinishLaunching
        if step == .launch {
            sawFinishLaunching = true
            if let early = firstStateBeforeLaunch {
                let wording = RuleCatalog.stateBeforeLaunchWording(callback: early.callback, line: early.line, launchLine: line)
                deviations.append(Deviation(rule: .stateCallbackBeforeLaunch, line: early.line, subject: "AppDelegate", wording))
                firstStateBeforeLaunch = nil
            }
        } else if launchLogged, !sawFinishLaunching, firstStateBeforeLaunch == nil, step != .willLaunch, step != .terminate {
            firstStateBeforeLaunch = (line, callback)
        }
        // Appended only when there is one: adding an empty list to the empty one still made a new one.
        if let mixed = mixedFamilies(step, isScene: isScene, line: line) { deviations.append(mixed) }

        if isScene {
            let sceneDeviations = takeScene(step, callback: callback, line: line, message: message())
            if !sceneDeviations.isEmpty { deviations += sceneDeviations }
        } else {
            let result = ActivityAutomaton.step(step, from: appPhase)
            // A launch is "repeated" only after one was seen: state reached without one (a late log, or callbacks
            // before launch, reported on their own) does not count.
            if let rule = result.violation, rule != .launchRepeated || launchedBefore {
                let wording = RuleCatalog.appStateWording(rule, callback: callback, step: step, phase: appPhase)
                deviations.append(Deviation(rule: rule, line: line, subject: message().className ?? "AppDelegate", wording))
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
                let wording = RuleCatalog.sceneNotConnectedWording(callback: early.callback, scene: id, line: early.line, connectLine: line)
                deviations.append(Deviation(rule: .sceneNotConnected, line: early.line, subject: id, wording))
            }
            scene.stateBeforeConnect = nil
        } else if step.isStateChange, scene.report.finalPhase == .unknown {
            if isNew, launchLogged, sawConnect {
                let wording = RuleCatalog.sceneNotConnectedWording(callback: callback, scene: id, line: line, connectLine: nil)
                deviations.append(Deviation(rule: .sceneNotConnected, line: line, subject: id, wording))
            } else if scene.stateBeforeConnect == nil {
                scene.stateBeforeConnect = (line, callback)
            }
        }
        let result = ActivityAutomaton.step(step, from: scene.report.finalPhase)
        if let rule = result.violation {
            let wording = RuleCatalog.sceneStateWording(rule, callback: callback, step: step, scene: id, phase: scene.report.finalPhase,
                                                        addressed: message.address != nil)
            deviations.append(Deviation(rule: rule, line: line, subject: id, wording, cap: message.address == nil ? .warning : nil))
        }
        scene.report.finalPhase = result.next
        scene.report.eventCount += 1
        scenes[key] = scene
        return deviations
    }

    /// App-delegate activation callbacks and scene callbacks in one session (§2): reported once.
    private mutating func mixedFamilies(_ step: ActivityStep, isScene: Bool, line: Int) -> Deviation? {
        if isScene {
            if firstSceneCallback == nil { firstSceneCallback = line }
        } else if step.isStateChange {
            if firstAppStateChange == nil { firstAppStateChange = line }
        }
        guard !reportedMixedFamilies, let app = firstAppStateChange, let scene = firstSceneCallback else { return nil }
        reportedMixedFamilies = true
        return Deviation(rule: .appCallbacksWithScenes, line: line, subject: "AppDelegate",
                         RuleCatalog.appCallbacksWithScenesWording(appLine: app, sceneLine: scene))
    }
}
