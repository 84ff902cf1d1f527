/// Where one view-controller instance is in its life (lifecycle-ground-truth §11.2).
public enum ControllerPhase: String, Sendable, CaseIterable {
    /// Nothing seen yet, or the log started after the instance's view was loaded: any first callback is accepted.
    case unknown
    /// loadView seen, viewDidLoad not yet.
    case loading
    /// View loaded, not on screen.
    case hidden
    case appearing
    case visible
    case disappearing
    /// View released by viewDidUnload (iOS 5 and earlier).
    case unloaded
    /// dealloc/deinit seen.
    case dead

    /// Position in `allCases`, for flat tables: a field-less enum is stored as its case index (checked by a test).
    var ordinal: Int { Int(unsafeBitCast(self, to: UInt8.self)) }

    /// Not in the middle of an appearance change.
    var isAtRest: Bool { self != .appearing && self != .disappearing }
}

/// What a callback does to an instance in a given phase.
enum ControllerStepOutcome: Equatable {
    /// Legal: the instance moves to this phase.
    case to(ControllerPhase)
    /// A deviation: report `rule`, then continue from `next` as if the callback were legal.
    case violation(Rule, next: ControllerPhase)
    /// viewDidLoad on an instance whose view should already be loaded: the instance's history decides.
    case viewLoadedAgain
    /// A creation callback on a dead instance: a new instance (same class, or a reused address) begins.
    case newInstance
}

/// The per-instance automaton as a table: phase → callback → outcome. A callback a phase does not list
/// leaves the phase unchanged and is legal (layout, memory warnings, containment callbacks…).
enum ControllerAutomaton {
    static let table: [ControllerPhase: [Callback: ControllerStepOutcome]] = [
        .unknown: [
            .loadView: .to(.loading), .viewDidLoad: .to(.hidden),
            .viewWillAppear: .to(.appearing), .viewIsAppearing: .to(.appearing), .viewDidAppear: .to(.visible),
            .viewWillDisappear: .to(.disappearing), .viewDidDisappear: .to(.hidden),
            .viewDidUnload: .to(.unloaded), .dealloc: .to(.dead),
        ],
        .loading: [
            .viewDidLoad: .to(.hidden),
            .viewWillAppear: .violation(.appearanceBeforeViewDidLoad, next: .appearing),
            .viewIsAppearing: .violation(.appearanceBeforeViewDidLoad, next: .appearing),
            .viewDidAppear: .violation(.appearanceBeforeViewDidLoad, next: .visible),
            .viewWillDisappear: .violation(.appearanceBeforeViewDidLoad, next: .disappearing),
            .viewDidDisappear: .violation(.appearanceBeforeViewDidLoad, next: .hidden),
            .viewWillLayoutSubviews: .violation(.appearanceBeforeViewDidLoad, next: .loading),
            .viewDidLayoutSubviews: .violation(.appearanceBeforeViewDidLoad, next: .loading),
            .dealloc: .to(.dead),
        ],
        .hidden: [
            .viewDidLoad: .viewLoadedAgain,
            .viewWillAppear: .to(.appearing),
            .viewIsAppearing: .violation(.isAppearingOutsideAppearance, next: .hidden),
            .viewDidAppear: .violation(.didAppearWithoutWillAppear, next: .visible),
            .viewWillDisappear: .violation(.unbalancedWillCallback, next: .disappearing),
            .viewDidDisappear: .violation(.didDisappearWithoutWillDisappear, next: .hidden),
            .viewDidUnload: .to(.unloaded),
            .dealloc: .to(.dead),
        ],
        .appearing: [
            .viewDidLoad: .viewLoadedAgain,
            .viewWillAppear: .violation(.unbalancedWillCallback, next: .appearing),
            .viewIsAppearing: .to(.appearing),
            .viewDidAppear: .to(.visible),
            .viewWillDisappear: .to(.disappearing),  // cancelled appearance (§5)
            .viewDidDisappear: .violation(.didDisappearWithoutWillDisappear, next: .hidden),
            .viewWillUnload: .violation(.viewUnloadedWhileVisible, next: .appearing),
            .viewDidUnload: .violation(.viewUnloadedWhileVisible, next: .appearing),
            .dealloc: .violation(.deallocWhileOnScreen, next: .dead),
        ],
        .visible: [
            .viewDidLoad: .viewLoadedAgain,
            .viewWillAppear: .violation(.unbalancedWillCallback, next: .appearing),
            .viewIsAppearing: .violation(.isAppearingOutsideAppearance, next: .visible),
            .viewDidAppear: .violation(.didAppearTwice, next: .visible),
            .viewWillDisappear: .to(.disappearing),
            .viewDidDisappear: .violation(.didDisappearWithoutWillDisappear, next: .hidden),
            .viewWillUnload: .violation(.viewUnloadedWhileVisible, next: .visible),
            .viewDidUnload: .violation(.viewUnloadedWhileVisible, next: .visible),
            .dealloc: .violation(.deallocWhileOnScreen, next: .dead),
        ],
        .disappearing: [
            .viewDidLoad: .viewLoadedAgain,
            .viewWillAppear: .to(.appearing),  // cancelled disappearance (§5)
            .viewIsAppearing: .violation(.isAppearingOutsideAppearance, next: .disappearing),
            .viewDidAppear: .violation(.didAppearWithoutWillAppear, next: .visible),
            .viewWillDisappear: .violation(.unbalancedWillCallback, next: .disappearing),
            .viewDidDisappear: .to(.hidden),
            .viewWillUnload: .violation(.viewUnloadedWhileVisible, next: .disappearing),
            .viewDidUnload: .violation(.viewUnloadedWhileVisible, next: .disappearing),
            .dealloc: .violation(.deallocWhileOnScreen, next: .dead),
        ],
        .unloaded: [
            .loadView: .to(.loading), .viewDidLoad: .to(.hidden),
            .viewWillAppear: .violation(.appearanceBeforeViewDidLoad, next: .appearing),
            .viewIsAppearing: .violation(.appearanceBeforeViewDidLoad, next: .appearing),
            .viewDidAppear: .violation(.appearanceBeforeViewDidLoad, next: .visible),
            .viewWillDisappear: .violation(.appearanceBeforeViewDidLoad, next: .disappearing),
            .viewDidDisappear: .violation(.appearanceBeforeViewDidLoad, next: .hidden),
            .dealloc: .to(.dead),
        ],
        .dead: [
            .initialize: .newInstance, .loadView: .newInstance, .viewDidLoad: .newInstance,
        ],
    ]

    /// Rules about a callback repeating on "one" instance: without instance addresses two instances of a class
    /// look like one, so these are at most warnings then (ground truth §11.1).
    static let rulesNeedingIdentity: Set<Rule> = [.didAppearTwice, .unbalancedWillCallback, .viewLoadedTwice, .callbackAfterDealloc]

    /// The outcome of `callback` in `phase`: the table's cell, else `callback-after-dealloc` for a dead
    /// instance, else legal with no change of phase.
    static func outcome(of callback: Callback, in phase: ControllerPhase) -> ControllerStepOutcome {
        cells[phase.ordinal * Callback.allCases.count + callback.ordinal]
    }

    /// `table` with its defaults filled in, as one flat array indexed by phase and callback: one load per callback.
    private static let cells: [ControllerStepOutcome] = ControllerPhase.allCases.flatMap { phase in
        Callback.allCases.map { callback in
            if let outcome = table[phase]?[callback] { return outcome }
            if phase == .dead { return .violation(.callbackAfterDealloc, next: .dead) }
            return .to(phase)
        }
    }
}
