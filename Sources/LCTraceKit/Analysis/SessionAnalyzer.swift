/// Analyses one session. It hands each event to the part that judges it — the app and scene state machines, the
/// instance registry and each controller's lifecycle, the transition tracker, the leak and main-thread checks, the
/// post-mortem — and turns what they find into findings, sent to the output the moment they are decided and kept in the
/// session's report. What the report keeps is bounded by `SessionLimits`, and the rest counted.
final class SessionAnalyzer: TransitionContext, InstanceRoles {
    let index: Int
    let input: String
    /// How many of its events the report keeps, the first ones: all of them (`keepEvents`), the ones the timeline
    /// reports draw (`SessionLimits.timelineEvents`), or none.
    let eventsKept: Int
    let rules: RuleSettings
    /// Which deviations become findings, at which severity, and which of those the baseline knows.
    private let policy: FindingPolicy
    /// The findings sent so far that the baseline knew: left out of the output and of the report's list.
    private var known = FindingPolicy.KnownFindings()
    /// The places in `findings` of held findings the baseline knew, taken out when the held output is sent.
    private var knownListed: [Int] = []
    private let limits: SessionLimits
    private let knowledge: InputKnowledge
    /// The names of the events' classes and spellings.
    private let names: NameTable
    /// The names its controller instances are given, over `names`.
    private let instanceNames: InstanceNames
    /// Where the session's findings, durations and streamed items go, handed down by the run.
    private let output: any AnalysisOutput
    /// `output.wantsLiveItems`, read once.
    private let streamsLiveItems: Bool
    /// Event records are built when the report keeps them or the output streams them.
    private let recordsEvents: Bool
    /// Whether anything reads the session's report (and the run's durations) beyond its counts. When nothing does,
    /// its transitions are counted, not listed, and no duration is measured for the run's percentiles.
    private let reportIsRead: Bool
    /// The line of the first event past the ones the timeline reports draw, once there is one.
    @exclusivity(unchecked) private var timelineCut: Int?

    private(set) var process: String?
    private(set) var pid: Int?
    private var startLine: Int
    // The session's own bookkeeping, read and changed on every event (below, to `eventCount`), is not checked for
    // exclusive access at run time, where each check costs a call into the runtime: only this session's methods touch
    // it, on one thread, and none of them hands it to code that could reach it again while it is being changed.
    /// The line of the last event: the session idle longest is ended first when too many are open.
    @exclusivity(unchecked) private(set) var endLine: Int
    @exclusivity(unchecked) private var clock = SessionClock()
    /// The session's time of the event being handled.
    @exclusivity(unchecked) private var eventMicros: Int64?
    /// How often the logged time went back, and the line where it first did.
    var timeStepsBack: Int { clock.stepsBack }
    var firstTimeStepBack: Int? { clock.firstStepBack }

    @exclusivity(unchecked) private var app = AppReport(events: [], eventCount: 0, finalPhase: .unknown)
    @exclusivity(unchecked) private var activity: ActivityTracker
    // The parts of a reading (below, to `findingsNotListed`) are read and changed on every controller callback, in every
    // reading kept, and swapped in and out of the readings (`exchange`); each run-time exclusivity check costs a call
    // into the runtime, about a sixth of the analysis when several readings are kept. It is not checked: only this
    // session's own methods touch them, on one thread, and the one that changes a part hands the parts it calls
    // (`instances.decide`'s `roles`, `transitions.observe`'s `context`, `releaseDead`'s test) only questions about the
    // other parts — `facts` reads `transitions`, the transition context reads `instances` — never about the part being
    // changed.
    @exclusivity(unchecked) private var instances: InstanceRegistry
    @exclusivity(unchecked) private var transitions = TransitionTracker()
    @exclusivity(unchecked) private var transitionReports: [TransitionReport] = []
    @exclusivity(unchecked) private var transitionsNotListed = 0
    @exclusivity(unchecked) private var leaks: LeakWatch
    @exclusivity(unchecked) private var hostedViews = HostedViewWatch()
    @exclusivity(unchecked) private var loadLoops = LoadLoopWatch()
    @exclusivity(unchecked) private var findings: [Finding] = []
    @exclusivity(unchecked) private var findingsNotListed = 0
    @exclusivity(unchecked) private var mainThread = MainThreadCheck()
    @exclusivity(unchecked) private var postMortem: PostMortem
    @exclusivity(unchecked) private var launch = LaunchClock()
    @exclusivity(unchecked) private(set) var eventCount = 0

