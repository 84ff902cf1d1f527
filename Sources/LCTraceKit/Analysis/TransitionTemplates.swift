/// What a transition between view controllers was.
public enum TransitionKind: String, Sendable, Codable, CaseIterable, BitwiseCopyable, CaseOrdinal {
    case push, pop, present, dismiss
    /// popToRootViewController / popToViewController, or a pop back more than one level of the history.
    case popToRoot = "pop-to-root"
    case tabSwitch = "tab-switch"
    case pageScroll = "page-scroll"
    case interactivePopCancelled = "interactive-pop-cancelled"
    case pageScrollCancelled = "page-scroll-cancelled"
    case pageCurlCancelled = "page-curl-cancelled"
    /// iOS 13+ sheets and the "over" styles: the presenter gets no callbacks.
    case sheetPresent = "sheet-present"
    case sheetDismiss = "sheet-dismiss"
    /// A swipe-to-dismiss let go: the sheet snaps back.
    case sheetDismissCancelled = "sheet-dismiss-cancelled"
    /// Custom containment: a child's view added to or removed from its container.
    case addChild = "add-child"
    case removeChild = "remove-child"
    /// Controllers appeared with none disappearing (the root at launch).
    case appear
    /// Controllers disappeared with none appearing (teardown at termination).
    case disappear
    /// One controller began to appear and disappeared instead (a cancelled appearance transition).
    case appearCancelled = "appear-cancelled"
    /// One controller began to disappear and appeared again instead.
    case disappearCancelled = "disappear-cancelled"
    /// Several controllers appeared and disappeared together (containers forwarding to children).
    case compound
    /// The controllers exchanged the screen in an order no template accepts (flagged).
    case unrecognized
    /// Still in flight when its session ended.
    case incomplete
}

extension TransitionKind {
    /// Cancelled gestures: the controller that began to leave is still (or again) on screen.
    public var endsWhereItBegan: Bool {
        switch self {
        case .interactivePopCancelled, .pageScrollCancelled, .pageCurlCancelled, .sheetDismissCancelled,
             .appearCancelled, .disappearCancelled:
            return true
        default:
            return false
        }
    }
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

/// A sequence of transition steps packed into one integer, three bits a step (its role, and which of the four
/// appearance callbacks it is), so that the templates of a shape are found by comparing integers as steps arrive,
/// without building arrays of steps. Longer than any template, or holding another callback, it fits none.
public struct TransitionShape: Hashable, Sendable, BitwiseCopyable {
    private var bits: UInt64 = 0
    private var count = 0
    /// The most steps a shape holds; every template is far shorter.
    static let maxSteps = 21

    public init() {}

    public init(_ steps: [TransitionStep]) {
        for step in steps { append(step) }
    }

    public mutating func append(_ step: TransitionStep) {
        let callbackCode: UInt64
        switch step.callback {
        case .viewWillAppear: callbackCode = 0
        case .viewDidAppear: callbackCode = 1
        case .viewWillDisappear: callbackCode = 2
        case .viewDidDisappear: callbackCode = 3
        default: count = TransitionShape.maxSteps + 1; return
        }
        guard count < TransitionShape.maxSteps else { count = TransitionShape.maxSteps + 1; return }
        let code = callbackCode << 1 | (step.role == .incoming ? 1 : 0)
        bits |= code << UInt64(3 * count)
        count += 1
    }
}

/// How well a callback continues the transition under way, best first: it opens a new one or continues the start of
/// a template with two controllers; it continues only a lone controller's template; it fits none.
enum TransitionFit: Int, Comparable {
    case opens = 0
    case fitsPair = 1
    case fitsLone = 2
    case fitsNone = 3

    static func < (lhs: TransitionFit, rhs: TransitionFit) -> Bool { lhs.rawValue < rhs.rawValue }
}

/// An ordering UIKit produces when one controller replaces another. Orders across the two controllers
/// differ by transition kind (ground truth §11.3); within one controller `will` always precedes `did`.
public struct TransitionTemplate: Sendable {
    public enum Direction: Sendable, BitwiseCopyable {
        /// Shows a new controller on top of the navigation or modal history (push, present).
        case forward
        /// Returns to a controller from the history (pop, dismiss).
        case backward
        /// Neither: siblings swap (tabs, pages) or nothing changes (cancelled gestures).
        case lateral
    }

    /// What must hold beyond the order of callbacks, for templates whose order alone is ambiguous.
    public enum Requirement: Sendable, BitwiseCopyable {
        case none
        /// The lone controller is a child (it logged willMove/didMove or begin/endAppearanceTransition).
        case child
        /// Another controller stays visible underneath (the presenter of a sheet).
        case otherVisible
        /// The lone controller was shown as a sheet (the history says so).
        case shownAsSheet
        /// The incoming controller is more than one level below the outgoing one on its stack.
        case severalLevelsBack
    }

