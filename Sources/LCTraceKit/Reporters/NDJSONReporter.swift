/// `--format ndjson`: one JSON object per line, written and flushed as each item completes — a `stream` line first
/// (the wire format's version), then `event`, `transition`, `finding`, `session` (when a session closes), `input`
/// (when an input ends) and a final `summary` — each with a `type` field first and otherwise the field names of the
/// JSON report. Every event, transition, finding and session line names its input and session, the keys that join
/// them; `docs/fleet/lctrace-ndjson.schema.json` is the schema of each line. Memory does not grow with the input.
public final class NDJSONReporter: StreamingReporter, SessionFormatting, LiveEventSink {
    /// The version of the lines' format, in the `stream` line: a field added keeps it, one renamed or removed, or a
    /// meaning changed, makes a new one.
    public static let formatVersion = 1

    private let output: Output
    private let config: String?
    /// Flush after every line (live input) rather than when the buffer fills.
    private let flushEachLine: Bool
    /// Reused for every line, so its buffer is allocated once.
    private var writer = JSONWriter(indent: nil)

    /// Events (unless left out) and transitions, rendered the same way here and on a parallel run's workers.
    public let itemFormatter: LiveItemLines
    /// The live item being written: rendered here, then written after its session number.
    private let itemText = ByteBuffer()

    public init(output: Output, includeEvents: Bool, config: String? = nil, flushEachLine: Bool) {
        self.output = output
        self.config = config
        self.flushEachLine = flushEachLine
        self.itemFormatter = LiveItemLines(includeEvents: includeEvents)
        emit("stream") { w in
            w.member("format", "lctrace-ndjson")
            w.member("formatVersion", NDJSONReporter.formatVersion)
            w.member("lctraceVersion", LCTraceVersion.current)
        }
    }

    public func event(_ event: EventRecord, subject: String, session: Int, input: String) {
        LiveEvent.of(event) { self.event($0, subject: subject, session: session, input: input) }
    }

    func event(_ event: LiveEvent, subject: String, session: Int, input: String) {
        itemText.removeAll()
        guard let item = itemFormatter.event(event, subject: subject, input: input, into: itemText) else { return }
        write(item, session: session)
    }

    public func transition(_ transition: TransitionReport, session: Int, input: String) {
        itemText.removeAll()
        write(itemFormatter.transition(transition, input: input, into: itemText), session: session)
    }

    public func write(_ item: RenderedItem, session: Int) {
        item.write(number: session, to: output)
        if flushEachLine { output.flush() }
    }

    /// Writes each in order, with its session number (the protocol's default, with direct calls).
    public func write(_ items: ArraySlice<RenderedLiveItem>, sessionOffset: Int) {
        for rendered in items { write(rendered.item, session: rendered.session + sessionOffset) }
    }

    /// The session line: `{"type":"session",` then the session's fields but its events and transitions, which were
    /// streamed already.
    public var sessionFormatter: SessionFormatter { NDJSONReporter.sessionLine }

    private static let sessionLine = SessionFormatter(numberAfter: #""index":"#) { session, text in
        var writer = JSONWriter(appendingTo: text, indent: nil)
        writer.object { w in
            w.member("type", "session")
            ReportJSON.sessionMembers(session, events: false, transitions: false, into: &w)
        }
        writer.endLine()
    }

    public func write(_ session: RenderedItem, number: Int) {
        write(session, session: number)
    }

    public func finding(_ finding: Finding) {
        emit("finding") { ReportJSON.findingMembers(finding, into: &$0) }
    }

    public func sessionClosed(_ session: SessionReport) {
        itemText.removeAll()
        NDJSONReporter.sessionLine.render(session, itemText)
        output.write(itemText.bytes)
        if flushEachLine { output.flush() }
    }

    public func inputEnded(_ summary: InputSummary) {
        emit("input") { ReportJSON.inputMembers(summary, nameKey: "input", into: &$0) }
    }