    // The reading of who is who in play is the parts above (instances, transitions, leaks, hostedViews, the transition
    // reports and the findings); `otherReadings` are the others kept while the log cannot tell them apart.
    //
    // The readings' bookkeeping is read on every event, and only by this session's own methods on one thread, none of
    // which calls back into another while changing it: its exclusivity is not checked at run time, where each check
    // costs a call into the runtime.
    @exclusivity(unchecked) private var otherReadings: [IdentityReading] = []
    /// Readings made while the event in hand is taken, kept with the others once every reading took it.
    @exclusivity(unchecked) private var newReadings: [IdentityReading] = []
    /// The reading in play's cost and when it was made (`IdentityReading.cost`, `madeAt`).
    @exclusivity(unchecked) private var cost = 0
    @exclusivity(unchecked) private var madeAt = 0
    /// Whether output is held (several readings are kept), what the reading in play holds, and the event count when
    /// holding began.
    @exclusivity(unchecked) private var holding = false
    @exclusivity(unchecked) private var held: [HeldOutput] = []
    @exclusivity(unchecked) private var holdingSince = 0
    /// Taking the part of an event that every reading shares (app, clock, threads): while output is held, what it
    /// finds goes to every reading.
    @exclusivity(unchecked) private var inSharedPart = false
    /// The memory of the list the transitions the tracker closed are taken in, kept between calls
    /// (`takeClosedTransitions`): always empty here, so no reading keeps any. Not checked at run time: only that method
    /// touches it, to trade it for a local list and back, and nothing it calls in between reads it.
    @exclusivity(unchecked) private var closedTransitions: [ClosedTransition] = []

    var sawFinishLaunching: Bool { activity.sawFinishLaunching }

    /// How many controller instances a session held at most, and how many transitions it listed.
    struct Size {
        var controllers = 0
        var transitions = 0
    }

    var size: Size { Size(controllers: instances.slotCount, transitions: transitionReports.count) }

    /// What the session holds now, item by item: what `SessionLimits` bounds.
    struct Footprint {
        /// Controller instances held (alive, or dead and not yet released), and the slots made for them.
        var instances: Int
        var instanceSlots: Int
        var transitions: Int
        var findings: Int
    }

    var footprint: Footprint {
        Footprint(instances: instances.occupiedSlots, instanceSlots: instances.slotCount, transitions: transitionReports.count,
                  findings: findings.count)
    }

    /// `keepEvents`: the report keeps every event; else, with `timelineEvents`, the ones the timeline reports draw.
    /// `expected`: the size of the session before it, if any. The sessions of one app are alike, so the lists start
    /// with room for as many, rather than growing (and being copied) from nothing.
    init(index: Int, input: String, firstLine: Int, process: String?, pid: Int?, launchLogged: Bool,
         keepEvents: Bool, timelineEvents: Bool = false, reportIsRead: Bool = true, policy: FindingPolicy,
         limits: SessionLimits = SessionLimits(), knowledge: InputKnowledge, names: NameTable, instanceNames: InstanceNames? = nil,
         output: any AnalysisOutput, expected: Size = Size()) {
        self.index = index
        self.input = input
        self.startLine = firstLine
        self.endLine = firstLine
        self.process = process
        self.pid = pid
        self.eventsKept = keepEvents ? Int.max : timelineEvents ? limits.timelineEvents : 0
        self.rules = policy.rules
        self.policy = policy
        // What nothing reads is not kept: the controllers' appearances (and below, the transitions' participants).
        var limits = limits
        if !reportIsRead { limits.appearancesPerController = 0 }
        self.limits = limits
        self.knowledge = knowledge
        self.names = names
        self.instanceNames = instanceNames ?? InstanceNames(names: names)
        assert(self.instanceNames.names === names, "instance names read from another name table than the session's")
        self.output = output
        self.streamsLiveItems = output.wantsLiveItems
        self.recordsEvents = eventsKept > 0 || streamsLiveItems
        self.reportIsRead = reportIsRead
        // What names a closed transition's controllers: see `transitionClosed`.
        transitions.namesParticipants = reportIsRead || streamsLiveItems || rules.slowTransitionMs != nil
        self.activity = ActivityTracker(launchLogged: launchLogged)
        self.instances = InstanceRegistry(expected: expected.controllers, limits: limits)
        self.leaks = LeakWatch(timeoutSeconds: rules.leakTimeoutSeconds)
        self.postMortem = PostMortem(names: names)
        transitionReports.reserveCapacity(min(expected.transitions, limits.listedTransitions))
    }

