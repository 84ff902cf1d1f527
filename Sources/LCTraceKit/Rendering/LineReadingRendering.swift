/// `lctrace lines`: how each line was read, as text (one line per line read) or JSON Lines.
public enum LineReadingRendering {
    /// `LINE  DISPOSITION  FORMAT  header  what was read`, e.g.
    /// `    5  lifecycle  nslog-classic  2016-03-17 15:46:20.789 LifeCycle[2044:108959]  ViewController viewDidLoad`.
    public static func text(_ reading: LineReading, style: TextStyle = TextStyle(enabled: false)) -> String {
        var columns = [String(reading.line).leftPadded(to: 6), reading.disposition.rightPadded(to: 12),
                       (reading.format ?? "bare").rightPadded(to: 14)]
        if let header = header(reading) { columns.append(style.dim(TerminalText.escaped(header))) }
        if let callback = reading.callback {
            var read = (reading.className.map { $0 + " " } ?? "") + callback.rawValue
            if let address = reading.address { read += " @" + address }
            if let spelled = reading.spelled, spelled != callback.rawValue { read += "  (logged as \(spelled))" }
            if let reason = reading.reason { read += ": " + reason }
            columns.append(TerminalText.escaped(read))
        } else if reading.disposition != "blank" {
            var message = (reading.message ?? reading.text).trimmingSpaces()
            if message.count > 120 { message = String(message.prefix(120)) + "…" }
            columns.append((reading.reason.map { $0 + ": " } ?? "") + "«" + TerminalText.escaped(message) + "»")
        }
        return columns.joined(separator: "  ").trimmingSpaces(leading: false) + "\n"
    }

    /// One JSON object on one line, with every key always present (absent values are null).
    public static func json(_ reading: LineReading) -> String {
        JSONValue.object([
            ("input", .string(reading.input)),
            ("line", .int(reading.line)),
            ("disposition", .string(reading.disposition)),
            ("format", .optional(reading.format)),
            ("time", .optional(reading.time)),
            ("process", .optional(reading.process)),
            ("pid", .optional(reading.pid)),
            ("tid", .optional(reading.tid)),
            ("class", .optional(reading.className)),
            ("address", .optional(reading.address)),
            ("callback", .optional(reading.callback?.rawValue)),
            ("spelled", .optional(reading.spelled)),
            ("reason", .optional(reading.reason)),
            ("message", .optional(reading.message)),
            ("text", .string(reading.text)),
        ]).compact() + "\n"
    }

    /// The header fields read, as `time process[pid:tid]`; nil when the line has none.
    private static func header(_ reading: LineReading) -> String? {
        var parts: [String] = []
        if let time = reading.time { parts.append(time) }
        var process = reading.process ?? ""
        if reading.pid != nil || reading.tid != nil {
            process += "[" + [reading.pid, reading.tid].compactMap { $0 }.joined(separator: ":") + "]"
        }
        if !process.isEmpty { parts.append(process) }
        return parts.isEmpty ? nil : parts.joined(separator: " ")
    }
}

extension String {
    /// Without the spaces and tabs at its ends (only at its end when `leading` is false).
    func trimmingSpaces(leading: Bool = true) -> String {
        var text = Substring(self)
        while let last = text.last, last == " " || last == "\t" { text = text.dropLast() }
        if leading { while let first = text.first, first == " " || first == "\t" { text = text.dropFirst() } }
        return String(text)
    }
}
