/// The colour escape sequences coloured loggers write around a line, which `LineHeaderRecognizer` skips before it
/// looks for a header (and drops from the message's end): ANSI SGR sequences (`ESC[31m`, `ESC[0;37m`,
/// `ESC[38;5;35m`, and the resets `ESC[0m`, `ESC[m`), as a terminal logger, idevicesyslog or XCGLogger's
/// ANSI formatter writes them, and XcodeColors' (`ESC[fg255,0,0;`, `ESC[bg0,0,255;`, and the resets `ESC[fg;`,
/// `ESC[bg;`, `ESC[;`), as CocoaLumberjack's `DDTTYLogger` and XCGLogger write them for the XcodeColors plug-in.
///
/// Nothing else is skipped: an ESC that does not start one of these is part of the line.
enum ColourEscapes {
    static let escape: UInt8 = 0x1B
    /// The longest SGR parameter list taken (`38;5;214` and a few more): a longer run is not a colour.
    static let maxParameterBytes = 24
    /// How far before a line's end a closing sequence may start.
    static let maxSequenceBytes = 32

    /// The end of the colour sequence at `start` (where an ESC is), or nil when none starts there.
    static func sequenceEnd(_ line: UnsafeRawBufferPointer, at start: Int, limit: Int) -> Int? {
        guard start + 2 < limit, line[start] == escape, line[start + 1] == UInt8(ascii: "[") else { return nil }
        var i = start + 2
        // XcodeColors: fg or bg, then r,g,b (each 0–255, written as 1–3 digits) or nothing, then `;`.
        if i + 2 < limit, line[i] == UInt8(ascii: "f") || line[i] == UInt8(ascii: "b"), line[i + 1] == UInt8(ascii: "g") {
            i += 2
            if line[i] == UInt8(ascii: ";") { return i + 1 }
            for component in 0..<3 {
                let digits = i
                while i < limit, i - digits < 3, HandParsers.isDigit(line[i]) { i += 1 }
                guard i > digits, i < limit else { return nil }
                let separator = component < 2 ? UInt8(ascii: ",") : UInt8(ascii: ";")
                guard line[i] == separator else { return nil }
                i += 1
            }
            return i
        }
        // SGR: parameters of digits and `;`, then `m`.
        let parameters = i
        while i < limit, i - parameters <= maxParameterBytes, HandParsers.isDigit(line[i]) || line[i] == UInt8(ascii: ";") { i += 1 }
        if i < limit, i - parameters <= maxParameterBytes, line[i] == UInt8(ascii: "m") { return i + 1 }
        // XcodeColors' reset of both colours: `ESC[;` not followed by more parameters and `m`.
        if line[parameters] == UInt8(ascii: ";") { return parameters + 1 }
        return nil
    }

    /// Past the colour sequences that follow one another from `start`: `start` itself when none starts there.
    static func skip(_ line: UnsafeRawBufferPointer, from start: Int) -> Int {
        var index = start
        while index < line.count, line[index] == escape, let end = sequenceEnd(line, at: index, limit: line.count) {
            index = end
        }
        return index
    }

    /// Where the colour sequences that end `line[start..<end]` begin (`end` when it ends with none).
    static func trailingStart(_ line: UnsafeRawBufferPointer, from start: Int, to end: Int) -> Int {
        var end = end
        while end > start {
            var escapeAt = end - 1
            let lowest = max(start, end - maxSequenceBytes)
            while escapeAt >= lowest, line[escapeAt] != escape { escapeAt -= 1 }
            guard escapeAt >= lowest, sequenceEnd(line, at: escapeAt, limit: end) == end else { break }
            end = escapeAt
        }
        return end
    }
}