    /// Takes the session's next event.
    func handle(_ event: borrowing Event) {
        eventCount += 1
        endLine = event.line
        if eventCount == limits.timelineEvents + 1 { timelineCut = event.line }
        inSharedPart = holding
        defer { inSharedPart = false }
        let stepsBack = clock.stepsBack
        eventMicros = clock.time(of: event.micros, written: event.time, line: event.line)
        if clock.stepsBack != stepsBack { emitClockStep(line: event.line, time: event.time) }
        let callback = event.callback
        // Once the main thread is known, a callback logged on it decides nothing: the common case, checked first.
        if let thread = event.thread, !mainThread.isMain(thread) { checkThread(thread, of: event) }
        postMortem.note(line: event.line, message: event.message)
        launch.note(callback, micros: eventMicros)
        if LoadLoopWatch.wants(callback, whileRunIsOpen: loadLoops.isRunOpen),
           let loop = loadLoops.take(callback, of: callback.family == .controller ? event.message.className : nil, line: event.line) {
            emitLoadLoop(loop, line: event.line)
        }
        inSharedPart = false

        switch callback.family {
        case .controller, .view:
            // A SwiftUI view is kept per instance like a controller; only appearance callbacks make transitions.
            var learnsDealloc = false
            if callback == .dealloc, let className = event.message.className { learnsDealloc = !knowledge.notedDealloc(className) }
            expireLeaks()
            handleController(event)
            if holding {
                // Each reading takes the event (a copy: a borrowed one cannot be captured).
                let copy = copy event
                inOtherReadings { session in
                    session.expireLeaks()
                    session.handleController(copy)
                }
            }
            if learnsDealloc { inEveryReading { $0.confirmUndecidedLeaks() } }
            // Output is held from the first reading a fork makes until one is left: only then is there one to settle.
            if holding { settleReadings() }
        case .application, .scene, .marker, .intent:
            inEveryReading { $0.expireLeaks() }
            inSharedPart = holding
            handleApplication(event)
            inSharedPart = false
            if let kind = callback.declaredKind {
                let line = event.line
                inEveryReading { session in
                    session.transitions.declare(kind, line: line, context: session)
                    session.takeClosedTransitions()
                }
            }
            if holding { settleReadings() }
        }
    }

    // What `handle` seldom does, in functions of its own (`@inline(never)`): out of the path every event takes.

    /// An event logged off the main thread as the session knows it (or before it knows it).
    @inline(never)
    private func checkThread(_ thread: ThreadID, of event: borrowing Event) {
        let callback = event.callback
        let subject = names.className(of: event.message) ?? callback.rawValue
        let decides = callback == .main || callback == .willFinishLaunching || callback == .didFinishLaunching
        emit(mainThread.take(.init(thread: thread, line: event.line, callback: callback, subject: subject), decides: decides))
    }

    /// The finding for a view loaded over and over.
    @inline(never)
    private func emitLoadLoop(_ loop: LoadLoopWatch.Loop, line: Int) {
        let wording = RuleCatalog.loadLoopWording(className: names[loop.className], cycles: loop.cycles, firstLine: loop.firstLine)
        emit(Deviation(rule: .loadLoop, line: line, subject: names[loop.className], wording))
    }

    /// Runs `body` in every reading kept, the one in play first.
    private func inEveryReading(_ body: (SessionAnalyzer) -> Void) {
        body(self)
        if holding { inOtherReadings(body) }
    }

    /// Runs `body` in each reading kept besides the one in play, swapped in for it.
    private func inOtherReadings(_ body: (SessionAnalyzer) -> Void) {
        for index in otherReadings.indices {
            exchange(&otherReadings[index])
            body(self)
            exchange(&otherReadings[index])
        }
    }

    @inline(__always)
    private func expireLeaks() {
        guard let micros = eventMicros, leaks.isWatching else { return }
        for leak in leaks.expire(now: micros, classLogsDealloc: classLogsDealloc) { emitLeak(leak, confirmed: true) }
    }

    /// A class logged dealloc for the first time: the controllers of it that left a stack and outlived the timeout
    /// while that was unknown are possible leaks now.
    private func confirmUndecidedLeaks() {
        for leak in leaks.confirmUndecided(classLogsDealloc: classLogsDealloc) { emitLeak(leak, confirmed: true) }
    }

