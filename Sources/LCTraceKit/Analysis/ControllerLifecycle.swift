/// Where one view-controller instance is in its life (lifecycle-ground-truth §11.2).
public enum ControllerPhase: String, Sendable, CaseIterable, BitwiseCopyable, CaseOrdinal {
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

    /// Not in the middle of an appearance change.
    var isAtRest: Bool { self != .appearing && self != .disappearing }
}

/// What a callback does to an instance in a given phase.
enum ControllerStepOutcome: Equatable, BitwiseCopyable {
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
    /// Controllers' and SwiftUI views' rows together: their callbacks never meet in one cell.
    static let table: [ControllerPhase: [Callback: ControllerStepOutcome]] =
        controllerTable.merging(viewTable) { controller, view in controller.merging(view) { first, _ in first } }

    static let controllerTable: [ControllerPhase: [Callback: ControllerStepOutcome]] = [
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

    /// The outcome of `callback` in `phase`: the table's cell, else `callback-after-dealloc` for a dead
    /// instance, else legal with no change of phase.
    static func outcome(of callback: Callback, in phase: ControllerPhase) -> ControllerStepOutcome {
        Cells.shared.outcome(of: callback, in: phase)
    }

    /// `table` with its defaults filled in, as one flat table indexed by phase and callback: one load per callback.
    /// `InstanceRegistry` holds it, so that stepping an instance on every callback skips the check, on each read of the
    /// lazily made static, that it was made; the table is permanent (`PermanentTable`), so that holding it counts no
    /// references.
    struct Cells {
        static let shared = Cells()
        private let cells: PermanentTable<ControllerStepOutcome>
        private let callbackCount = Callback.allCases.count

        private init() {
            cells = PermanentTable(ControllerPhase.allCases.flatMap { phase in
                Callback.allCases.map { callback in
                    if let outcome = table[phase]?[callback] { return outcome }
                    if phase == .dead { return .violation(.callbackAfterDealloc, next: .dead) }
                    return .to(phase)
                }
            })
        }

        @inline(__always)
        func outcome(of callback: Callback, in phase: ControllerPhase) -> ControllerStepOutcome {
            cells[phase.ordinal &* callbackCount &+ callback.ordinal]
        }
    }

    /// A SwiftUI view's life (`Callback.Family.view`), in the same phases: hidden → onAppear → visible → onDisappear →
    /// hidden. onAppear again after onDisappear is legal (a row scrolled back into a List, a tab selected again); task
    /// is legal in every phase (it starts as the view appears). onDisappear on a view not known to be visible is not a
    /// finding: the log may have started while it was on screen. A view logs no init or dealloc, so it never dies.
    static let viewTable: [ControllerPhase: [Callback: ControllerStepOutcome]] = [
        .unknown: [.onAppear: .to(.visible), .onDisappear: .to(.hidden)],
        .hidden: [.onAppear: .to(.visible)],
        .visible: [.onAppear: .violation(.viewAppearedTwice, next: .visible), .onDisappear: .to(.hidden)],
    ]
}

/// A per-controller deviation, with the facts its finding's message is written from.
struct LifecycleViolation {
    var rule: Rule
    var callback: Callback
    /// The phase the instance was in when the callback came.
    var phase: ControllerPhase
    /// For a viewDidLoad that came late: the appearance or layout callback before it, and its line.
    var earlier: (line: Int, callback: Callback)?
}

/// One view-controller instance through its life: the automaton above, and beside it every per-instance rule the
/// table alone cannot decide (a view loaded again, containment brackets, UIKit's notices about the instance). Every
/// per-controller rule is decided here, and nowhere else.
struct ControllerLifecycle {
    private(set) var phase: ControllerPhase = .unknown
    /// A viewDidLoad was seen in the instance's current view life.
    private(set) var hasLoadedView = false
    /// A memory warning or viewDidUnload since the last viewDidLoad: the next viewDidLoad is a reload.
    private(set) var viewMayBeUnloaded = false
    /// The first appearance/layout callback seen while no viewDidLoad was (a log that starts late, or a bug).
    private var appearanceWithoutLoad: (line: Int, callback: Callback)?
    private var loadMicros: Int64?
    private var appearedMicros: Int64?
    /// The instance's first callback in the log, and the line of its first appearance callback.
    private(set) var firstCallback: Callback?
    private(set) var firstAppearanceLine: Int?
    /// Containment (§7): it logged willMove/didMove or begin/endAppearanceTransition, so it is a child.
    private(set) var isChild = false
    /// The containment pairs whose closing callback has not come yet: a bit each, by position in `containmentPairs`. A
    /// plain value rather than a set, so that a lifecycle holds no storage of its own: a list of them is copied (each
    /// identity reading copies the registry's) and freed without a walk through it.
    private var openContainment: UInt8 = 0

