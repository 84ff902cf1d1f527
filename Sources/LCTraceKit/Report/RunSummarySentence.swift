extension RunSummary {
    /// The one sentence every report sums a run up in: `2 errors, 1 warning, 0 info in 3 sessions of 1 input (1234
    /// lines, 80 lifecycle events)`, with the events whose time could not be read when there are some. `counts` dresses
    /// the findings' counts (bold in Markdown), `inputs` names the inputs (by default, how many).
    public func sentence(counts dress: (String) -> String = { $0 }, inputs: String? = nil) -> String {
        "\(dress(findings.sentence())) in \(TextFormat.plural(sessions, "session")) of "
            + (inputs ?? TextFormat.plural(self.inputs.count, "input"))
            + " (\(TextFormat.plural(lines, "line")), \(TextFormat.plural(events, "lifecycle event"))"
            + (unreadTimes > 0 ? ", \(unreadTimes) with a time that could not be read)" : ")")
    }
}