    func close() -> SessionReport {
        var inFlight: [Bool] = []
        inEveryReading { session in
            inFlight.append(session.transitions.isInFlight(session))
            session.transitions.finish(session)
            session.takeClosedTransitions()
        }
        inSharedPart = holding
        emit(mainThread.finish())
        inSharedPart = false
        var reading = 0
        inEveryReading { session in
            for leak in session.leaks.finish() { session.emitLeak(leak, confirmed: session.classLogsDealloc(leak.controller)) }
            if let ending = session.postMortem.ending(inFlight: inFlight[reading], appPhase: session.app.finalPhase,
                                                      scenes: session.activity.sceneReports,
                                                      reachedBackgroundOrEnd: session.activity.reachedBackgroundOrEnd,
                                                      endLine: session.endLine) {
                session.emit(ending)
            }
            reading += 1
        }
        if holding { decideReadings() }
        let controllers = instances.finalReports()
        return SessionReport(
            index: index, input: input, process: process, pid: pid, startLine: startLine, endLine: endLine,
            startTime: clock.startTime, endTime: clock.endTime.nonEmpty,
            durationMs: milliseconds(from: clock.startMicros, to: clock.lastMicros),
            launch: launch.timing, app: app, scenes: activity.sceneReports, controllers: controllers.listed,
            transitions: transitionReports, findings: findings, unlistedControllers: controllers.unlisted,
            transitionsNotListed: transitionsNotListed, findingsNotListed: findingsNotListed, findingsInBaseline: known.count,
            timelineCut: timelineCut, eventsPastTimelineCut: timelineCut == nil ? 0 : eventCount - limits.timelineEvents)
    }

    private func handleApplication(_ event: borrowing Event) {
        app.eventCount += 1
        if recordsEvents { keep(event, subject: "App") { app.events.append($0) } }
        let callback = event.callback
        if callback == .applicationWillResignActive || callback == .applicationDidEnterBackground || callback == .sceneWillResignActive
            || callback == .sceneDidEnterBackground {
            knowledge.noteBackground()
        }
        // A copy: a borrowed event cannot be captured by the message's closure.
        let message = event.message
        for var deviation in activity.take(callback, line: event.line, message: names.lifecycleMessage(message, end: 0)) {
            // An app that never logs leaving the foreground shows no way out of it: entering it again is a gap in
            // what it logs, not UIKit misbehaving.
            if deviation.rule == .unexpectedStateCallback,
               callback == .applicationWillEnterForeground || callback == .sceneWillEnterForeground, !knowledge.logsBackground() {
                deviation.cap = .info
                deviation.message += RuleCatalog.noLoggedWayOutOfForeground
            }
            emit(deviation)
        }
        app.finalPhase = activity.appPhase
    }

    // MARK: View controllers

    /// Takes a controller's callback in the reading in play; when another instance could as well be meant, first in a
    /// copy of the reading that takes it as that one's (`fork`).
    private func handleController(_ event: borrowing Event) {
        let decision = instances.decide(event, roles: self)
        if let alternative = decision.alternative {
            fork(event, taking: alternative.choice, extraCost: alternative.rank - decision.rank)
            if let rank = decision.newAlternative { fork(event, taking: .new, extraCost: rank - decision.rank) }
        }
        // A second viewWillAppear while the class's other instance is still appearing alone: one controller told twice.
        let appearingAlone = event.callback == .viewWillAppear && decision.choice == .new
            ? instances.appearingInstance(like: event).flatMap { transitions.isOnlyParticipant($0) ? $0 : nil } : nil
        let instance = instances.instance(for: decision.choice, weighed: decision.weighed, event: event, naming: instanceNames)
        if let appearingAlone { emitWillAppearTwice(appearingAlone, line: event.line) }
        take(event, by: instance)
    }

    /// The finding for a second viewWillAppear on `controller` while it still appears alone.
    @inline(never)
    private func emitWillAppearTwice(_ controller: Int, line: Int) {
        let wording = RuleCatalog.willAppearTwiceWording(controller: instances.describedName(of: controller))
        emit(Deviation(rule: .willAppearTwice, line: line, subject: instances.name(of: controller), wording))
    }

