/// The JSON shape of each report type, in the key order the README documents. Shared by every JSON output: each
/// `…Members` function writes an object's members, so a JSON Lines item can put its own fields before them.
enum ReportJSON {
    static let schemaVersion = 1

    static func sessionMembers(_ session: SessionReport, events: Bool, transitions: Bool = true, into w: inout JSONWriter) {
        w.member("index", session.index)
        w.member("input", session.input)
        w.member("process", session.process)
        w.member("pid", session.pid)
        w.member("startLine", session.startLine)
        w.member("endLine", session.endLine)
        w.member("startTime", session.startTime)
        w.member("endTime", session.endTime)
        w.member("durationMs", session.durationMs)
        w.key("launch")
        w.object { w in
            w.member("mainToFirstAppearMs", session.launch.mainToFirstAppearMs)
            w.member("finishLaunchingToActiveMs", session.launch.finishLaunchingToActiveMs)
        }
        w.key("app")
        w.object { w in
            w.member("finalState", session.app.finalPhase.rawValue)
            w.member("eventCount", session.app.eventCount)
            if events { eventList(session.app.events, into: &w) }
        }
        w.key("scenes")
        w.objects(session.scenes) { scene, w in sceneMembers(scene, into: &w) }
        w.key("controllers")
        w.objects(session.controllers) { controller, w in controllerMembers(controller, events: events, into: &w) }
        // What a session leaves out is written only when it left something out: a report within the limits has the
        // keys it always had.
        if !session.unlistedControllers.isEmpty {
            w.key("unlistedControllers")
            w.objects(session.unlistedControllers) { unlisted, w in unlistedMembers(unlisted, into: &w) }
        }
        if transitions {
            w.key("transitions")
            w.objects(session.transitions) { transition, w in transitionMembers(transition, into: &w) }
            if session.transitionsNotListed > 0 { w.member("transitionsNotListed", session.transitionsNotListed) }
        }
        w.member("findings", session.findingCount)
    }

    static func unlistedMembers(_ unlisted: UnlistedControllers, into w: inout JSONWriter) {
        w.member("class", unlisted.className)
        w.member("instances", unlisted.instances)
        w.member("eventCount", unlisted.eventCount)
        w.member("firstLine", unlisted.firstLine)
        w.member("lastLine", unlisted.lastLine)
        w.member("finalState", ControllerPhase.dead.rawValue)
    }

    static func sceneMembers(_ scene: SceneReport, into w: inout JSONWriter) {
        w.member("id", scene.id)
        w.member("class", scene.className)
        w.member("address", scene.address)
        w.member("firstLine", scene.firstLine)
        w.member("eventCount", scene.eventCount)
        w.member("finalState", scene.finalPhase.rawValue)
    }

    static func controllerMembers(_ controller: ControllerReport, events: Bool, into w: inout JSONWriter) {
        w.member("id", controller.id)
        w.member("class", controller.className)
        w.member("address", controller.address)
        w.member("identity", controller.identity.rawValue)
        // Only for a SwiftUI view: a controller's object reads as it always has.
        if controller.kind == .view { w.member("kind", controller.kind.rawValue) }
        w.member("firstLine", controller.firstLine)
        w.member("lastLine", controller.lastLine)
        w.member("eventCount", controller.eventCount)
        w.member("finalState", controller.finalPhase.rawValue)
        w.member("loadToFirstAppearMs", controller.loadToFirstAppearMs)
        w.key("appearances")
        w.array(controller.appearances) { span, w in
            w.object { w in
                w.member("appearedLine", span.appearedLine)
                w.member("disappearedLine", span.disappearedLine)
                w.member("durationMs", span.durationMs)
            }
        }
        if controller.appearancesNotListed > 0 { w.member("appearancesNotListed", controller.appearancesNotListed) }
        if events { eventList(controller.events, into: &w) }
    }

    private static func eventList(_ events: [EventRecord], into w: inout JSONWriter) {
        w.key("events")
        w.objects(events) { event, w in eventMembers(event, into: &w) }
    }

    static func eventMembers(_ event: EventRecord, into w: inout JSONWriter) {
        w.member("line", event.line)
        w.member("time", event.time)
        w.member("offsetMs", event.offsetMs)
        w.member("callback", event.callback.rawValue)
        w.member("spelled", event.spelled)
    }