    public func finish(_ summary: RunSummary) {
        emit("summary") { w in
            w.member("lctraceVersion", LCTraceVersion.current)
            w.member("config", config)
            ReportJSON.summaryMembers(summary, into: &w)
        }
        output.flush()
    }

    /// One line: `{"type":…,` then the item's fields.
    private func emit(_ type: String, _ fields: (inout JSONWriter) -> Void) {
        writer.reset()
        writer.object { w in
            w.member("type", type)
            fields(&w)
        }
        writer.endLine()
        output.write(writer.buffer.bytes)
        if flushEachLine { output.flush() }
    }
}

/// The JSON Lines of the live items, events and transitions, rendered on any thread except for their session number:
/// a section of a file analysed in parallel does not know how many sessions came before it until it is replayed.
/// The line is its fixed beginning (`RenderedItem.prefix`), the session number, then the tail; the reporter writes every such line this way. Tails are
/// appended to a text the caller keeps (a worker keeps one for all the items of its part of the input).
public struct LiveItemLines: Sendable {
    let includeEvents: Bool

    func event(_ event: LiveEvent, subject: String, input: String, into text: ByteBuffer) -> RenderedItem? {
        guard includeEvents else { return nil }
        let start = text.count
        if LiveItemLines.appendPlainEventTail(event, subject: subject, input: input, to: text) {
            return RenderedItem(prefix: LiveItemLines.eventHead, text: text, tail: start..<text.count)
        }
        return RenderedItem(prefix: LiveItemLines.eventHead, text: text,
                            tail: LiveItemLines.eventTail(event.record, subject: subject, input: input, into: text))
    }

    static let eventHead: StaticString = #"{"type":"event","session":"#

    /// Each callback's name as a JSON string, quotes included, by the callback's ordinal: the bytes from its start
    /// to the next one's. One table read in place (a list of arrays would retain and release the one it hands out).
    nonisolated(unsafe) private static let quotedCallbacks: (text: UnsafePointer<UInt8>, starts: UnsafePointer<Int>) = {
        var text: [UInt8] = []
        var starts = [Int](repeating: 0, count: Callback.allCases.count + 1)
        for callback in Callback.allCases.sorted(by: { $0.ordinal < $1.ordinal }) {
            var writer = JSONWriter(indent: nil)
            writer.value(callback.rawValue)
            starts[callback.ordinal] = text.count
            text += writer.bytes
        }
        starts[Callback.allCases.count] = text.count
        let textCopy = UnsafeMutablePointer<UInt8>.allocate(capacity: text.count)
        textCopy.initialize(from: text, count: text.count)
        let startsCopy = UnsafeMutablePointer<Int>.allocate(capacity: starts.count)
        startsCopy.initialize(from: starts, count: starts.count)
        return (UnsafePointer(textCopy), UnsafePointer(startsCopy))
    }()

    /// An event's members after its session number, written by the JSON writer (any event).
    static func eventTail(_ event: EventRecord, subject: String, input: String, into text: ByteBuffer) -> Range<Int> {
        tail(into: text) { w in
            w.member("input", input)
            w.member("subject", subject)
            ReportJSON.eventMembers(event, into: &w)
        }
    }