    /// Makes a copy of the reading swapped in that takes the callback as `choice`'s, at `extraCost`. Every reading may
    /// make copies while an event is taken; once all took it, the cheapest `IdentityReadings.maxReadings` are kept
    /// (`settleReadings`), so that a choice is lost for want of room only when it is no likelier than the others. Not
    /// inlined: it runs only when a callback's instance is in doubt.
    @inline(never)
    private func fork(_ event: borrowing Event, taking choice: InstanceChoice, extraCost: Int) {
        guard otherReadings.count + newReadings.count + 1 < IdentityReadings.maxReadingsWhileTaking else { return }
        if !holding {
            holding = true
            holdingSince = eventCount
        }
        var fork = currentReading()
        exchange(&fork)
        cost += extraCost
        take(event, by: instances.instance(for: choice, weighed: true, event: event, naming: instanceNames))
        exchange(&fork)
        newReadings.append(fork)
    }

    /// Takes a controller's callback, routed to `instance`, in the reading in play.
    @inline(__always)
    private func take(_ event: borrowing Event, by instance: Int) {
        let callback = event.callback
        // The run's percentiles take a controller's load time when it is measured: the report may not list it.
        let measuresLoad = callback == .viewDidAppear && instances.reports[instance].loadToFirstAppearMs == nil
        let violation = instances.take(callback, by: instance, line: event.line, micros: eventMicros)
        if measuresLoad, let ms = instances.reports[instance].loadToFirstAppearMs {
            sendDuration(ms, .loadToFirstAppear, name: instances.reports[instance].className)
        }
        if (callback.family == .controller) ? names.hasHostingControllers : (callback == .onAppear) {
            watchHostedViews(event, by: instance)
        }
        if callback.beginsLife, let className = event.message.className {
            knowledge.noteCreation(className, className: instances.reports[instance].className)
        }
        if let violation { emitViolation(violation, of: event, by: instance) }
        if callback == .dealloc {
            if let className = event.message.className { knowledge.noteDealloc(className, className: instances.reports[instance].className) }
            transitions.deallocated(instance)
        }
        if callback == .dealloc || callback == .viewWillAppear {
            leaks.disarm(instance)
            transitions.seen(instance)
        }
        if recordsEvents { keep(event, subject: instances.name(of: instance)) { instances.keep($0, of: instance) } }
        if callback.isAppearanceCallback {
            transitions.observe(ObservedStep(controller: instance, callback: callback, line: event.line, micros: eventMicros),
                                of: event, violated: violation != nil, context: self)
            takeClosedTransitions()
            // A reading in which a transition goes on longer than any UIKit makes (an appearance left open while
            // others come and go, all joining it) costs more with every step past the longest.
            if transitions.openSteps > IdentityReadings.stepsPerTransition { cost += IdentityReadings.overlongTransitionStepCost }
            if holding, transitions.openSteps == 1, leaks.isWatching {
                cost += IdentityReadings.overdueReleaseCost * leaks.overdue(classLogsDealloc: classLogsDealloc)
            }
        }
        if instances.releaseIsDue {
            instances.releaseDead { transitions.references($0) || leaks.watches($0) }
        }
    }

    /// The SwiftUI checks of a controller's callback, in an app with hosting controllers, or of a view's onAppear. Kept
    /// out of `take`, which runs for every controller callback, as is `emitViolation`: they run only in apps with
    /// hosting controllers, on a view's onAppear, or for a callback out of order, and inline they enlarge `take`, which
    /// can keep the compiler from inlining `InstanceRegistry.take` into it.
    @inline(never)
    private func watchHostedViews(_ event: borrowing Event, by instance: Int) {
        guard let className = event.message.className else { return }
        let callback = event.callback
        if callback.family == .controller {
            hostedViews.controller(className, callback: callback, phaseAfter: instances.lifecycles[instance].phase, line: event.line,
                                   names: names) { instances.describedName(of: instance) }
        } else if let covering = hostedViews.viewAppeared(className) {
            let wording = RuleCatalog.viewAppearedWhileCoveredWording(view: instances.describedName(of: instance),
                                                                      controller: covering.controller, coveredAt: covering.line)
            emit(Deviation(rule: .viewAppearedWhileCovered, line: event.line, subject: instances.name(of: instance), wording))
        }
    }