    public let kind: TransitionKind
    public let direction: Direction
    /// Logged calls whose transition may legally take this shape (a cancelled swipe-back is a logged pop).
    public let satisfies: Set<TransitionKind>
    public let steps: [TransitionStep]
    public let requirement: Requirement
    public let source: String

    init(kind: TransitionKind, direction: Direction, satisfies: Set<TransitionKind>, steps: [TransitionStep],
         requirement: Requirement = .none, source: String) {
        self.kind = kind
        self.direction = direction
        self.satisfies = satisfies
        self.steps = steps
        self.requirement = requirement
        self.source = source
    }

    /// Templates with one controller (sheets, children, cancelled appearances).
    public var isSingle: Bool { Set(steps.map(\.role)).count == 1 }
}

private let A = TransitionRole.outgoing
private let B = TransitionRole.incoming
private func step(_ role: TransitionRole, _ callback: Callback) -> TransitionStep {
    TransitionStep(role: role, callback: callback)
}

/// The transition templates, in the words of lifecycle-ground-truth §4–§7 (A = outgoing, B = incoming).
/// Push and pop share one shape, as do present and dismiss: the navigation stacks pick the direction.
public enum TransitionTemplates {
    public static let all: [TransitionTemplate] = [
        TransitionTemplate(
            kind: .push, direction: .forward, satisfies: [.push],
            steps: [step(A, .viewWillDisappear), step(B, .viewWillAppear), step(A, .viewDidDisappear), step(B, .viewDidAppear)],
            source: "§4 push: A viewWillDisappear → B viewWillAppear → A viewDidDisappear → B viewDidAppear (seed 001)"),
        TransitionTemplate(
            kind: .popToRoot, direction: .backward, satisfies: [.popToRoot],
            steps: [step(A, .viewWillDisappear), step(B, .viewWillAppear), step(A, .viewDidDisappear), step(B, .viewDidAppear)],
            requirement: .severalLevelsBack,
            source: "§4 popToRoot/popToViewController: top viewWillDisappear → target viewWillAppear → top viewDidDisappear → target viewDidAppear; intermediates silent"),
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

        // One controller alone: the order cannot tell these apart, so the requirement does (first that holds wins).
        TransitionTemplate(
            kind: .addChild, direction: .lateral, satisfies: [],
            steps: [step(B, .viewWillAppear), step(B, .viewDidAppear)], requirement: .child,
            source: "§7 containment, add: willMove(toParent:) → viewWillAppear → viewDidAppear → didMove(toParent:)"),
        TransitionTemplate(
            kind: .removeChild, direction: .lateral, satisfies: [],
            steps: [step(A, .viewWillDisappear), step(A, .viewDidDisappear)], requirement: .child,
            source: "§7 containment, remove: willMove(toParent: nil) → viewWillDisappear → viewDidDisappear → didMove(toParent: nil)"),
        TransitionTemplate(
            kind: .sheetDismissCancelled, direction: .lateral, satisfies: [.dismiss],
            steps: [step(A, .viewWillDisappear), step(A, .viewWillAppear), step(A, .viewDidAppear)], requirement: .shownAsSheet,
            source: "§6 cancelled swipe-to-dismiss: sheet viewWillDisappear → sheet viewWillAppear → sheet viewDidAppear [verify on device]"),
        TransitionTemplate(
            kind: .sheetPresent, direction: .forward, satisfies: [.present],
            steps: [step(B, .viewWillAppear), step(B, .viewDidAppear)], requirement: .otherVisible,
            source: "§6 sheet/over/custom present: sheet viewWillAppear → sheet viewDidAppear; the presenter gets nothing"),
        TransitionTemplate(
            kind: .sheetDismiss, direction: .backward, satisfies: [.dismiss],
            steps: [step(A, .viewWillDisappear), step(A, .viewDidDisappear)], requirement: .shownAsSheet,
            source: "§6 sheet dismiss: sheet viewWillDisappear → sheet viewDidDisappear; the presenter gets nothing"),
        TransitionTemplate(
            kind: .appear, direction: .lateral, satisfies: [],
            steps: [step(B, .viewWillAppear), step(B, .viewDidAppear)],
            source: "§1 the root controller at launch, or any controller shown alone"),
        TransitionTemplate(
            kind: .disappear, direction: .lateral, satisfies: [],
            steps: [step(A, .viewWillDisappear), step(A, .viewDidDisappear)],
            source: "§3 teardown before applicationWillTerminate, or any controller leaving alone"),
        TransitionTemplate(
            kind: .appearCancelled, direction: .lateral, satisfies: [],
            steps: [step(B, .viewWillAppear), step(B, .viewWillDisappear), step(B, .viewDidDisappear)],
            source: "§5, §7 a cancelled appearance: viewWillAppear → viewWillDisappear → viewDidDisappear (second beginAppearanceTransition with the opposite flag)"),
        TransitionTemplate(
            kind: .disappearCancelled, direction: .lateral, satisfies: [],
            steps: [step(A, .viewWillDisappear), step(A, .viewWillAppear), step(A, .viewDidAppear)],
            source: "§5, §6 a cancelled disappearance: viewWillDisappear → viewWillAppear → viewDidAppear"),
    ]

