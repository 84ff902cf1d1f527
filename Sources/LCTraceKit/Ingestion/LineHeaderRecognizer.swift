import PCRE2

/// Finds the header of every line on its own, so that an input may mix formats (two logs concatenated, pasted
/// lines, a continuation line with no header).
///
/// With an automatic choice, leading white space is skipped, the built-in formats are tried in detection order and a
/// line that none of them fits is a bare message: every line is read. The format that matched the line before is
/// tried first, which is only a speed hint: a partial header (`LineFormat.isPartial`) is never tried before the
/// complete ones, so the hint cannot change what a line is read as. With a forced format (`--line-format`,
/// `--pattern`), only that format is tried and a line it does not fit has no header (`parse` returns nil).
///
/// One per thread: it owns its parsers' PCRE2 match data.
public final class LineHeaderRecognizer {
    private let parsers: [LineHeaderParser]
    /// Automatic: a line no format fits is read as a bare message.
    private let fallsBackToBare: Bool
    /// The parser that read the last line with a header, tried first; nil when there is none to try first (no line
    /// has had a header yet, or the last one was partial).
    private var hint: Int? {
        didSet { hintMatcher = hint.flatMap { parsers[$0].handMatcher } }
    }
    /// The hint's hand-written matcher, when it reads with one: asked directly, its answers the parser's. Through the
    /// parser, each line followed the list of parsers, the parser, its choice of matcher (an enum) and the matcher in
    /// front of PCRE2 (`FastPathMatcher`), and did so again for the tail stamp: about 30 instructions a line.
    private var hintMatcher: HandHeaderMatcher?
    /// `lastTailStamp`, worked out once, as the line's header is read.
    private var lastStamp: UInt64 = 0
    /// The parser that read the last line; nil when it was read as bare.
    private var lastParser: Int?
    /// Built-in formats skip leading white space; a user's pattern is matched where the line starts.
    private let skipsIndent: Bool
    /// `nslog-classic`'s parser: a line it reads as the hint may be `log-compact`, which comes before it in detection
    /// order (`LineFormat.classicProcessMayBeCompact`); such a line is read in order instead.
    private let classicIndex: Int?
    /// The forced format's `timeFormat`.
    private let fixedTimeFormat: TimeFormat?
    /// The tail stamp (`lastTailStamp`) of the last header the classic parser read as the hint whose process was found
    /// not to be compact's: a line with the same tail has the same process, and is not looked at again.
    private var vettedClassicTail: UInt64 = 0

    public convenience init(_ choice: LineFormatChoice, limits: PCRE2Limits = PCRE2Limits(), fastPath: Bool = true) throws(PCRE2CompileError) {
        try self.init(choice, limits: limits, matchers: MatcherChoice(fastPath: fastPath))
    }

    init(_ choice: LineFormatChoice, limits: PCRE2Limits, matchers: MatcherChoice) throws(PCRE2CompileError) {
        switch choice {
        case .automatic:
            var parsers: [LineHeaderParser] = []
            // The built-in patterns are fixed and covered by tests: compiling them cannot fail.
            for format in LineFormat.builtIn where format.pattern != nil {
                parsers.append(try LineHeaderParser(format: format, limits: limits, matchers: matchers))
            }
            self.parsers = parsers
            fallsBackToBare = true
            skipsIndent = true
            classicIndex = parsers.firstIndex { $0.format.name == LineFormat.nslogClassic.name }
            fixedTimeFormat = nil
        case .fixed(let format):
            parsers = [try LineHeaderParser(format: format, limits: limits, matchers: matchers)]
            fallsBackToBare = false
            skipsIndent = format.isAnchoredBuiltIn
            classicIndex = nil
            fixedTimeFormat = format.timeFormat
        }
    }

    /// The format of the line read last: the one whose header it had, or `bare`.
    public var lastFormat: LineFormat { lastParser.map { parsers[$0].format } ?? .bare }

    /// A number for the process, pid and tid of the last line's header, as its parser read them (`HeaderTail.stamp`):
    /// two headers read by this recognizer with the same nonzero stamp have the same bytes there. 0 when not known.
    var lastTailStamp: UInt64 { @inline(__always) get { lastStamp } }

    /// A parser's tail stamp made unique among this recognizer's parsers (each counts its own).
    @inline(__always)
    private static func stamp(_ tailStamp: UInt64, parser: Int) -> UInt64 {
        tailStamp == 0 ? 0 : tailStamp << 8 | UInt64(parser + 1)
    }

    /// Whether the last line read had a header (it was not read as bare).
    public var lastLineHadHeader: Bool { lastParser != nil }

    /// Forgets what the last input taught (the hint): a new input starts.
    public func reset() {
        hint = nil
        lastParser = nil
        lastStamp = 0
    }

