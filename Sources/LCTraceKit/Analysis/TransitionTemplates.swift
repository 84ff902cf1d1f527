/// What a transition between view controllers was.
public enum TransitionKind: String, Sendable, Codable, CaseIterable {
    case push, pop, present, dismiss
    case tabSwitch = "tab-switch"
    case pageScroll = "page-scroll"
    case interactivePopCancelled = "interactive-pop-cancelled"
    case pageScrollCancelled = "page-scroll-cancelled"
    case pageCurlCancelled = "page-curl-cancelled"
    /// Controllers appeared with none disappearing (the root at launch, a sheet, a child added).
    case appear
    /// Controllers disappeared with none appearing (teardown at termination, a sheet dismissed).
    case disappear
    /// Several controllers appeared and disappeared together (containers forwarding to children).
    case compound
    /// One controller left and one arrived in an order no template accepts (flagged).
    case unrecognized
    /// Still in flight when its session ended.
    case incomplete
}

/// The two parts a controller plays in a transition, decided by its first appearance callback in it.
public enum TransitionRole: Sendable {
    /// The controller that was on screen (its first callback is viewWillDisappear/viewDidDisappear): A.
    case outgoing
    /// The controller that is being shown (its first callback is viewWillAppear/viewDidAppear): B.
    case incoming
}

/// One appearance callback of one role, the unit of a template.
public struct TransitionStep: Sendable, Hashable {
    public let role: TransitionRole
    public let callback: Callback
}

/// An ordering UIKit produces when one controller replaces another. Orders across the two controllers
/// differ by transition kind (ground truth §11.3); within one controller `will` always precedes `did`.
public struct TransitionTemplate: Sendable {
    public enum Direction: Sendable {
        /// Shows a new controller on top of the navigation or modal history (push, present).
        case forward
        /// Returns to a controller from the history (pop, dismiss).
        case backward
        /// Neither: siblings swap (tabs, pages) or nothing changes (cancelled gestures).
        case lateral
    }

    public let kind: TransitionKind
    public let direction: Direction
    /// Logged calls whose transition may legally take this shape (a cancelled swipe-back is a logged pop).
    public let satisfies: Set<TransitionKind>
    public let steps: [TransitionStep]
    public let source: String
}

private let A = TransitionRole.outgoing
private let B = TransitionRole.incoming
private func step(_ role: TransitionRole, _ callback: Callback) -> TransitionStep {
    TransitionStep(role: role, callback: callback)
}

/// The transition templates, in the words of lifecycle-ground-truth §4–§7 (A = outgoing, B = incoming).
/// Push and pop share one shape, as do present and dismiss: the navigation history picks the direction.
public enum TransitionTemplates {
    public static let all: [TransitionTemplate] = [
        TransitionTemplate(
            kind: .push, direction: .forward, satisfies: [.push],
            steps: [step(A, .viewWillDisappear), step(B, .viewWillAppear), step(A, .viewDidDisappear), step(B, .viewDidAppear)],
            source: "§4 push: A viewWillDisappear → B viewWillAppear → A viewDidDisappear → B viewDidAppear (seed 001)"),
        TransitionTemplate(
            kind: .pop, direction: .backward, satisfies: [.pop],
            steps: [step(A, .viewWillDisappear), step(B, .viewWillAppear), step(A, .viewDidDisappear), step(B, .viewDidAppear)],
            source: "§4 pop: top viewWillDisappear → below viewWillAppear → top viewDidDisappear → below viewDidAppear (seed 001)"),
        TransitionTemplate(
            kind: .present, direction: .forward, satisfies: [.present],
            steps: [step(A, .viewWillDisappear), step(B, .viewWillAppear), step(B, .viewDidAppear), step(A, .viewDidDisappear)],
            source: "§6 full-screen present: A viewWillDisappear → B viewWillAppear → B viewDidAppear → A viewDidDisappear (seed 001)"),
        TransitionTemplate(
            kind: .dismiss, direction: .backward, satisfies: [.dismiss],
            steps: [step(A, .viewWillDisappear), step(B, .viewWillAppear), step(B, .viewDidAppear), step(A, .viewDidDisappear)],
            source: "§6 dismiss: presented viewWillDisappear → presenter viewWillAppear → presenter viewDidAppear → presented viewDidDisappear (seed 001)"),
        TransitionTemplate(
            kind: .tabSwitch, direction: .lateral, satisfies: [],
            steps: [step(B, .viewWillAppear), step(A, .viewWillDisappear), step(A, .viewDidDisappear), step(B, .viewDidAppear)],
            source: "§7 tab switch (also page curl): B viewWillAppear → A viewWillDisappear → A viewDidDisappear → B viewDidAppear"),
        TransitionTemplate(
            kind: .pageScroll, direction: .lateral, satisfies: [],
            steps: [step(B, .viewWillAppear), step(A, .viewWillDisappear), step(B, .viewDidAppear), step(A, .viewDidDisappear)],
            source: "§7 page scroll: new viewWillAppear → current viewWillDisappear → new viewDidAppear → current viewDidDisappear"),
        TransitionTemplate(
            kind: .interactivePopCancelled, direction: .lateral, satisfies: [.pop],
            steps: [step(A, .viewWillDisappear), step(B, .viewWillAppear), step(B, .viewWillDisappear),
                    step(B, .viewDidDisappear), step(A, .viewWillAppear), step(A, .viewDidAppear)],
            source: "§5 cancelled swipe-back: top viewWillDisappear → below viewWillAppear → below viewWillDisappear → below viewDidDisappear → top viewWillAppear → top viewDidAppear"),
        TransitionTemplate(
            kind: .pageScrollCancelled, direction: .lateral, satisfies: [],
            steps: [step(B, .viewWillAppear), step(A, .viewWillDisappear), step(A, .viewWillAppear),
                    step(A, .viewDidAppear), step(B, .viewWillDisappear), step(B, .viewDidDisappear)],
            source: "§7 page scroll cancelled: new willAppear → current willDisappear → current willAppear → current didAppear → new willDisappear → new didDisappear"),
        TransitionTemplate(
            kind: .pageCurlCancelled, direction: .lateral, satisfies: [],
            steps: [step(B, .viewWillAppear), step(A, .viewWillDisappear), step(B, .viewWillDisappear),
                    step(A, .viewWillAppear), step(B, .viewDidDisappear), step(A, .viewDidAppear)],
            source: "§7 page curl cancelled: new willAppear → current willDisappear → new willDisappear → current willAppear → new didDisappear → current didAppear"),
    ]

    /// The template a logged call of `kind` is held to.
    public static func declared(_ kind: TransitionKind) -> TransitionTemplate? {
        all.first { $0.kind == kind }
    }

    /// Templates whose steps equal `observed` exactly.
    public static func matching(_ observed: [TransitionStep]) -> [TransitionTemplate] {
        all.filter { $0.steps == observed }
    }

    /// How many leading steps of `observed` some template shares: the step after them is the first out of place.
    public static func longestKnownPrefix(of observed: [TransitionStep]) -> Int {
        all.map { template in
            zip(template.steps, observed).prefix { $0 == $1 }.count
        }.max() ?? 0
    }
}
