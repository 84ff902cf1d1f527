/// Where the app (scene-less apps) or one scene is in its activation life (lifecycle-ground-truth §3).
public enum ActivityPhase: String, Sendable, CaseIterable, CaseOrdinal {
    /// Nothing seen yet, or the log started late: the first callback is accepted.
    case unknown
    /// willFinishLaunching seen.
    case launching
    /// didFinishLaunching (app) or willConnectTo (scene) seen: foreground-inactive or background, not yet decided.
    case launched
    /// willEnterForeground seen, didBecomeActive not yet.
    case enteringForeground = "entering-foreground"
    case active
    /// willResignActive seen: still in the foreground, not active.
    case inactive
    case background
    /// applicationWillTerminate.
    case terminated
    /// sceneDidDisconnect.
    case disconnected

    /// Out of the foreground (background) or at an end (terminated, disconnected): where a session may stop without
    /// having been cut short.
    var isBackgroundOrEnd: Bool { self == .background || self == .terminated || self == .disconnected }
}

/// The callbacks of the app-delegate and scene-delegate state machines, with the family difference removed.
enum ActivityStep: Sendable, CaseIterable, CaseOrdinal {
    case willLaunch, launch, connect, enterForeground, becomeActive, resignActive, enterBackground, terminate, disconnect

    init?(_ callback: Callback) {
        switch callback {
        case .willFinishLaunching: self = .willLaunch
        case .didFinishLaunching: self = .launch
        case .sceneWillConnect: self = .connect
        case .applicationWillEnterForeground, .sceneWillEnterForeground: self = .enterForeground
        case .applicationDidBecomeActive, .sceneDidBecomeActive: self = .becomeActive
        case .applicationWillResignActive, .sceneWillResignActive: self = .resignActive
        case .applicationDidEnterBackground, .sceneDidEnterBackground: self = .enterBackground
        case .applicationWillTerminate: self = .terminate
        case .sceneDidDisconnect: self = .disconnect
        default: return nil
        }
    }

    /// The phase the step always leads to, whatever it came from.
    var implied: ActivityPhase {
        switch self {
        case .willLaunch: return .launching
        case .launch, .connect: return .launched
        case .enterForeground: return .enteringForeground
        case .becomeActive: return .active
        case .resignActive: return .inactive
        case .enterBackground: return .background
        case .terminate: return .terminated
        case .disconnect: return .disconnected
        }
    }

    /// An activation change (not launch, connection or the end of the process).
    var isStateChange: Bool {
        switch self {
        case .enterForeground, .becomeActive, .resignActive, .enterBackground: return true
        default: return false
        }
    }
}

/// The state machine as a table: phase → step → the rule the step breaks there. Every step leads to the phase
/// it implies; a pair the table does not list is legal. Errors are the two impossible edges of §11.4, warnings
/// the §3 oddities seen in the field; the swipe-kill (resign → disconnect) and the background launch
/// (didFinishLaunching → didEnterBackground) are legal.
enum ActivityAutomaton {
    static let violations: [ActivityPhase: [ActivityStep: Rule]] = [
        .launched: [.resignActive: .unexpectedStateCallback, .willLaunch: .launchRepeated, .launch: .launchRepeated],
        .enteringForeground: [
            .willLaunch: .launchRepeated, .launch: .launchRepeated,
            .enterForeground: .unexpectedStateCallback,
            .resignActive: .unexpectedStateCallback,  // willEnterForeground not followed by didBecomeActive
            .enterBackground: .unexpectedStateCallback,
        ],
        .active: [
            .willLaunch: .launchRepeated, .launch: .launchRepeated,
            .enterBackground: .backgroundWithoutResignActive,
            .enterForeground: .unexpectedStateCallback,
            .becomeActive: .unexpectedStateCallback,
            .terminate: .unexpectedStateCallback,
            .disconnect: .unexpectedStateCallback,
        ],
        .inactive: [
            .willLaunch: .launchRepeated, .launch: .launchRepeated,
            .enterForeground: .unexpectedStateCallback,
            .resignActive: .unexpectedStateCallback,
            .terminate: .unexpectedStateCallback,
        ],
        .background: [
            .willLaunch: .launchRepeated, .launch: .launchRepeated,
            .becomeActive: .activeFromBackgroundWithoutForeground,
            .resignActive: .unexpectedStateCallback,
        ],
    ]

    static func step(_ step: ActivityStep, from phase: ActivityPhase) -> (next: ActivityPhase, violation: Rule?) {
        cells[phase.ordinal * ActivityStep.allCases.count + step.ordinal]
    }

    /// Every step from every phase, worked out once from `violations` into one flat array indexed by phase and step:
    /// one load per callback instead of two dictionary lookups.
    private static let cells: [(next: ActivityPhase, violation: Rule?)] = ActivityPhase.allCases.flatMap { phase in
        ActivityStep.allCases.map { step in
            let violation = violations[phase]?[step]
            // A launch or connection reported after the state already moved on (its own finding) does not move it back.
            if step == .willLaunch || step == .launch || step == .connect,
               ![.unknown, .launching, .terminated, .disconnected].contains(phase) {
                return (phase, violation)
            }
            return (step.implied, violation)
        }
    }
}
