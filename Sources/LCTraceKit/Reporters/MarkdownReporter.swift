/// `--reporter markdown`: a summary for a pull request, a job summary or an issue: the counts, then one table row
/// per distinct problem (severity, rule and controller class), the most frequent first, with where it was first
/// seen and its message.
public final class MarkdownReporter: Reporter {
    /// Made of findings and the run's summary: it reads no session report.
    public var readsSessions: Bool { false }

    private let output: Output
    private var groups = FindingGroups()
    private var inputs: [String] = []

    public init(output: Output) {
        self.output = output
    }

    public func inputBegan(_ name: String) { inputs.append(name) }
    public func finding(_ finding: Finding) { groups.add(finding) }

    public func finish(_ summary: RunSummary) {
        output.write(MarkdownReporter.document(groups, summary: summary).text)
        output.flush()
    }

    /// The most bytes of a summary: GitHub shows no job summary over 1 MiB, so rows stop well before that, and a
    /// line says how many were left out.
    public static let maxBytes = 512 << 10
    /// The most characters of one table cell's text (a message, a class name, a location).
    public static let maxCellCharacters = 1_000

    /// A summary document, and how many of the ranked groups its table lists (the first ones).
    public struct Document {
        public var text: String
        public var listedGroups: Int
    }

    /// The whole summary for `groups` found in a run summed up by `summary`.
    static func document(_ groups: FindingGroups, summary: RunSummary) -> Document {
        var text = "## lctrace\n\n"
        let inputs = summary.inputs.count == 1 ? "`\(MarkdownText.code(cut(summary.inputs[0].name)))`" : nil
        text += summary.sentence(counts: { "**\($0)**" }, inputs: inputs) + ".\n"
        if let known = summary.findingsInBaseline {
            text += "\n\(TextFormat.plural(known, "finding")) known from the baseline \(known == 1 ? "is" : "are") not counted.\n"
        }
        let ranked = groups.ranked
        guard !ranked.isEmpty else { return Document(text: text, listedGroups: 0) }
        text += "\n| Severity | Rule | Controller | Count | First seen | Message |\n|---|---|---|---:|---|---|\n"
        var listed = 0
        for group in ranked {
            let first = group.first
            let row = "| \(group.severity.rawValue) | `\(group.rule.rawValue)` | "
                + (group.controllerClass.map { "`\(MarkdownText.code(cut($0)))`" } ?? "") + " | \(group.count) | "
                + "`\(MarkdownText.code(cut("\(first.input):\(first.line)")))` | \(MarkdownText.cell(cut(first.message))) |\n"
            // Room is kept for the closing lines.
            guard text.utf8.count + row.utf8.count <= maxBytes - 1024 else { break }
            text += row
            listed += 1
        }
        if listed < ranked.count {
            let findings = ranked[listed...].reduce(0) { $0 + $1.count }
            text += "\n\(TextFormat.plural(ranked.count - listed, "more problem")) (\(TextFormat.plural(findings, "finding"))) not listed: "
                + "this summary stops at \(maxBytes >> 10) KiB.\n"
        }
        let ungrouped = groups.ungrouped.values.reduce(0, +)
        if ungrouped > 0 {
            text += "\n\(TextFormat.plural(ungrouped, "more finding")) of other kinds past the first \(FindingGroups.limit) are not listed.\n"
        }
        return Document(text: text, listedGroups: listed)
    }

    /// `text` cut to `maxCellCharacters`, ending in `…` when it was cut.
    static func cut(_ text: String) -> String {
        text.count <= maxCellCharacters ? text : text.prefix(maxCellCharacters - 1) + "…"
    }
}

/// Text from a log made safe inside Markdown that GitHub renders: no HTML, no formatting, no table breaks.
enum MarkdownText {
    /// For a table cell: HTML and Markdown punctuation escaped, line breaks and controls as spaces, bidirectional
    /// controls shown as `\u202e`.
    static func cell(_ text: String) -> String {
        var out = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "&": out += "&amp;"
            case "|", "\\", "`", "*", "_", "[", "]", "~": out += "\\" + String(scalar)
            case _ where scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value): out += " "
            case _ where TerminalText.isBidirectionalControl(scalar): out += "\\u" + TerminalText.hex(scalar.value, digits: 4)
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    /// For inside a code span in a table cell: a backtick would end the span and a bar the cell, so both become
    /// look-alikes; controls become spaces, bidirectional controls U+FFFD (a code span shows a backslash as it is).
    static func code(_ text: String) -> String {
        String(String.UnicodeScalarView(text.unicodeScalars.map { scalar -> Unicode.Scalar in
            switch scalar {
            case "`": return "ˋ"
            case "|": return "¦"
            case _ where scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value): return " "
            case _ where TerminalText.isBidirectionalControl(scalar): return "\u{FFFD}"
            default: return scalar
            }
        }))
    }
}