    /// The finding for a controller callback out of its lifecycle's order.
    @inline(never)
    private func emitViolation(_ violation: LifecycleViolation, of event: borrowing Event, by instance: Int) {
        let callback = event.callback
        var violation = violation
        // Known by its class alone, and by creation lines of other launches only, the instance that died is only the
        // class's last one: another may have been made without a line saying so.
        if violation.rule == .callbackAfterDealloc, event.message.instance == nil,
           let className = event.message.className, !instances.logsLoading(className) {
            violation.rule = .callbackWithoutLiveInstance
        }
        // Without times, a second disappearance of a controller already gone is lines missing from the log.
        if violation.rule == .unbalancedWillCallback, callback == .viewWillDisappear, violation.phase == .hidden,
           clock.startMicros == nil {
            violation.rule = .logGap
        }
        let name = instances.describedName(of: instance)
        let wording = RuleCatalog.controllerWording(violation.rule, callback: callback, phase: violation.phase, controller: name,
                                                    earlier: violation.earlier, notice: names.spelled(event.message))
        emit(Deviation(rule: violation.rule, line: event.line, subject: instances.name(of: instance), wording))
    }

    // MARK: InstanceRoles

    func classLogsCreation(_ className: ClassName) -> Bool { knowledge.logsCreation(names[className]) }

    func facts(of controller: Int, for callback: Callback) -> RoleFacts {
        transitions.roleFacts(of: controller, for: callback)
    }

    func isPlaced(_ controller: Int) -> Bool { transitions.isPlaced(controller) }

    // MARK: TransitionContext

    func name(of controller: Int) -> String { instances.name(of: controller) }

    func phase(of controller: Int) -> ControllerPhase { instances.lifecycles[controller].phase }

    func isNew(_ controller: Int, at line: Int) -> Bool { instances.isNew(controller, at: line) }

    func isChild(_ controller: Int) -> Bool { instances.lifecycles[controller].isChild }

    func isAnyOtherVisible(than controller: Int) -> Bool { instances.isAnyOtherVisible(than: controller) }

    func areInterchangeable(_ first: Int, _ second: Int) -> Bool { instances.areInterchangeable(first, second) }

    /// Acts on what the transition tracker found in the call just made: findings, leak checks, listed transitions.
    @inline(__always)
    private func takeClosedTransitions() {
        guard transitions.hasClosed else { return }
        var closed: [ClosedTransition] = []
        swap(&closed, &closedTransitions)
        transitions.takeClosed(into: &closed)
        // Oldest first, each acted on where it is in the list: a copy would retain what it holds, and moving one out
        // copies its few hundred bytes. Then the list is emptied, keeping its memory.
        for index in closed.indices { transitionClosed(&closed[index]) }
        closed.truncate(to: 0)
        swap(&closed, &closedTransitions)
    }

    /// Acts on a transition that closed, after reporting the deviation its classification found, if any (taken out of
    /// it: the transition is left without one). It is named only where a name is read: when the report lists it (see
    /// `reportIsRead`), output streams it, or a finding names its controllers.
    private func transitionClosed(_ transition: inout ClosedTransition) {
        if let deviation = transition.deviation.take() { emit(deviation) }
        let listed = reportIsRead && transitionReports.count < limits.listedTransitions
        // The named and the unnamed transition take branches of their own, so that a run that names none (`check`)
        // holds no report, absent, in an optional of its size.
        if listed || streamsLiveItems {
            let report = transition.report(self)
            if streamsLiveItems { sendTransition(report) }
            sendDurationAndCheckSlow(transition) { report }
            // Last, moved in: a copy would retain the names it holds.
            if listed {
                transitionReports.append(report)
            } else {
                transitionsNotListed += 1
            }
        } else {
            sendDurationAndCheckSlow(transition) { transition.report(self) }
            transitionsNotListed += 1
        }
        if let controller = transition.removal.left, phase(of: controller) != .dead {
            leaks.arm(LeakWatch.Armed(controller: controller, line: transition.endLine, micros: transition.endMicros,
                                      kind: transition.kind))
        }
        // Taken off without a callback: checked when the session ends, never by the clock.
        for controller in transition.removal.silent where phase(of: controller) != .dead {
            leaks.arm(LeakWatch.Armed(controller: controller, line: transition.endLine, micros: nil, kind: transition.kind, silent: true))
        }
    }

    /// Sends a closed transition's duration, and finds it slow when a threshold is set and it took longer; `named` is the
    /// transition with its controllers named, asked for only then.
    @inline(__always)
    private func sendDurationAndCheckSlow(_ transition: borrowing ClosedTransition, named: () -> TransitionReport) {
        guard let durationMs = transition.durationMs else { return }
        // Checked here as well as where it is sent, so that the kind's text is not made for a duration nothing reads.
        if reportIsRead { sendDuration(durationMs, .transition, name: transition.kind.rawValue) }
        guard let threshold = rules.slowTransitionMs, durationMs > threshold else { return }
        let named = named()
        let wording = RuleCatalog.slowTransitionWording(kind: named.kind, controllers: named.controllers,
                                                        durationMs: durationMs, thresholdMs: threshold)
        emit(Deviation(rule: .slowTransition, line: named.endLine, subject: named.to ?? named.from, wording))
    }

