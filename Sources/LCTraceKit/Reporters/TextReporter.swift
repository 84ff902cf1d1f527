/// ANSI styling, applied only when colour is on.
public struct TextStyle: Sendable {
    public let enabled: Bool
    public init(enabled: Bool) { self.enabled = enabled }

    func apply(_ code: String, _ text: String) -> String { enabled ? "\u{1B}[\(code)m\(text)\u{1B}[0m" : text }
    func bold(_ text: String) -> String { apply("1", text) }
    func dim(_ text: String) -> String { apply("2", text) }
    func severity(_ severity: Severity, _ text: String) -> String {
        switch severity {
        case .error: return apply("1;31", text)
        case .warning: return apply("1;33", text)
        case .info: return apply("1;36", text)
        }
    }
}

/// `--format text`: per session, the timeline of each controller, the transitions with their durations and the
/// findings in the `input:line: severity: [rule] message` shape editors understand; then a summary line.
///
/// Live (input from a pipe or terminal, or `--follow`), each finding is printed and flushed the moment it is
/// decided, and the session blocks that follow leave their findings out.
///
/// Session blocks are written as bytes (`TextWriter`), by the same function whether this reporter writes them or a
/// parallel run's worker renders them ahead of time (`sessionFormatter`).
public final class TextReporter: SessionFormatting {
    private let output: Output
    private let style: TextStyle
    private let includeEvents: Bool
    private let live: Bool
    public let sessionFormatter: SessionFormatter
    /// Reused for every session block, so its memory is allocated once.
    private let block = ByteBuffer(capacity: 1 << 12)

    public init(output: Output, style: TextStyle, includeEvents: Bool, live: Bool = false) {
        self.output = output
        self.style = style
        self.includeEvents = includeEvents
        self.live = live
        sessionFormatter = SessionFormatter(numberAfter: "Session ") { session, text in
            TextReporter.writeSession(session, to: TextWriter(buffer: text, style: style), events: includeEvents, findings: !live)
        }
    }

    public func finding(_ finding: Finding) {
        guard live else {
            if finding.session == 0 { inputFindings.append(finding) }
            return
        }
        output.write(formatFinding(finding) + "\n")
        output.flush()
    }

    /// Findings about the input being read as a whole, printed when it ends (session blocks print the others).
    private var inputFindings: [Finding] = []

    public func inputEnded(_ summary: InputSummary) {
        writeInputFindings(under: "Input \(TerminalText.escaped(summary.name))")
    }

    /// The findings about a whole input (or run) held so far, in a block of their own under `title`; none, no block.
    private func writeInputFindings(under title: String) {
        guard !inputFindings.isEmpty else { return }
        output.write(style.bold(title) + "\n  " + style.bold("Findings") + "\n")
        for finding in inputFindings { output.write("    " + formatFinding(finding) + "\n") }
        output.write("\n")
        inputFindings = []
    }

    public func sessionClosed(_ session: SessionReport) {
        block.removeAll()
        sessionFormatter.render(session, block)
        output.write(block.bytes)
        if live { output.flush() }
    }

    public func write(_ session: RenderedItem, number: Int) {
        session.write(number: number, to: output)
        if live { output.flush() }
    }

