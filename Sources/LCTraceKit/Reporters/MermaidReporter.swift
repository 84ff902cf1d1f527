/// `--reporter mermaid` and `mermaid-short`: Markdown with one Mermaid `sequenceDiagram` per session, for a pull
/// request or an issue, where GitHub draws it. The participants are UIKit, the app (and scene) delegate and the
/// controllers; the messages are the callbacks UIKit sent them (layout callbacks left out), the transitions are
/// notes across the controllers they moved between and the findings notes over what they are about. The short form
/// draws only the transitions, as messages between controllers, and the findings. The full form draws a session up to
/// its `timelineCut`, as the other timelines do, and says how many events it left out from there on.
public final class MermaidReporter: TimelineReporter {
    /// Items one diagram draws, and diagrams one report holds: GitHub gives up on bigger ones.
    public static let itemsPerDiagram = 300
    public static let diagrams = 100

    private let output: Output
    private let short: Bool
    private let selection: SessionSelection?
    private var drawn = 0
    private var notDrawn = 0
    private var findingCounts: [Int: SeverityCounts] = [:]

    public init(output: Output, short: Bool, selection: SessionSelection? = nil) {
        self.output = output
        self.short = short
        self.selection = selection
    }

    /// The short form draws no callbacks.
    public var timelineSessions: SessionSelection? { short ? nil : (selection ?? .all) }

    public func finding(_ finding: Finding) {
        findingCounts[finding.session, default: SeverityCounts()][finding.severity] += 1
    }

    public func sessionClosed(_ session: SessionReport) {
        let counts = findingCounts.removeValue(forKey: session.index) ?? SeverityCounts()
        guard selection?.contains(session.index) ?? true else { return }
        guard drawn < MermaidReporter.diagrams else { notDrawn += 1; return }
        drawn += 1
        var text = drawn == 1 ? "" : "\n"
        text += "### \(MarkdownText.cell(SessionTimeline.title(of: session)))\n\n"
        let findings = counts.sentence(omittingNone: true)
        text += "`\(MarkdownText.code(session.input))` lines \(session.startLine)–\(session.endLine): "
            + TextFormat.plural(session.controllerCount, "controller") + ", " + TextFormat.plural(session.transitionCount, "transition")
            + ", " + (findings.isEmpty ? "no findings" : findings) + ".\n\n"
        text += "```mermaid\n" + diagram(session) + "```\n"
        output.write(text)
    }

    public func finish(_ summary: RunSummary) {
        if drawn == 0 {
            output.write("No session to draw" + (selection.map { " in --session \($0)" } ?? "") + ".\n")
        } else if notDrawn > 0 {
            output.write("\n\(TextFormat.plural(notDrawn, "more session")) not drawn: one report holds \(MermaidReporter.diagrams) diagrams; "
                + "choose others with --session.\n")
        }
        output.flush()
    }

    // MARK: The diagram

    /// The transitions and findings, far fewer than the callbacks and much larger, are boxed, so that an item of a
    /// callback takes the room of its three fields only.
    private enum Item {
        indirect case transition(TransitionReport)
        case callback(Callback, spelled: String, participant: String)
        indirect case finding(Finding)

        /// Where the item goes among those of the same line: a transition before the callback that begins it, a
        /// finding after the callback it is about.
        var rank: Int {
            switch self {
            case .transition: return 0
            case .callback: return 1
            case .finding: return 2
            }
        }
    }