    // MARK: Findings

    private func classLogsDealloc(_ controller: Int) -> Bool {
        knowledge.logsDealloc(instances.reports[controller].className)
    }

    private func emitLeak(_ leak: LeakWatch.Armed, confirmed: Bool) {
        // A silent leaver is reported only when its class logs dealloc, and as info unless an address names it.
        if leak.silent && !confirmed { return }
        let addressed = instances.reports[leak.controller].identity == .address
        let within = leak.micros == nil ? "before the session ended" : "within \(TextFormat.measure(rules.leakTimeoutSeconds)) s"
        let wording = RuleCatalog.leakWording(controller: instances.describedName(of: leak.controller), kind: leak.kind, within: within,
                                              silent: leak.silent && !addressed, confirmed: confirmed)
        emit(Deviation(rule: .possibleLeak, line: leak.line, subject: name(of: leak.controller), wording,
                       cap: confirmed && (!leak.silent || addressed) ? nil : .info))
    }

    private func emitClockStep(line: Int, time: borrowing TimeText) {
        let step = clock.lastStep
        let wording = RuleCatalog.clockWentBackWording(stepMs: Double(step.micros) / 1000, previous: step.from.string, time: time.string)
        emit(Deviation(rule: .clockWentBack, line: line, subject: nil, wording))
    }

    private func emit(_ deviations: [Deviation]) {
        for deviation in deviations { emit(deviation) }
    }

    private func emit(_ deviation: Deviation) {
        guard let finding = policy.admit(deviation, input: input, session: index) else { return }
        record(finding)
        if inSharedPart { inOtherReadings { $0.record(finding) } }
    }

    /// Lists the finding in the reading in play, weighs it, and sends it (or holds it). A finding the baseline knows
    /// weighs the same (the baseline does not change which reading is likelier) but is neither sent nor listed; a held
    /// one is matched when it is sent, as it is then told.
    private func record(_ finding: Finding) {
        cost += IdentityReadings.cost(of: finding.severity)
        if !holding, policy.isKnown(finding, in: &known) { return }
        var listedAt: Int?
        if findings.count < limits.listedFindings {
            listedAt = findings.count
            findings.append(finding)
        } else {
            findingsNotListed += 1
        }
        if holding { held.append(.finding(finding, listedAt: listedAt)) } else { output.finding(finding) }
    }

    /// `send(.duration(…))`, without making the held value when nothing is held: a duration per transition. None is
    /// sent when nothing reads the run's durations (`reportIsRead`).
    @inline(__always)
    private func sendDuration(_ ms: Double, _ kind: DurationKind, name: String) {
        guard reportIsRead else { return }
        guard holding else { return output.duration(ms, of: kind, name: name) }
        send(.duration(ms, kind, name: name))
    }

    /// `send(.event(…))`, likewise: a streamed event is a value of about 200 bytes, which making the held value and
    /// taking it apart again copied twice (3 % of a JSON Lines run).
    @inline(__always)
    private func sendEvent(_ event: LiveEvent, subject: String) {
        guard holding else { return output.event(event, subject: subject, session: index, input: input) }
        send(.event(event, subject: subject))
    }

    /// `send(.transition(…))`, likewise.
    @inline(__always)
    private func sendTransition(_ transition: TransitionReport) {
        guard holding else { return output.transition(transition, session: index, input: input) }
        send(.transition(transition))
    }

    /// Sends output of the reading in play, or holds it while there are other readings (in every reading, when the
    /// part of the event every reading shares made it).
    private func send(_ item: HeldOutput) {
        guard holding else { return deliver(item) }
        held.append(item)
        if inSharedPart { for index in otherReadings.indices { otherReadings[index].held.append(item) } }
    }

    private func deliver(_ item: HeldOutput) {
        switch item {
        case .finding(let finding, let listedAt):
            guard policy.isKnown(finding, in: &known) else { return output.finding(finding) }
            if let listedAt { knownListed.append(listedAt) } else { findingsNotListed -= 1 }
        case .transition(let report): output.transition(report, session: index, input: input)
        case .duration(let ms, let kind, let name): output.duration(ms, of: kind, name: name)
        case .event(let event, let subject): output.event(event, subject: subject, session: index, input: input)
        }
    }

