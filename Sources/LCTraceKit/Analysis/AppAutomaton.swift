/// The app-delegate state machine of lifecycle-ground-truth §3 (scene-less apps).
public enum AppPhase: String, Sendable {
    /// Nothing seen yet (or the log started after launch): the first callback is accepted.
    case unknown
    case launching
    case inactive
    case active
    case background
    case terminated
}

enum AppAutomaton {
    /// Phase → callback → outcome. Callbacks a phase does not list move to the phase the callback always
    /// implies (`implied`), legally: only the two impossible edges of §11.4 are errors here.
    static let violations: [AppPhase: [Callback: Rule]] = [
        .active: [.applicationDidEnterBackground: .backgroundWithoutResignActive],
        .background: [.applicationDidBecomeActive: .activeFromBackgroundWithoutForeground],
    ]

    static let implied: [Callback: AppPhase] = [
        .willFinishLaunching: .launching,
        .didFinishLaunching: .inactive,
        .applicationDidBecomeActive: .active,
        .applicationWillResignActive: .inactive,
        .applicationDidEnterBackground: .background,
        .applicationWillEnterForeground: .inactive,
        .applicationWillTerminate: .terminated,
    ]

    /// The next phase and the rule broken, if any.
    static func step(_ callback: Callback, from phase: AppPhase) -> (next: AppPhase, violation: Rule?) {
        let next = implied[callback] ?? phase
        return (next, violations[phase]?[callback])
    }
}