    /// The same tail as `eventTail`, byte for byte, written in one reserved write when none of its texts needs
    /// escaping and its offset is a whole number of milliseconds, as nearly every event's are: a JSON Lines run writes
    /// one such line per callback. Returns false, having written nothing, otherwise. (A test holds the two alike.)
    static func appendPlainEventTail(_ event: LiveEvent, subject: String, input: String, to text: ByteBuffer) -> Bool {
        var wholeOffset: Int64?
        if let offset = event.offsetMs {
            guard let whole = JSONWriter.wholeNumber(offset) else { return false }
            wholeOffset = whole
        }
        let callbacks = LiveItemLines.quotedCallbacks
        let callbackStart = callbacks.starts[event.callback.ordinal]
        let callback = UnsafeRawBufferPointer(start: callbacks.text + callbackStart,
                                              count: callbacks.starts[event.callback.ordinal + 1] - callbackStart)
        // The member names, commas and the closing `}` and newline take 73 bytes; the room is generous.
        let room = 128 + 2 * JSONWriter.integerRoom + 5 * 2 + input.utf8.count + subject.utf8.count
            + event.time.utf8Count + callback.count + event.spelled.utf8.count
        return PlainTail.write(atMost: room, to: text) { tail in
            tail.literal(#","input":"#)
            guard tail.quoted(input) else { return false }
            tail.literal(#","subject":"#)
            guard tail.quoted(subject) else { return false }
            tail.literal(#","line":"#)
            tail.integer(Int64(event.line))
            tail.literal(#","time":"#)
            if event.time.isEmpty {
                tail.null()
            } else {
                guard event.time.withUTF8({ tail.quoted($0) }) else { return false }
            }
            tail.literal(#","offsetMs":"#)
            tail.integerOrNull(wholeOffset)
            tail.literal(#","callback":"#)
            tail.raw(callback)
            tail.literal(#","spelled":"#)
            guard tail.quoted(event.spelled) else { return false }
            tail.literal("}\n")
            return true
        }
    }

    func transition(_ transition: TransitionReport, input: String, into text: ByteBuffer) -> RenderedItem {
        let start = text.count
        if LiveItemLines.appendPlainTransitionTail(transition, input: input, to: text) {
            return RenderedItem(prefix: LiveItemLines.transitionHead, text: text, tail: start..<text.count)
        }
        return RenderedItem(prefix: LiveItemLines.transitionHead, text: text,
                            tail: LiveItemLines.transitionTail(transition, input: input, into: text))
    }

    static let transitionHead: StaticString = #"{"type":"transition","session":"#

    /// A transition's members after its session number, written by the JSON writer (any transition).
    static func transitionTail(_ transition: TransitionReport, input: String, into text: ByteBuffer) -> Range<Int> {
        tail(into: text) { w in
            w.member("input", input)
            ReportJSON.transitionMembers(transition, into: &w)
        }
    }

    /// The same tail as `transitionTail`, byte for byte, in one reserved write when none of its texts needs escaping
    /// and its duration is a whole number of milliseconds; returns false, having written nothing, otherwise. (A test
    /// holds the two alike.)
    static func appendPlainTransitionTail(_ transition: TransitionReport, input: String, to text: ByteBuffer) -> Bool {
        var wholeDuration: Int64?
        if let duration = transition.durationMs {
            guard let whole = JSONWriter.wholeNumber(duration) else { return false }
            wholeDuration = whole
        }
        // The member names, commas, brackets, the six texts' quotes and the closing `}` and newline take 141 bytes, and
        // a null 4 in place of a text's quotes or a number: the room is more than that and the texts and numbers.
        var room = 192 + 4 * JSONWriter.integerRoom + input.utf8.count + transition.kind.rawValue.utf8.count
            + (transition.declared?.rawValue.utf8.count ?? 0) + (transition.startTime?.utf8Count ?? 0)
            + (transition.from?.utf8.count ?? 0) + (transition.to?.utf8.count ?? 0)
        for name in transition.controllers { room += name.utf8.count + 3 }
        return PlainTail.write(atMost: room, to: text) { tail in
            tail.literal(#","input":"#)
            guard tail.quoted(input) else { return false }
            tail.literal(#","kind":"#)
            guard tail.quoted(transition.kind.rawValue) else { return false }
            tail.literal(#","declared":"#)
            guard tail.quotedOrNull(transition.declared?.rawValue) else { return false }
            tail.literal(#","declaredLine":"#)
            tail.integerOrNull(transition.declaredLine.map(Int64.init))
            tail.literal(#","from":"#)
            guard tail.quotedOrNull(transition.from) else { return false }
            tail.literal(#","to":"#)
            guard tail.quotedOrNull(transition.to) else { return false }
            tail.literal(#","controllers":["#)
            for (index, name) in transition.controllers.enumerated() {
                if index > 0 { tail.literal(",") }
                guard tail.quoted(name) else { return false }
            }
            tail.literal(#"],"startLine":"#)
            tail.integer(Int64(transition.startLine))
            tail.literal(#","endLine":"#)
            tail.integer(Int64(transition.endLine))
            tail.literal(#","startTime":"#)
            if let time = transition.startTime {
                guard time.withUTF8({ tail.quoted($0) }) else { return false }
            } else {
                tail.null()
            }
            tail.literal(#","durationMs":"#)
            tail.integerOrNull(wholeDuration)
            tail.literal("}\n")
            return true
        }
    }

    /// The members after the session number, from their comma to the line's end, appended to `text`.
    private static func tail(into text: ByteBuffer, _ members: (inout JSONWriter) -> Void) -> Range<Int> {
        let start = text.count
        var writer = JSONWriter(appendingTo: text, indent: nil)
        writer.object(members)
        text.replace(at: start, with: UInt8(ascii: ","))
        writer.endLine()
        return start..<text.count
    }
}

/// A JSON Lines tail written in one reserved write: literals, integers, nulls, and texts that need no escaping. A text
/// that does makes the whole write give up (`write` returns false and the buffer is as it was), for the JSON writer
/// to write the line instead.
struct PlainTail {
    private let start: UnsafeMutableRawPointer
    /// Where the next byte goes: within the room reserved, so it is moved on without overflow checks.
    private var at = 0

    /// Runs `body` on at most `room` bytes reserved at the end of `text`; keeps what it wrote when it returns true.
    @inline(__always)
    static func write(atMost room: Int, to text: ByteBuffer, _ body: (inout PlainTail) -> Bool) -> Bool {
        var plain = true
        text.write(atMost: room) { start in
            var tail = PlainTail(start: start)
            guard body(&tail) else { plain = false; return 0 }
            return tail.at
        }
        return plain
    }

    private init(start: UnsafeMutableRawPointer) {
        self.start = start
    }

    @inline(__always)
    mutating func literal(_ text: StaticString) {
        RawBytes.copy(text.utf8CodeUnitCount, from: text.utf8Start, to: start + at)
        at &+= text.utf8CodeUnitCount
    }

    /// Bytes written as they are (JSON already).
    @inline(__always)
    mutating func raw(_ bytes: UnsafeRawBufferPointer) {
        guard let source = bytes.baseAddress else { return }
        RawBytes.copy(bytes.count, from: source, to: start + at)
        at &+= bytes.count
    }

    @inline(__always)
    mutating func quoted(_ bytes: UnsafeRawBufferPointer) -> Bool {
        guard let written = JSONWriter.writeQuotedIfPlain(bytes, at: start + at) else { return false }
        at &+= written
        return true
    }

    /// Not `withUTF8Bytes`: a string not stored contiguously goes to the general writer rather than being copied here,
    /// and a tail is written once per event (the copying fallback cost 2 % of the run).
    @inline(__always)
    mutating func quoted(_ string: String) -> Bool {
        string.utf8.withContiguousStorageIfAvailable { quoted(UnsafeRawBufferPointer($0)) } ?? false
    }

    /// `null` for nil.
    @inline(__always)
    mutating func quotedOrNull(_ string: String?) -> Bool {
        guard let string else { null(); return true }
        return quoted(string)
    }

    @inline(__always)
    mutating func integer(_ value: Int64) {
        at &+= JSONWriter.writeInteger(value, at: start + at)
    }

    /// `null` for nil.
    @inline(__always)
    mutating func integerOrNull(_ value: Int64?) {
        if let value { integer(value) } else { null() }
    }

    @inline(__always)
    mutating func null() {
        at &+= JSONWriter.writeNull(at: start + at)
    }
}