    // MARK: Readings

    private func currentReading() -> IdentityReading {
        IdentityReading(instances: instances, transitions: transitions, leaks: leaks, hostedViews: hostedViews,
                        transitionReports: transitionReports, transitionsNotListed: transitionsNotListed, findings: findings,
                        findingsNotListed: findingsNotListed, held: held, madeAt: eventCount, cost: cost)
    }

    /// Puts `reading` in play, and the reading that was in play in `reading`.
    private func exchange(_ reading: inout IdentityReading) {
        swap(&instances, &reading.instances)
        swap(&transitions, &reading.transitions)
        swap(&leaks, &reading.leaks)
        swap(&hostedViews, &reading.hostedViews)
        swap(&transitionReports, &reading.transitionReports)
        swap(&transitionsNotListed, &reading.transitionsNotListed)
        swap(&findings, &reading.findings)
        swap(&findingsNotListed, &reading.findingsNotListed)
        swap(&held, &reading.held)
        swap(&cost, &reading.cost)
        swap(&madeAt, &reading.madeAt)
    }

    /// After an event, while output is held: readings made join the others, those that cost clearly more than the best
    /// are dropped, and at most `IdentityReadings.maxReadings` are kept. With one left, its held output is sent; past
    /// the window, the cheapest is taken.
    private func settleReadings() {
        if !newReadings.isEmpty {
            otherReadings += newReadings
            newReadings.removeAll()
        }
        var best = cost
        for reading in otherReadings { best = min(best, reading.cost) }
        otherReadings.removeAll { $0.cost > best + IdentityReadings.dropMargin }
        // The cheapest reading is the one in play: the one the session's next choices are made in, and never dropped.
        if cost > best, let cheapest = otherReadings.indices.min(by: { otherReadings[$0].cost < otherReadings[$1].cost }) {
            exchange(&otherReadings[cheapest])
            if otherReadings[cheapest].cost > best + IdentityReadings.dropMargin { otherReadings.remove(at: cheapest) }
        }
        // Of readings that cost the same, the newest are kept: the choices of an older one had longer to be
        // contradicted, and its copies made since carry them on.
        if otherReadings.count >= IdentityReadings.maxReadings {
            otherReadings.sort { ($0.cost, -$0.madeAt) < ($1.cost, -$1.madeAt) }
            otherReadings.removeLast(otherReadings.count - (IdentityReadings.maxReadings - 1))
        }
        if otherReadings.isEmpty {
            release()
        } else if eventCount - holdingSince >= IdentityReadings.window || held.count >= IdentityReadings.maxHeld {
            decideReadings()
        }
    }

    /// Takes the cheapest reading (the one in play on a tie); its held findings that not every other reading needs are
    /// told as ambiguous. Then sends what it held.
    private func decideReadings() {
        if let cheapest = otherReadings.indices.min(by: { otherReadings[$0].cost < otherReadings[$1].cost }),
           otherReadings[cheapest].cost < cost {
            exchange(&otherReadings[cheapest])
        }
        for position in held.indices {
            guard case .finding(let finding, let listedAt) = held[position], finding.severity != .info,
                  !IdentityReadings.isShared(finding, by: otherReadings) else { continue }
            let told = IdentityReadings.ambiguous(finding)
            held[position] = .finding(told, listedAt: listedAt)
            if let listedAt { findings[listedAt] = told }
        }
        otherReadings.removeAll()
        release()
    }

    /// Sends the held output of the reading in play, the only one left, and stops holding.
    private func release() {
        holding = false
        let output = held
        held.removeAll()
        for item in output { deliver(item) }
        guard !knownListed.isEmpty else { return }
        let knownPlaces = Set(knownListed)
        findings = findings.indices.filter { !knownPlaces.contains($0) }.map { findings[$0] }
        knownListed.removeAll()
    }

    /// Streams the event when the output wants it live, and keeps its record on `timeline` when it is one of the
    /// first `eventsKept` events of the session.
    private func keep(_ event: borrowing Event, subject: String, on timeline: (EventRecord) -> Void) {
        let kept = eventCount <= eventsKept
        guard kept || streamsLiveItems else { return }
        let live = LiveEvent(line: event.line, time: event.time, offsetMs: milliseconds(from: clock.startMicros, to: eventMicros),
                             callback: event.callback, spelled: names.spelled(event.message))
        if streamsLiveItems { sendEvent(live, subject: subject) }
        if kept { timeline(live.record) }
    }
}