    /// The header of `line` read from byte `start`; nil when a forced format does not fit it.
    ///
    /// Colour escape sequences where the line starts (`ColourEscapes`), after its indent, are skipped for every
    /// format alike, and when there were some, those that end the line are left out of it too: the header and the
    /// message are read from the text between them.
    @inline(__always)
    public func parse(_ line: UnsafeRawBufferPointer, from start: Int = 0) throws(PCRE2MatchError) -> LineHeader? {
        let from = skipsIndent ? LineBytes.skipSpaces(line, from: start) : start
        if from < line.count, line[from] == ColourEscapes.escape {
            let textStart = ColourEscapes.skip(line, from: from)
            if textStart > from { return try parseColoured(line, textStart: textStart) }
        }
        return try parseText(line, from: from, messageStart: start)
    }

    /// How `timeFormat` reads the `time` group, for a forced format that says (`--time-format`); nil reads it by its
    /// shape.
    public var timeFormat: TimeFormat? { fixedTimeFormat }

    /// The header of the text of a coloured line, from `textStart` (past its opening colour sequences) to where its
    /// closing ones start, with every range counted in `line`.
    private func parseColoured(_ line: UnsafeRawBufferPointer, textStart: Int) throws(PCRE2MatchError) -> LineHeader? {
        let textEnd = ColourEscapes.trailingStart(line, from: textStart, to: line.count)
        let text = UnsafeRawBufferPointer(rebasing: line[textStart..<textEnd])
        let from = skipsIndent ? LineBytes.skipSpaces(text, from: 0) : 0
        return try parseText(text, from: from, messageStart: 0)?.shifted(by: textStart)
    }

    /// The header of `line` read from `from` (past the indent when it is skipped); a bare message from `messageStart`.
    @inline(__always)
    private func parseText(_ line: UnsafeRawBufferPointer, from: Int, messageStart start: Int) throws(PCRE2MatchError) -> LineHeader? {
        var failed: Int?
        if let hint {
            let header = if let hintMatcher { hintMatcher.parse(line, from: from) } else { try parsers[hint].parse(line, from: from) }
            if let header {
                // Only a hand-written matcher knows a tail stamp, as in `LineHeaderParser.tailStamp`.
                let stamp = Self.stamp(hintMatcher?.tailStamp ?? 0, parser: hint)
                if hint != classicIndex || isVettedClassic(header, in: line, stamp: stamp) {
                    lastParser = hint
                    lastStamp = stamp
                    return header
                }
            } else {
                failed = hint
            }
        }
        return try parseInOrder(line, from: from, messageStart: start, skipping: failed)
    }

    /// Whether the process of `header`, read by the classic parser as the hint, is not one `log-compact` could have
    /// read (`LineFormat.classicProcessMayBeCompact`); looked at once for each tail.
    @inline(__always)
    private func isVettedClassic(_ header: LineHeader, in line: UnsafeRawBufferPointer, stamp: UInt64) -> Bool {
        if stamp != 0, stamp == vettedClassicTail { return true }
        guard let process = header.process, LineFormat.classicProcessMayBeCompact(line[process]) else {
            vettedClassicTail = stamp
            return true
        }
        return false
    }

    /// Tries every format in detection order but `skipping`, the hint already found not to fit, and those whose
    /// header cannot start with the line's first byte (`LineHeaderParser.startBytes`, as PCRE2 works it out).
    private func parseInOrder(_ line: UnsafeRawBufferPointer, from start: Int, messageStart: Int,
                              skipping: Int?) throws(PCRE2MatchError) -> LineHeader? {
        let first = start < line.count ? line[start] : nil
        for index in parsers.indices where index != skipping {
            if let first, !parsers[index].startBytes.contains(first) { continue }
            guard let header = try parsers[index].parse(line, from: start) else { continue }
            hint = parsers[index].format.isPartial ? nil : index
            lastParser = index
            lastStamp = Self.stamp(parsers[index].tailStamp, parser: index)
            return header
        }
        lastParser = nil
        lastStamp = 0
        guard fallsBackToBare else { return nil }
        return LineHeader(message: messageStart..<line.count)
    }

    /// Whether a header in the format of the last line starts exactly at `start` (a second record glued to the line by
    /// a lost newline).
    public func headerStarts(in line: UnsafeRawBufferPointer, at start: Int) -> Bool {
        guard let lastParser else { return false }
        return parsers[lastParser].headerStarts(in: line, at: start)
    }
}

extension LineHeader {
    /// The same header in a line where its text starts `offset` bytes later.
    func shifted(by offset: Int) -> LineHeader {
        func shift(_ range: Range<Int>) -> Range<Int> { (range.lowerBound + offset)..<(range.upperBound + offset) }
        return LineHeader(time: time.map(shift), process: process.map(shift), pid: pid.map(shift), tid: tid.map(shift),
                          message: shift(message))
    }
}