    private func diagram(_ session: SessionReport) -> String {
        var participants = ["UIKit": "UIKit"]
        var order = ["UIKit"]
        func declare(_ name: String, as id: String) {
            guard participants[name] == nil else { return }
            participants[name] = id
            order.append(name)
        }
        var items: [(line: Int, item: Item)] = []
        let cut = short ? nil : session.timelineCut
        if !short {
            for event in SessionTimeline.drawn(session.app.events, before: cut) where event.callback.family != .intent {
                let name = event.callback.family == .scene ? "Scene" : "App"
                declare(name, as: name.lowercased())
                items.append((event.line, .callback(event.callback, spelled: event.spelled, participant: name)))
            }
        }
        let controllers = cut.map { cut in session.controllers.filter { $0.firstLine < cut } } ?? session.controllers
        for (number, controller) in controllers.enumerated() {
            let id = "c\(number + 1)"
            if !short {
                declare(controller.id, as: id)
                for event in SessionTimeline.drawn(controller.events, before: cut) where !MermaidReporter.leftOut.contains(event.callback) {
                    items.append((event.line, .callback(event.callback, spelled: event.spelled, participant: controller.id)))
                }
            } else {
                participants[controller.id] = participants[controller.id] ?? id
            }
        }
        // Past the cut, the transitions that end there and the findings made there are counted, not drawn.
        var pastCut = 0
        for transition in session.transitions {
            if let cut, transition.endLine >= cut { pastCut += 1 } else { items.append((transition.startLine, .transition(transition))) }
        }
        for finding in session.findings {
            if let cut, finding.line >= cut { pastCut += 1 } else { items.append((finding.line, .finding(finding))) }
        }
        items.sort { ($0.line, $0.item.rank) < ($1.line, $1.item.rank) }

        var lines: [String] = []
        var participantsUsed: [String] = []
        /// The participant named `name`; UIKit, or the app for a finding, when none is.
        func participant(_ name: String?, orApp: Bool = false) -> String {
            guard let name, let id = participants[name] else { return orApp ? participants["App"] ?? "UIKit" : "UIKit" }
            if short, !participantsUsed.contains(name) { participantsUsed.append(name) }
            return id
        }
        for (line, item) in items.prefix(MermaidReporter.itemsPerDiagram) {
            switch item {
            case .callback(let callback, let spelled, let name):
                let target = participant(name)
                if callback.family == .marker {
                    lines.append("    Note over \(target): \(MermaidText.escape(spelled))")
                } else {
                    lines.append("    UIKit->>\(target): \(MermaidText.escape(spelled))")
                }
            case .transition(let transition):
                let from = participant(transition.from), to = participant(transition.to)
                let label = "\(transition.kind.rawValue) (lines \(transition.startLine)–\(transition.endLine))"
                if short {
                    lines.append("    \(from)->>\(to): \(MermaidText.escape(label))")
                } else {
                    let over = from == to ? from : "\(from),\(to)"
                    lines.append("    Note over \(over): \(MermaidText.escape(label))")
                }
            case .finding(let finding):
                let target = participant(finding.controller, orApp: true)
                lines.append("    Note over \(target): \(finding.severity.rawValue) [\(finding.rule.rawValue)] "
                    + "\(MermaidText.escape(finding.message)) (line \(line))")
            }
        }
        let left = max(0, items.count - MermaidReporter.itemsPerDiagram) + pastCut
        var notDrawn = left > 0 ? "\(left) more not drawn" : nil
        if let cut {
            let events = "\(TextFormat.plural(session.eventsPastTimelineCut, "event")) from line \(cut) on"
            notDrawn = notDrawn.map { "\($0), nor the \(events)" } ?? "the \(events) not drawn"
        }
        if let notDrawn { lines.append("    Note over UIKit: \(notDrawn) (lines to \(session.endLine))") }
        if items.isEmpty { lines.append("    Note over UIKit: " + (short ? "no transitions or findings" : "no callbacks")) }

        var text = "sequenceDiagram\n"
        let shown = short ? ["UIKit"] + participantsUsed : order
        for name in shown {
            let id = participants[name] ?? name
            text += id == name ? "    participant \(id)\n" : "    participant \(id) as \(MermaidText.escape(name))\n"
        }
        return text + lines.map { $0 + "\n" }.joined()
    }

    /// Callbacks a diagram leaves out: layout passes, many per appearance, which would bury the lifecycle.
    static let leftOut: Set<Callback> = [.viewWillLayoutSubviews, .viewDidLayoutSubviews]
}

/// Text from a log made safe in a Mermaid diagram: the characters Mermaid reads as syntax or HTML written as its
/// entity codes, line breaks as spaces.
enum MermaidText {
    static func escape(_ text: String) -> String {
        var out = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "#": out += "#35;"
            case ";": out += "#59;"
            case "<": out += "#lt;"
            case ">": out += "#gt;"
            case "&": out += "#amp;"
            case "\"": out += "#quot;"
            case "%": out += "#37;"
            case "\n", "\r", "\t": out += " "
            default:
                if scalar.value < 0x20 || (0x7F..<0xA0).contains(scalar.value) { out += " " } else { out.unicodeScalars.append(scalar) }
            }
        }
        return out
    }
}