    /// One session's block, ending with an empty line. Its number is the first one after `Session `, as
    /// `SessionFormatter` needs.
    private static func writeSession(_ session: SessionReport, to w: TextWriter, events: Bool, findings: Bool) {
        w.bold {
            w.write("Session ")
            w.write(session.index)
            w.write(" · ")
            w.write(text: session.input)
            if let process = session.process {
                w.write(" · ")
                w.write(text: process)
                if let pid = session.pid { w.write("["); w.write(pid); w.write("]") }
            }
            w.write(" · lines ")
            w.write(session.startLine)
            w.write("–")
            w.write(session.endLine)
            if let duration = session.durationMs { w.write(" · "); w.duration(duration) }
        }
        w.write("\n")

        let launch = session.launch
        if !launch.isEmpty {
            w.write("  ")
            w.bold { w.write("Launch") }
            w.dim {
                w.write("  ")
                if let ms = launch.mainToFirstAppearMs { w.write("main → first viewDidAppear "); w.duration(ms) }
                if let ms = launch.finishLaunchingToActiveMs {
                    if launch.mainToFirstAppearMs != nil { w.write(", ") }
                    w.write("didFinishLaunching → active ")
                    w.duration(ms)
                }
            }
            w.write("\n")
        }
        if session.app.eventCount > 0 {
            w.write("  ")
            w.bold { w.write("App") }
            w.dim { w.write("  "); w.plural(session.app.eventCount, "event"); w.write(", ends "); w.write(text: session.app.finalPhase.rawValue) }
            w.write("\n")
            if events { writeEvents(session.app.events, to: w) }
        }
        for scene in session.scenes {
            w.write("  ")
            w.bold { w.write(text: scene.id) }
            w.dim { w.write("  "); w.plural(scene.eventCount, "event"); w.write(", ends "); w.write(text: scene.finalPhase.rawValue) }
            w.write("\n")
        }
        session.controllers.withUnsafeBufferPointer { controllers in
            for index in controllers.indices {
                writeController(controllers[index], to: w)
                if events { writeEvents(controllers[index].events, to: w) }
            }
        }
        for unlisted in session.unlistedControllers { writeUnlisted(unlisted, to: w) }
        if session.transitionCount > 0 {
            w.write("  ")
            w.bold { w.write("Transitions") }
            w.write("\n")
            var width = 0
            for transition in session.transitions { width = max(width, transition.kind.rawValue.utf8.count) }
            session.transitions.withUnsafeBufferPointer { transitions in
                for index in transitions.indices { writeTransition(transitions[index], kindWidth: width, to: w) }
            }
            if session.transitionsNotListed > 0 {
                w.write("    ")
                w.dim { w.write(session.transitionsNotListed); w.write(" more transitions, not listed") }
                w.write("\n")
            }
        }
        if findings, session.findingCount > 0 {
            w.write("  ")
            w.bold { w.write("Findings") }
            w.write("\n")
            for finding in session.findings {
                w.write("    ")
                writeFinding(finding, to: w)
                w.write("\n")
            }
            if session.findingsNotListed > 0 {
                w.write("    ")
                w.dim { w.write(session.findingsNotListed); w.write(" more findings, not listed (the summary counts them)") }
                w.write("\n")
            }
        }
        w.write("\n")
    }

    /// `  C: 399000 more instances, all deallocated, not listed  2394000 events, lines 6001–2400000`
    private static func writeUnlisted(_ unlisted: UnlistedControllers, to w: TextWriter) {
        w.write("  ")
        w.bold { w.write(text: unlisted.className) }
        w.write(": ")
        w.write(unlisted.instances)
        w.write(unlisted.instances == 1 ? " more instance, deallocated, not listed" : " more instances, all deallocated, not listed")
        w.dim {
            w.write("  ")
            w.plural(unlisted.eventCount, "event")
            w.write(", lines ")
            w.write(unlisted.firstLine)
            w.write("–")
            w.write(unlisted.lastLine)
        }
        w.write("\n")
    }

    /// `  Name  3 events, ends hidden, viewDidLoad→viewDidAppear 8 ms, on screen 765 ms, 1.335 s`
    private static func writeController(_ controller: ControllerReport, to w: TextWriter) {
        w.write("  ")
        w.bold { w.write(text: controller.id) }
        if controller.identity == .inferred { w.write(" (inferred)") }
        if controller.kind == .view { w.dim { w.write(" (SwiftUI view)") } }
        w.dim {
            w.write("  ")
            w.plural(controller.eventCount, "event")
            w.write(", ends ")
            w.write(text: controller.finalPhase.rawValue)
            if let load = controller.loadToFirstAppearMs { w.write(", viewDidLoad→viewDidAppear "); w.duration(load) }
            var first = true
            for span in controller.appearances {
                guard let duration = span.durationMs else { continue }
                w.write(first ? ", on screen " : ", ")
                w.duration(duration)
                first = false
            }
            if controller.appearancesNotListed > 0 {
                w.write(", ")
                w.write(controller.appearancesNotListed)
                w.write(" more appearances not listed")
            }
        }
        w.write("\n")
    }