    /// Containment pairs (§7): the closing callback needs an open one; a second opening is legal (for
    /// beginAppearanceTransition it cancels the first).
    static let containmentPairs: [(open: Callback, close: Callback, rule: Rule)] = [
        (.willMoveToParentViewController, .didMoveToParentViewController, .didMoveWithoutWillMove),
        (.beginAppearanceTransition, .endAppearanceTransition, .unbalancedAppearanceTransition),
    ]

    /// The view is loaded and the instance has not appeared yet: what a push or present is about to show.
    var isFreshlyLoaded: Bool { hasLoadedView && firstAppearanceLine == nil && phase == .hidden }

    /// On screen, or in a transition onto or off it.
    var isOnScreen: Bool { phase == .visible || phase == .appearing || phase == .disappearing }

    /// The instance logged nothing but its creation so far.
    var isOnlyCreated: Bool { firstCallback == .initialize && phase == .unknown && !hasLoadedView }

    /// What `callback` does to this instance: nil when it is legal, else the rule it breaks. Changes nothing, so that
    /// the instance registry can ask each of several instances sharing a class name.
    func judge(_ callback: Callback) -> Rule? {
        judge(callback, outcome: ControllerAutomaton.outcome(of: callback, in: phase))
    }

    /// `judge`, with the automaton's outcome for the callback already looked up. Inlined: called from `take`, a
    /// mutating method, it would be handed a copy of the whole lifecycle.
    @inline(__always)
    private func judge(_ callback: Callback, outcome: ControllerStepOutcome) -> Rule? {
        if let rule = callback.noticeRule { return rule }
        if callback == .viewDidLoad { return viewLoadRule(outcome: outcome) }
        if callback.isContainmentCallback {
            let pairs = ControllerLifecycle.containmentPairs
            guard let position = pairs.firstIndex(where: { $0.close == callback }) else { return nil }
            return openContainment & 1 << position != 0 ? nil : pairs[position].rule
        }
        if case .violation(let rule, _) = outcome { return rule }
        return nil
    }

    /// viewDidLoad (§4, §8): legal the first time and after a memory warning or unload; a reload while on screen
    /// is suspicious; after appearance callbacks of the same view life it came late; otherwise the view loaded twice.
    private func viewLoadRule(outcome: ControllerStepOutcome) -> Rule? {
        if appearanceWithoutLoad != nil, !hasLoadedView { return .appearanceBeforeViewDidLoad }
        guard outcome == .viewLoadedAgain else { return nil }
        if viewMayBeUnloaded || !hasLoadedView { return phase == .visible ? .viewReloadedWhileVisible : nil }
        return .viewLoadedTwice
    }