    /// The template a logged call of `kind` is held to.
    public static func declared(_ kind: TransitionKind) -> TransitionTemplate? {
        TemplateLookup.shared.declaredPosition(kind).map { all[$0] }
    }

    /// The direction of the template a logged call of `kind` is held to.
    public static func direction(of kind: TransitionKind) -> TransitionTemplate.Direction? {
        TemplateLookup.shared.direction(of: kind)
    }

    /// Whether a logged call of `declared` may take this shape.
    public static func accepts(_ declared: TransitionKind, _ shape: TransitionShape) -> TransitionTemplate? {
        TemplateLookup.shared.accepting(declared, shape).map { all[$0] }
    }

    /// How far a shape goes along the templates: the start of one with two controllers, of a lone one, or of none.
    static func fit(_ shape: TransitionShape) -> TransitionFit {
        prefixFits[shape] ?? .fitsNone
    }

    /// Every start of every template (its first step, its first two, … all of it), and the best fit it gives.
    private static let prefixFits: [TransitionShape: TransitionFit] = {
        var fits: [TransitionShape: TransitionFit] = [:]
        for template in all {
            let fit: TransitionFit = template.isSingle ? .fitsLone : .fitsPair
            for length in 1...template.steps.count {
                let shape = TransitionShape(Array(template.steps.prefix(length)))
                fits[shape] = min(fits[shape] ?? .fitsNone, fit)
            }
        }
        return fits
    }()

    /// How many leading steps of `observed` some template shares: the step after them is the first out of place.
    public static func longestKnownPrefix(of observed: [TransitionStep]) -> Int {
        all.map { template in
            zip(template.steps, observed).prefix { $0 == $1 }.count
        }.max() ?? 0
    }
}

/// What classifying a transition reads of the templates, as tables by position in `TransitionTemplates.all`: each
/// template's shape, kind, direction, requirement and the logged calls it satisfies. A transition tracker holds the
/// lookup (`shared`), so that classifying a transition reads no lazily made static (each read of one checks that it
/// was made) and copies no template; its tables are permanent (`PermanentTable`), so that holding it counts no
/// references.
struct TemplateLookup {
    static let shared = TemplateLookup(TransitionTemplates.all)

    private let shapes: PermanentTable<TransitionShape>
    let kinds: PermanentTable<TransitionKind>
    let directions: PermanentTable<TransitionTemplate.Direction>
    let requirements: PermanentTable<TransitionTemplate.Requirement>
    /// The logged calls each template satisfies, a bit for each kind (`TransitionKind.ordinal`).
    private let satisfies: PermanentTable<UInt32>

    private init(_ templates: [TransitionTemplate]) {
        precondition(TransitionKind.allCases.count <= UInt32.bitWidth,
                     "more transition kinds than a template's set of them holds")
        shapes = PermanentTable(templates.map { TransitionShape($0.steps) })
        kinds = PermanentTable(templates.map(\.kind))
        directions = PermanentTable(templates.map(\.direction))
        requirements = PermanentTable(templates.map(\.requirement))
        satisfies = PermanentTable(templates.map { $0.satisfies.reduce(0) { $0 | TemplateLookup.bit(of: $1) } })
    }

    /// A kind's bit in a template's set of logged calls (`satisfies`).
    @inline(__always)
    private static func bit(of kind: TransitionKind) -> UInt32 { 1 << UInt32(kind.ordinal) }

    /// Calls `body` with the position of each template of this shape, in table order, until it returns false: a look
    /// along the templates' shapes (a few dozen words), without hashing the shape or building a list.
    @inline(__always)
    func forEachMatching(_ shape: TransitionShape, _ body: (Int) -> Bool) {
        for position in shapes.indices where shapes[position] == shape {
            guard body(position) else { return }
        }
    }

    /// The position of the first template of this shape that a logged call of `declared` may take; nil for none.
    func accepting(_ declared: TransitionKind, _ shape: TransitionShape) -> Int? {
        var accepted: Int?
        let bit = TemplateLookup.bit(of: declared)
        forEachMatching(shape) { position in
            if satisfies[position] & bit != 0 { accepted = position }
            return accepted == nil
        }
        return accepted
    }

    /// The position of the first template of `kind`: a look along a short list, cheaper than hashing the kind (whose
    /// hash is its name's).
    func declaredPosition(_ kind: TransitionKind) -> Int? {
        kinds.indices.first { kinds[$0] == kind }
    }

    /// The direction of the template a logged call of `kind` is held to.
    func direction(of kind: TransitionKind) -> TransitionTemplate.Direction? {
        declaredPosition(kind).map { directions[$0] }
    }
}