    static func transitionMembers(_ transition: TransitionReport, into w: inout JSONWriter) {
        w.member("kind", transition.kind.rawValue)
        w.member("declared", transition.declared?.rawValue)
        w.member("declaredLine", transition.declaredLine)
        w.member("from", transition.from)
        w.member("to", transition.to)
        w.key("controllers")
        w.array(transition.controllers) { name, w in w.value(name) }
        w.member("startLine", transition.startLine)
        w.member("endLine", transition.endLine)
        w.member("startTime", transition.startTime)
        w.member("durationMs", transition.durationMs)
    }

    static func findingMembers(_ finding: Finding, into w: inout JSONWriter) {
        w.member("rule", finding.rule.rawValue)
        w.member("severity", finding.severity.rawValue)
        w.member("input", finding.input)
        w.member("line", finding.line)
        w.member("session", finding.session)
        w.member("controller", finding.controller)
        w.member("message", finding.message)
        w.member("expected", finding.expected)
        w.member("actual", finding.actual)
    }

    static func summaryMembers(_ summary: RunSummary, into w: inout JSONWriter) {
        w.member("inputs", summary.inputs.count)
        w.member("lines", summary.lines)
        w.member("parsedLines", summary.parsedLines)
        w.member("skippedLines", summary.skippedLines)
        w.key("skipped")
        w.object { w in
            for reason in SkipReason.allCases { w.key(text: reason.rawValue); w.value(summary.skipped(reason)) }
        }
        w.key("lineDispositions")
        w.object { w in dispositionMembers(summary.lines, summary.skipped, into: &w) }
        w.key("unreadLines")
        w.objects(summary.unread) { unread, w in
            w.member("input", unread.input)
            w.member("line", unread.line)
            w.member("text", unread.text)
            w.member("reason", unread.reason.rawValue)
        }
        w.member("truncatedLines", summary.truncatedLines)
        w.member("redactedLines", summary.redactedLines)
        w.member("events", summary.events)
        w.member("sessions", summary.sessions)
        w.member("controllers", summary.controllers)
        w.member("views", summary.views)
        w.member("transitions", summary.transitions)
        w.key("findings")
        w.object { w in
            for severity in Severity.mostSevereFirst { w.key(text: severity.rawValue); w.value(summary.findings(severity)) }
        }
        if let known = summary.findingsInBaseline { w.member("findingsInBaseline", known) }
        w.key("timing")
        w.object { w in
            w.key("loadToFirstAppearByClass")
            w.objects(summary.loadToAppearByClass) { stats, w in durationMembers(stats, into: &w) }
            w.key("transitionsByKind")
            w.objects(summary.transitionDurations) { stats, w in durationMembers(stats, into: &w) }
        }
        w.key("perInput")
        w.objects(summary.inputs) { input, w in inputMembers(input, into: &w) }
    }

    static func durationMembers(_ stats: DurationStats, into w: inout JSONWriter) {
        w.member("name", stats.name)
        w.member("count", stats.count)
        w.member("p50Ms", stats.p50Ms)
        w.member("p90Ms", stats.p90Ms)
        w.member("maxMs", stats.maxMs)
        w.member("overAnHour", stats.overAnHour)
    }

    /// `nameKey`: the member the input's name is written as (`name` in the JSON report, `input` in JSON Lines, where
    /// every record names its input so).
    static func inputMembers(_ input: InputSummary, nameKey: StaticString = "name", into w: inout JSONWriter) {
        w.member(nameKey, input.name)
        w.member("format", input.format)
        w.member("bytes", input.bytes)
        w.member("lines", input.lines)
        w.member("parsedLines", input.parsedLines)
        w.member("skippedLines", input.skippedLines)
        w.member("truncatedLines", input.truncatedLines)
        w.member("redactedLines", input.redactedLines)
        w.member("gluedRecords", input.gluedRecords)
        w.member("timeStepsBack", input.timeStepsBack)
        w.member("firstTimeStepBack", input.firstTimeStepBack)
        w.member("unreadTimes", input.unreadTimes)
        w.member("events", input.events)
        w.key("lineDispositions")
        w.object { w in dispositionMembers(input.lines, { input.skipped[$0] ?? 0 }, into: &w) }
    }

    /// Every line counted once: `lifecycle`, `notice`, `other`, `unread`, `crash`, then the skipped ones by reason.
    static func dispositionMembers(_ read: (LineDisposition) -> Int, _ skipped: (SkipReason) -> Int, into w: inout JSONWriter) {
        for disposition in LineDisposition.allCases { w.key(text: disposition.rawValue); w.value(read(disposition)) }
        for reason in SkipReason.allCases { w.key(text: reason.rawValue); w.value(skipped(reason)) }
    }
}