    /// `    push    A → B  lines 5–9, 510 ms, declared push at line 4`
    private static func writeTransition(_ transition: TransitionReport, kindWidth: Int, to w: TextWriter) {
        w.write("    ")
        w.write(text: transition.kind.rawValue)
        for _ in transition.kind.rawValue.utf8.count..<max(kindWidth, transition.kind.rawValue.utf8.count) { w.write(" ") }
        w.write("  ")
        let controllers = transition.controllers
        switch (transition.from, transition.to) {
        case (let from?, let to?) where controllers.count == 2:
            w.write(text: from)
            w.write(" → ")
            w.write(text: to)
        case (nil, _?) where controllers.count == 1 && !transition.kind.endsWhereItBegan:
            w.write("→ ")
            w.write(text: controllers[0])
        case (_?, nil) where controllers.count == 1 && !transition.kind.endsWhereItBegan:
            w.write(text: controllers[0])
            w.write(" →")
        default:
            for (index, name) in controllers.enumerated() {
                if index > 0 { w.write(", ") }
                w.write(text: name)
            }
        }
        w.dim { w.write("  lines "); w.write(transition.startLine); w.write("–"); w.write(transition.endLine) }
        if let duration = transition.durationMs { w.dim { w.write(", "); w.duration(duration) } }
        if let declared = transition.declared {
            w.dim {
                w.write(", declared ")
                w.write(text: declared.rawValue)
                w.write(" at line ")
                w.write(transition.declaredLine ?? 0)
            }
        }
        w.write("\n")
    }

    /// `      +0.015 s  viewDidAppear:  line 9`
    private static func writeEvents(_ events: [EventRecord], to w: TextWriter) {
        events.withUnsafeBufferPointer { events in
            for index in events.indices {
                let event = events[index]
                w.write("    ")
                w.leftPadded(to: 10) {
                    if let offset = event.offsetMs { w.write("+"); w.seconds(offset) }
                }
                w.write("  ")
                w.write(text: event.spelled)
                w.dim { w.write("  line "); w.write(event.line) }
                w.write("\n")
            }
        }
    }

    /// `input:line: severity: [rule] message`
    private static func writeFinding(_ finding: Finding, to w: TextWriter) {
        w.write(text: finding.input)
        w.write(":")
        w.write(finding.line)
        w.write(": ")
        w.severity(finding.severity) { w.write(text: finding.severity.rawValue); w.write(":") }
        w.write(" [")
        w.write(text: finding.rule.rawValue)
        w.write("] ")
        w.write(text: finding.message)
    }

    public func finish(_ summary: RunSummary) {
        // Findings about the whole run (held against a model, `--against`) come after its last input.
        writeInputFindings(under: "Run")
        writeTiming(summary)
        writeUnread(summary)
        writeTimeStepsBack(summary)
        // Crash-report lines are named only when there are some; redacted lines are among the unread ones.
        let read = LineDisposition.allCases.filter { $0 != .crash || summary.lines(.crash) > 0 }.map { disposition in
            "\(summary.lines(disposition)) \(disposition.rawValue)"
                + (disposition == .unread && summary.redactedLines > 0 ? " (\(summary.redactedLines) redacted by os_log)" : "")
        }
        let structure = summary.skipped(.jsonStructure)
        let skipped = summary.skippedLines - summary.skipped(.blank) - structure
        var parts = ["\(TextFormat.plural(summary.lines, "line")) (" + read.joined(separator: ", ") + ", \(summary.skipped(.blank)) blank"
                     + (structure > 0 ? ", \(structure) JSON structure" : "")
                     + (skipped > 0 ? ", \(skipped) skipped" : "")
                     + (summary.truncatedLines > 0 ? ", \(summary.truncatedLines) truncated" : "") + ")"]
        parts.append(TextFormat.plural(summary.events, "event") + (summary.unreadTimes > 0 ? " (\(summary.unreadTimes) with a time that could not be read)" : ""))
        parts.append(TextFormat.plural(summary.sessions, "session"))
        parts.append(TextFormat.plural(summary.controllers, "controller") + (summary.views > 0 ? ", " + TextFormat.plural(summary.views, "SwiftUI view") : ""))
        parts.append(TextFormat.plural(summary.transitions, "transition"))
        let counts = summary.findings.sentence { severity, text in summary.findings(severity) > 0 ? style.severity(severity, text) : text }
        let known = summary.findingsInBaseline.map { " (\($0) known from the baseline)" } ?? ""
        output.write(style.bold("Summary:") + " " + parts.joined(separator: ", ") + "; " + counts + known + "\n")
        output.flush()
    }

