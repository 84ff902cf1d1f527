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
public final class TextRenderer: ReportSink {
    private let output: Output
    private let style: TextStyle
    private let includeEvents: Bool
    private let live: Bool

    public init(output: Output, style: TextStyle, includeEvents: Bool, live: Bool = false) {
        self.output = output
        self.style = style
        self.includeEvents = includeEvents
        self.live = live
    }

    public func beginInput(_ name: String) {}

    public func finding(_ finding: Finding) {
        guard live else { return }
        output.write(formatFinding(finding) + "\n")
        output.flush()
    }
    public func endInput(_ summary: InputSummary) {}

    public func sessionClosed(_ session: SessionReport) {
        var header = "Session \(session.index) · \(session.input)"
        if let process = session.process { header += " · \(process)" + (session.pid.map { "[\($0)]" } ?? "") }
        header += " · lines \(session.startLine)–\(session.endLine)"
        if let duration = session.durationMs { header += " · \(TextRenderer.duration(duration))" }
        output.write(style.bold(header) + "\n")

        if !session.launch.isEmpty {
            var parts: [String] = []
            if let ms = session.launch.mainToFirstAppearMs { parts.append("main → first viewDidAppear \(TextRenderer.duration(ms))") }
            if let ms = session.launch.finishLaunchingToActiveMs { parts.append("didFinishLaunching → active \(TextRenderer.duration(ms))") }
            output.write("  " + style.bold("Launch") + style.dim("  " + parts.joined(separator: ", ")) + "\n")
        }
        if session.app.eventCount > 0 {
            output.write("  " + style.bold("App") + style.dim("  \(plural(session.app.eventCount, "event")), ends \(session.app.finalPhase.rawValue)") + "\n")
            if includeEvents { session.app.events.forEach(writeEvent) }
        }
        for scene in session.scenes {
            output.write("  " + style.bold(scene.id) + style.dim("  \(plural(scene.eventCount, "event")), ends \(scene.finalPhase.rawValue)") + "\n")
        }
        for controller in session.controllers {
            var facts = [plural(controller.eventCount, "event"), "ends \(controller.finalPhase.rawValue)"]
            if let load = controller.loadToFirstAppearMs { facts.append("viewDidLoad→viewDidAppear \(TextRenderer.duration(load))") }
            let onScreen = controller.appearances.compactMap(\.durationMs)
            if !onScreen.isEmpty { facts.append("on screen " + onScreen.map(TextRenderer.duration).joined(separator: ", ")) }
            output.write("  " + style.bold(controller.id) + style.dim("  " + facts.joined(separator: ", ")) + "\n")
            if includeEvents { controller.events.forEach(writeEvent) }
        }
        if !session.transitions.isEmpty {
            output.write("  " + style.bold("Transitions") + "\n")
            let width = session.transitions.map(\.kind.rawValue.count).max() ?? 0
            for transition in session.transitions {
                let kind = transition.kind.rawValue.rightPadded(to: width)
                let parties: String
                switch (transition.from, transition.to) {
                case (let from?, let to?) where transition.controllers.count == 2: parties = "\(from) → \(to)"
                case (nil, _?) where transition.controllers.count == 1 && !transition.kind.endsWhereItBegan:
                    parties = "→ " + transition.controllers[0]
                case (_?, nil) where transition.controllers.count == 1 && !transition.kind.endsWhereItBegan:
                    parties = transition.controllers[0] + " →"
                default: parties = transition.controllers.joined(separator: ", ")
                }
                var line = "    \(kind)  \(parties)" + style.dim("  lines \(transition.startLine)–\(transition.endLine)")
                if let duration = transition.durationMs { line += style.dim(", \(TextRenderer.duration(duration))") }
                if let declared = transition.declared { line += style.dim(", declared \(declared.rawValue) at line \(transition.declaredLine ?? 0)") }
                output.write(line + "\n")
            }
        }
        if !session.findings.isEmpty, !live {
            output.write("  " + style.bold("Findings") + "\n")
            for finding in session.findings { output.write("    " + formatFinding(finding) + "\n") }
        }
        output.write("\n")
        if live { output.flush() }
    }

    public func finish(_ summary: RunSummary) {
        writeTiming(summary)
        var parts = ["\(plural(summary.lines, "line")) (\(summary.parsedLines) parsed, \(summary.skippedLines) skipped"
                     + (summary.truncatedLines > 0 ? ", \(summary.truncatedLines) truncated" : "") + ")"]
        parts.append(plural(summary.events, "event"))
        parts.append(plural(summary.sessions, "session"))
        parts.append(plural(summary.controllers, "controller"))
        parts.append(plural(summary.transitions, "transition"))
        let counts = [Severity.error, .warning, .info].map { severity in
            let text = plural(summary.findings(severity), severity.rawValue)
            return summary.findings(severity) > 0 ? style.severity(severity, text) : text
        }
        output.write(style.bold("Summary:") + " " + parts.joined(separator: ", ") + "; " + counts.joined(separator: ", ") + "\n")
        output.flush()
    }

    /// Per controller class and per transition kind: how many, p50, p90, max.
    private func writeTiming(_ summary: RunSummary) {
        let groups = [("viewDidLoad → first viewDidAppear", summary.loadToAppearByClass), ("Transitions", summary.transitionDurations)]
            .filter { !$0.1.isEmpty }
        guard !groups.isEmpty else { return }
        output.write(style.bold("Timing") + "\n")
        let width = groups.flatMap { $0.1.map(\.name.count) }.max() ?? 0
        for (title, rows) in groups {
            output.write("  " + title + "\n")
            for row in rows {
                output.write("    " + row.name.rightPadded(to: width) + "  " + "\(row.count)×".leftPadded(to: 5)
                             + style.dim("  p50 \(TextRenderer.duration(row.p50Ms)), p90 \(TextRenderer.duration(row.p90Ms)), max \(TextRenderer.duration(row.maxMs))") + "\n")
            }
        }
        output.write("\n")
    }

    /// `input:line: severity: [rule] message`
    public func formatFinding(_ finding: Finding) -> String {
        "\(finding.input):\(finding.line): " + style.severity(finding.severity, "\(finding.severity.rawValue):")
            + " [\(finding.rule.rawValue)] \(finding.message)"
    }

    private func writeEvent(_ event: EventRecord) {
        let offset = event.offsetMs.map { "+" + TextRenderer.seconds($0) } ?? ""
        output.write("    " + offset.leftPadded(to: 10) + "  " + event.spelled + style.dim("  line \(event.line)") + "\n")
    }

    static func seconds(_ ms: Double) -> String {
        let value = (ms / 1000 * 1000).rounded() / 1000
        var text = String(value)
        if let dot = text.firstIndex(of: ".") {
            let decimals = text.distance(from: dot, to: text.endIndex) - 1
            if decimals < 3 { text += String(repeating: "0", count: 3 - decimals) }
        }
        return text + " s"
    }

    /// `1.234 s` from a second up, else milliseconds with at most one decimal (`43.2 ms`).
    static func duration(_ ms: Double) -> String {
        ms >= 1000 ? seconds(ms) : JSONValue.format((ms * 10).rounded() / 10) + " ms"
    }
}

/// `1 event`, `2 events`.
func plural(_ count: Int, _ word: String) -> String { "\(count) \(word)\(count == 1 ? "" : "s")" }

extension String {
    /// The string followed by spaces up to `width` characters.
    public func rightPadded(to width: Int) -> String {
        count >= width ? self : self + String(repeating: " ", count: width - count)
    }

    func leftPadded(to width: Int) -> String {
        count >= width ? self : String(repeating: " ", count: width - count) + self
    }
}
