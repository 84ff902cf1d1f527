/// One reading of a log that names controllers by class alone: which instance each callback was for, and everything
/// that follows from it — the instances' lives, the transitions and stacks, the leak watch, the findings. When a
/// callback could as well be another instance's (two hidden instances of one class on two tabs, a push of a second
/// instance that reads like a cancelled pop when no load line is logged), the session keeps a reading for each choice
/// and lets the callbacks that follow decide: a reading that needs a finding the other does not, or less plausible
/// choices, costs more, and is dropped once it costs clearly more (`IdentityReadings`). Until one reading is left,
/// what the session would send out is held with each reading.
///
/// A plain value: the session swaps a reading's parts in to take a callback in it, and out again.
struct IdentityReading {
    var instances: InstanceRegistry
    var transitions: TransitionTracker
    var leaks: LeakWatch
    var hostedViews: HostedViewWatch
    var transitionReports: [TransitionReport]
    var transitionsNotListed: Int
    var findings: [Finding]
    var findingsNotListed: Int
    /// What the session sends out, held while other readings are kept.
    var held: [HeldOutput]
    /// The session's event count when the reading was made.
    var madeAt: Int
    /// How implausible the reading is: how much less plausible its choices were than the most plausible one at each
    /// point where it took another (`InferenceRules.rank`), and the weight of its findings.
    var cost: Int
}

/// What a session sends out as it goes, held while several readings are kept (`IdentityReading`).
enum HeldOutput {
    /// A finding, with its place in the reading's listed findings (nil when it was past the list's bound).
    case finding(Finding, listedAt: Int?)
    case transition(TransitionReport)
    case duration(Double, DurationKind, name: String)
    case event(LiveEvent, subject: String)
}

/// How readings are kept, weighed and dropped.
enum IdentityReadings {
    /// At most this many readings at once (the one in play and the others), the cheapest kept. With 4, the generator's
    /// legal traffic has no false finding in any of the 64 combinations of its logging habits (1 MB each with seeds 7,
    /// 3, 1 and 11, and 20 MB each with seed 7, every spelling), nor its 100 MB of plain legal traffic, and every
    /// planted deviation is caught with nothing else reported (64 combinations, 4 spellings, 2 line formats); 8 gives
    /// the same and takes 1.66 times as long on a log with every habit at once, where readings are nearly always kept
    /// (16 took 1.27 times as long as 8). Before every reading could make copies, 8 left 120 false findings on the
    /// 1 MB traffic. A log that names instances, or never leaves a choice open, makes no second reading and pays
    /// nothing.
    static let maxReadings = 4
    /// At most this many while one event is taken, before the costliest are dropped: each reading kept may make a
    /// copy or two.
    static let maxReadingsWhileTaking = maxReadings * 4
    /// A reading that costs this much more than the best is dropped: one warning's weight, less a little, so that a
    /// reading needing a finding the best does not need goes at once; a less plausible choice (one rank, at most)
    /// alone never drops a reading.
    static let dropMargin = 40
    /// Held output is sent at the latest this many events after the readings began: then the cheapest reading is
    /// taken (the one in play on a tie), and its findings that not every reading needs are told as ambiguous.
    static let window = 512
    /// At most this much output is held before the readings are decided (a session that streams every event).
    static let maxHeld = 4096

    /// The most appearance callbacks a UIKit transition between two controllers has: a cancelled interactive pop has
    /// six, and two more leave room for a container's children.
    static let stepsPerTransition = 8
    /// The weight of each step a reading's open transition takes past `stepsPerTransition`: a reading that explains
    /// callbacks by leaving an appearance open while others come and go (so that they all join one transition)
    /// soon costs more than one with an error.
    static let overlongTransitionStepCost = 25

    /// The weight of a controller a pop or dismiss took off, of a class that logs dealloc, still alive when the next
    /// transition begins (`LeakWatch.overdue`): less than a finding, since a release can come late, but enough to
    /// rank a reading in which the log's releases come where UIKit makes them above one in which they never come.
    static let overdueReleaseCost = 10

    /// The weight of a finding in a reading's cost. Info weighs nothing: it is what the log cannot confirm (a leak
    /// of a class that logs no dealloc), and a reading is not likelier for leaving less unconfirmed.
    static func cost(of severity: Severity) -> Int {
        switch severity {
        case .error: return 100
        case .warning: return 50
        case .info: return 0
        }
    }

    /// Whether every one of `others` also holds a finding of the rule at the line.
    static func isShared(_ finding: Finding, by others: [IdentityReading]) -> Bool {
        others.allSatisfy { reading in
            reading.held.contains {
                if case .finding(let other, _) = $0 { return other.rule == finding.rule && other.line == finding.line }
                return false
            }
        }
    }

    /// A finding that only some readings of the log need: told as info, with what would make it certain.
    static func ambiguous(_ finding: Finding) -> Finding {
        var told = finding
        told.severity = .info
        told.message += RuleCatalog.ambiguousIdentity
        return told
    }
}