    /// The lines that name a lifecycle callback but were not read as one, so that none is lost silently.
    private func writeUnread(_ summary: RunSummary) {
        let unread = summary.unread
        guard !unread.isEmpty else { return }
        let total = summary.lines(.unread)
        let heading = total > unread.count ? "Unread lines (the first \(unread.count) of \(total))" : "Unread lines"
        output.write(style.bold(heading) + " name a lifecycle callback but no controller (`lctrace lines FILE` shows how each line was read)\n")
        for line in unread {
            output.write("  \(TerminalText.escaped(line.input)):\(line.line): \(line.reason.rawValue): \(TerminalText.escaped(line.text))\n")
        }
        output.write("\n")
    }

    /// Where the logged time went back (logs pasted out of order, a time of day past midnight).
    private func writeTimeStepsBack(_ summary: RunSummary) {
        let inputs = summary.inputs.filter { $0.timeStepsBack > 0 }
        guard !inputs.isEmpty else { return }
        output.write(style.bold("Time went back") + " within a session; durations across a step back count as zero\n")
        for input in inputs {
            let which = input.timeStepsBack == 1 ? "the only step back" : "the first of \(input.timeStepsBack) steps back"
            output.write("  \(TerminalText.escaped(input.name)):\(input.firstTimeStepBack ?? 0): \(which)\n")
        }
        output.write("\n")
    }

    /// Per controller class and per transition kind: how many, p50, p90, max.
    private func writeTiming(_ summary: RunSummary) {
        let groups = [("viewDidLoad → first viewDidAppear", summary.loadToAppearByClass), ("Transitions", summary.transitionDurations)]
            .filter { !$0.1.isEmpty }
        guard !groups.isEmpty else { return }
        output.write(style.bold("Timing") + "\n")
        let width = groups.flatMap { $0.1.map { TerminalText.escaped($0.name).count } }.max() ?? 0
        for (title, rows) in groups {
            output.write("  " + title + "\n")
            for row in rows {
                output.write("    " + TerminalText.escaped(row.name).rightPadded(to: width) + "  " + "\(row.count)×".leftPadded(to: 5)
                             + style.dim("  p50 \(TextFormat.duration(row.p50Ms)), p90 \(TextFormat.duration(row.p90Ms)), max \(TextFormat.duration(row.maxMs))"
                                            + (row.overAnHour > 0 ? " (\(row.overAnHour) over an hour counted as 1 h in p50 and p90)" : "")) + "\n")
            }
        }
        output.write("\n")
    }

    /// `input:line: severity: [rule] message`
    public func formatFinding(_ finding: Finding) -> String {
        let text = ByteBuffer(capacity: 256)
        TextReporter.writeFinding(finding, to: TextWriter(buffer: text, style: style))
        return String(decoding: text.bytes, as: UTF8.self)
    }
}

extension String {
    /// The string followed by spaces up to `width` characters.
    public func rightPadded(to width: Int) -> String {
        count >= width ? self : self + String(repeating: " ", count: width - count)
    }

    func leftPadded(to width: Int) -> String {
        count >= width ? self : String(repeating: " ", count: width - count) + self
    }
}