    /// Takes the callback: moves the automaton, keeps the view-life facts, and records the instance's appearances in
    /// its report, listing at most `listedAppearances`. Returns the deviation it was, if any. `outcomes` is the
    /// automaton's table (`ControllerAutomaton.Cells.shared`), held by the caller.
    /// Marked to be inlined into `InstanceRegistry.take`, its one caller, which runs for every controller callback.
    @inline(__always)
    mutating func take(_ callback: Callback, line: Int, micros: Int64?, listedAppearances: Int,
                       report: inout ControllerReport, outcomes: borrowing ControllerAutomaton.Cells) -> LifecycleViolation? {
        let outcome = outcomes.outcome(of: callback, in: phase)
        let rule = judge(callback, outcome: outcome)
        let violation = rule.map { LifecycleViolation(rule: $0, callback: callback, phase: phase, earlier: appearanceWithoutLoad) }
        var flagged = false
        if callback.noticeRule != nil {
            // UIKit's notice about the instance: a finding, not a step of its life.
        } else if callback == .viewDidLoad {
            if case .to(let next) = outcome { phase = next }
            flagged = rule == .appearanceBeforeViewDidLoad || rule == .viewLoadedTwice
            markLoaded()
        } else {
            if callback.isContainmentCallback { takeContainment(callback) }
            switch outcome {
            case .to(let next):
                phase = next
            case .violation(_, let next):
                phase = next
                flagged = true
            case .viewLoadedAgain, .newInstance:
                break
            }
        }
        record(callback, line: line, micros: micros, flagged: flagged, listedAppearances: listedAppearances, report: &report)
        return violation
    }

    private mutating func takeContainment(_ callback: Callback) {
        assert(ControllerLifecycle.containmentPairs.count <= UInt8.bitWidth, "more containment pairs than bits to keep them")
        isChild = true
        for (position, pair) in ControllerLifecycle.containmentPairs.enumerated() {
            if callback == pair.open { openContainment |= 1 << position }
            if callback == pair.close { openContainment &= ~(1 << position) }
        }
    }

    private mutating func markLoaded() {
        if phase == .unknown || phase == .loading || phase == .unloaded { phase = .hidden }
        hasLoadedView = true
        viewMayBeUnloaded = false
        appearanceWithoutLoad = nil
    }

    /// Book-keeping after the step: view-life facts, durations, the report's appearances.
    private mutating func record(_ callback: Callback, line: Int, micros: Int64?, flagged: Bool, listedAppearances: Int,
                                 report: inout ControllerReport) {
        if firstCallback == nil { firstCallback = callback }
        if callback.isAppearanceCallback, firstAppearanceLine == nil { firstAppearanceLine = line }
        report.eventCount += 1
        report.lastLine = line
        switch callback {
        case .viewDidLoad:
            loadMicros = micros
        case .didReceiveMemoryWarning, .viewDidUnload:
            viewMayBeUnloaded = true
            appearanceWithoutLoad = nil
            if callback == .viewDidUnload { hasLoadedView = false }
        case .viewWillAppear, .viewIsAppearing, .viewDidAppear, .viewWillDisappear, .viewDidDisappear,
             .viewWillLayoutSubviews, .viewDidLayoutSubviews:
            if !flagged, !hasLoadedView, !viewMayBeUnloaded, appearanceWithoutLoad == nil {
                appearanceWithoutLoad = (line, callback)
            }
        default:
            break
        }
        if callback == .viewDidAppear, phase == .visible {
            // The first appearance, listed or not (none is listed when nothing reads the report's appearances).
            if report.loadToFirstAppearMs == nil, report.appearances.isEmpty, report.appearancesNotListed == 0 {
                report.loadToFirstAppearMs = milliseconds(from: loadMicros, to: micros)
            }
            if report.appearances.count < listedAppearances {
                report.appearances.append(AppearanceSpan(appearedLine: line))
            } else {
                report.appearancesNotListed += 1
            }
            appearedMicros = micros
        }
        // Once an appearance went unlisted, a disappearance ends one that is not listed either.
        if callback == .viewDidDisappear, report.appearancesNotListed == 0, let last = report.appearances.indices.last,
           report.appearances[last].disappearedLine == nil {
            report.appearances[last].disappearedLine = line
            report.appearances[last].durationMs = milliseconds(from: appearedMicros, to: micros)
        }
    }
}
