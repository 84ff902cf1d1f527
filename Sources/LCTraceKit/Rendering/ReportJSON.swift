/// The JSON shape of each report type, in the key order the README documents. Shared by every JSON output.
enum ReportJSON {
    static let schemaVersion = 1

    static func session(_ session: SessionReport, events: Bool) -> JSONValue {
        .object([
            ("index", .int(session.index)),
            ("input", .string(session.input)),
            ("process", .optional(session.process)),
            ("pid", .optional(session.pid)),
            ("startLine", .int(session.startLine)),
            ("endLine", .int(session.endLine)),
            ("startTime", .optional(session.startTime)),
            ("endTime", .optional(session.endTime)),
            ("durationMs", .optional(session.durationMs)),
            ("launch", .object([
                ("mainToFirstAppearMs", .optional(session.launch.mainToFirstAppearMs)),
                ("finishLaunchingToActiveMs", .optional(session.launch.finishLaunchingToActiveMs)),
            ])),
            ("app", app(session.app, events: events)),
            ("scenes", .array(session.scenes.map(scene))),
            ("controllers", .array(session.controllers.map { controller($0, events: events) })),
            ("transitions", .array(session.transitions.map(transition))),
            ("findings", .int(session.findings.count)),
        ])
    }

    static func app(_ app: AppReport, events: Bool) -> JSONValue {
        var members: [(String, JSONValue)] = [("finalState", .string(app.finalPhase.rawValue)), ("eventCount", .int(app.eventCount))]
        if events { members.append(("events", .array(app.events.map(event)))) }
        return .object(members)
    }

    static func scene(_ scene: SceneReport) -> JSONValue {
        .object([
            ("id", .string(scene.id)),
            ("class", .string(scene.className)),
            ("address", .optional(scene.address)),
            ("firstLine", .int(scene.firstLine)),
            ("eventCount", .int(scene.eventCount)),
            ("finalState", .string(scene.finalPhase.rawValue)),
        ])
    }

    static func controller(_ controller: ControllerReport, events: Bool) -> JSONValue {
        var members: [(String, JSONValue)] = [
            ("id", .string(controller.id)),
            ("class", .string(controller.className)),
            ("address", .optional(controller.address)),
            ("firstLine", .int(controller.firstLine)),
            ("lastLine", .int(controller.lastLine)),
            ("eventCount", .int(controller.eventCount)),
            ("finalState", .string(controller.finalPhase.rawValue)),
            ("loadToFirstAppearMs", .optional(controller.loadToFirstAppearMs)),
            ("appearances", .array(controller.appearances.map { span in
                .object([
                    ("appearedLine", .int(span.appearedLine)),
                    ("disappearedLine", .optional(span.disappearedLine)),
                    ("durationMs", .optional(span.durationMs)),
                ])
            })),
        ]
        if events { members.append(("events", .array(controller.events.map(event)))) }
        return .object(members)
    }

    static func event(_ event: EventRecord) -> JSONValue {
        .object([
            ("line", .int(event.line)),
            ("time", .optional(event.time)),
            ("offsetMs", .optional(event.offsetMs)),
            ("callback", .string(event.callback.rawValue)),
            ("spelled", .string(event.spelled)),
        ])
    }

    static func transition(_ transition: TransitionReport) -> JSONValue {
        .object([
            ("kind", .string(transition.kind.rawValue)),
            ("declared", .optional(transition.declared?.rawValue)),
            ("declaredLine", .optional(transition.declaredLine)),
            ("from", .optional(transition.from)),
            ("to", .optional(transition.to)),
            ("controllers", .array(transition.controllers.map(JSONValue.string))),
            ("startLine", .int(transition.startLine)),
            ("endLine", .int(transition.endLine)),
            ("startTime", .optional(transition.startTime)),
            ("durationMs", .optional(transition.durationMs)),
        ])
    }

    static func finding(_ finding: Finding) -> JSONValue {
        .object([
            ("rule", .string(finding.rule.rawValue)),
            ("severity", .string(finding.severity.rawValue)),
            ("input", .string(finding.input)),
            ("line", .int(finding.line)),
            ("session", .int(finding.session)),
            ("controller", .optional(finding.controller)),
            ("message", .string(finding.message)),
            ("expected", .optional(finding.expected)),
            ("actual", .optional(finding.actual)),
        ])
    }

    static func summary(_ summary: RunSummary) -> JSONValue {
        .object([
            ("inputs", .int(summary.inputs.count)),
            ("lines", .int(summary.lines)),
            ("parsedLines", .int(summary.parsedLines)),
            ("skippedLines", .int(summary.skippedLines)),
            ("skipped", .object(SkipReason.allCases.map { ($0.rawValue, .int(summary.skipped($0))) })),
            ("truncatedLines", .int(summary.truncatedLines)),
            ("events", .int(summary.events)),
            ("sessions", .int(summary.sessions)),
            ("controllers", .int(summary.controllers)),
            ("transitions", .int(summary.transitions)),
            ("findings", .object(Severity.allCases.reversed().map { ($0.rawValue, .int(summary.findings($0))) })),
            ("timing", .object([
                ("loadToFirstAppearByClass", .array(summary.loadToAppearByClass.map(durations))),
                ("transitionsByKind", .array(summary.transitionDurations.map(durations))),
            ])),
            ("perInput", .array(summary.inputs.map(input))),
        ])
    }

    static func durations(_ stats: DurationStats) -> JSONValue {
        .object([
            ("name", .string(stats.name)),
            ("count", .int(stats.count)),
            ("p50Ms", .double(stats.p50Ms)),
            ("p90Ms", .double(stats.p90Ms)),
            ("maxMs", .double(stats.maxMs)),
        ])
    }

    static func input(_ input: InputSummary) -> JSONValue {
        .object([
            ("name", .string(input.name)),
            ("format", .string(input.format)),
            ("bytes", .int(input.bytes)),
            ("lines", .int(input.lines)),
            ("parsedLines", .int(input.parsedLines)),
            ("skippedLines", .int(input.skippedLines)),
            ("truncatedLines", .int(input.truncatedLines)),
            ("gluedRecords", .int(input.gluedRecords)),
            ("events", .int(input.events)),
        ])
    }
}
