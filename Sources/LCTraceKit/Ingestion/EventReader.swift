import PCRE2

/// Where an event reader sends the events it reads.
protocol EventReceiver: AnyObject {
    /// Takes an event. Returns false when it is not a lifecycle event after all: init or dealloc of a class that is not
    /// a view controller (`ControllerClassFilter`), which the line then counts as other logging.
    func take(_ event: consuming Event) -> Bool
}

/// Reads one input's lines into events: the one boundary between the bytes of a log and the analysis.
///
/// It owns the line reader and the matchers, and everything that points into a line while the line is at hand. Each
/// line gets one disposition in the input's summary (a lifecycle event, a marker or UIKit notice, other logging,
/// blank, unread, or skipped), and each lifecycle message becomes an `Event` value for the receiver. The line observer
/// (`lctrace lines`) is told how each line was read.
///
/// The properties changed on every line are never changed across a call (a dictionary's or array's growth, a
/// parser), so that the optimizer can prove their accesses exclusive and drop the run-time checks: the skipped
/// lines' dictionary and the unread lines are changed outside the summary (`countSkipped`, `noteUnread`), and whether a
/// JSON object is open is kept apart from the assembler. The id and time memories are changed in place by calls, their
/// exclusivity not checked at run time (see `timestamps`).
final class EventReader {
    let name: String
    private let recognizer: LineHeaderRecognizer
    private let messageParser: MessageParser
    private let receiver: any EventReceiver
    private(set) var summary: InputSummary
    private var lineNumber: Int
    /// The memories of the last time and ids read, changed on every event by a call into them. Not checked at run
    /// time (a copy in and out instead costs about 40 instructions an event): only `hand` changes them, on the thread
    /// reading the input, and the readers it calls are plain values that call nothing back.
    @exclusivity(unchecked) private var timestamps = TimestampReader()
    /// How a forced format's `time` group is written (`--time-format`); nil reads times by their shape (`timestamps`).
    private let timeFormat: TimeFormat?
    /// The process, pid and thread of the last event, and the header tail and bytes they were read from.
    @exclusivity(unchecked) private var ids = IDReader()
    /// The line observer, and what it is told of the line being read.
    private let observer: ((LineReading) -> Void)?
    private var observed = LineReading(input: "", line: 0, text: "", disposition: "")
    /// The format named in the summary when the choice is forced; nil for automatic (the first format recognised).
    private let forcedFormat: String?
    /// Finds `log show`/`log stream` JSON entries among the lines, with the automatic choice of format only.
    private var json = LogJSONAssembler()
    /// `json.collecting`, looked at on every line.
    private var jsonIsOpen = false
    private let readsJSON: Bool
    /// The format of the first line with a header, or the style of the first JSON entry: the input's format.
    private var firstFormat: String?
    /// Lines in a row whose match PCRE2 abandoned at its limits, and the number of the last of them.
    private var regexLimitRun = 0
    private var regexLimitLine = 0
    /// After this many such lines in a row the input is given up: the pattern costs milliseconds a line, and the
    /// run would take hours while reading nothing.
    static let regexLimitBudget = 1000
    /// `--process`/`--pid`: the records of other processes are skipped (`SkipReason.otherProcess`); a record whose
    /// header names no process takes the verdict of the last one that did (true before the first).
    private let processFilter: ProcessFilter?
    private var keptLastProcess = true
    /// The records `--process`/`--pid` left out since the summary last counted them: in a whole-device log nearly
    /// every line, where a dictionary update per line cost more than reading the line's header. Added to the summary's
    /// skipped lines when the input ends, and at once while a line observer watches.
    private var otherProcessRecords = 0

    /// `forcedFormat`: the format's name when the choice is forced (`--line-format`, `--pattern`).
    init(name: String, recognizer: LineHeaderRecognizer, messageParser: MessageParser, forcedFormat: String?, firstLine: Int,
         observer: ((LineReading) -> Void)?, receiver: any EventReceiver, processFilter: ProcessFilter? = nil) {
        self.name = name
        self.processFilter = processFilter
        self.recognizer = recognizer
        self.timeFormat = recognizer.timeFormat
        self.messageParser = messageParser
        self.forcedFormat = forcedFormat
        self.readsJSON = forcedFormat == nil
        self.lineNumber = firstLine - 1
        self.observer = observer
        self.receiver = receiver
        self.summary = InputSummary(name: name, format: forcedFormat ?? LineFormat.bare.name)
        recognizer.reset()
        messageParser.startInput()
    }

    /// Reads every line of the input (a section of a file, or a followed file, as `input` says), then ends it: the
    /// summary is complete. `progress` is called with the bytes read since it was last called.
    func read(_ input: LineInput, maxLineBytes: Int, progress: (@Sendable (Int) -> Void)?) throws {
        let reader = LineReader(input, maxLineBytes: maxLineBytes)
        // Also when reading fails part way: the summary counts what was read.
        defer {
            summary.bytes = reader.bytesRead
            countOtherProcessRecords()
        }
        if let progress {
            var reported = 0
            reader.onRead = { total in
                progress(total - reported)
                reported = total
            }
        }
        try reader.forEachLine { line, truncated in try take(line, truncated: truncated) }
        let unfinished = json.finish()
        jsonIsOpen = false
        replay(unfinished)
        if forcedFormat == nil, let firstFormat { summary.format = firstFormat }
    }

    private func take(_ line: UnsafeRawBufferPointer, truncated: Bool) throws(InputError) {
        lineNumber += 1
        let tookAsJSON = readsJSON && (jsonIsOpen || LogJSONAssembler.mayStartObject(line)) && takeJSON(line, truncated: truncated)
        if !tookAsJSON { process(line, truncated: truncated) }
        if regexLimitRun > 0 {
            if regexLimitLine != lineNumber {
                regexLimitRun = 0
            } else if regexLimitRun >= EventReader.regexLimitBudget {
                throw .matchLimit(lines: regexLimitRun)
            }
        }
    }

    /// Counts a line whose match PCRE2 abandoned.
    private func countRegexLimit() {
        countSkipped(.regexLimit)
        if regexLimitLine != lineNumber { regexLimitRun += 1 }
        regexLimitLine = lineNumber
    }

    /// Hands the line to the JSON assembler; returns false when it is to be read as an ordinary line.
    private func takeJSON(_ line: UnsafeRawBufferPointer, truncated: Bool) -> Bool {
        let step = json.take(line, number: lineNumber, truncated: truncated)
        jsonIsOpen = json.collecting
        switch step {
        case .ordinary:
            return false
        case .held:
            return true
        case .replay(let lines):
            replay(lines)
        case .entries(let entries, let style, let parts):
            process(parts) { reader, _ in reader.countStructure(style) }
            if firstFormat == nil { firstFormat = style.rawValue }
            for (index, entry) in entries.enumerated() {
                let (bytes, header) = entry.asLine()
                bytes.withUnsafeBytes { bytes in
                    if index == 0 {
                        process(bytes, truncated: truncated) { reader, bytes in reader.read(bytes, header: header, format: style) }
                    } else if keepsProcess(header, in: bytes), (try? readMessage(bytes, header: header, tail: 0, start: 1, format: style)) == true {
                        summary.gluedRecords += 1
                    }
                }
            }
        }
        return true
    }

    private func countStructure(_ style: LogJSONStyle?) {
        countSkipped(.jsonStructure)
        if observer != nil { observed.format = style?.rawValue }
    }

    /// Reads lines the JSON assembler held and gave back, as ordinary lines.
    private func replay(_ lines: [LogJSONAssembler.HeldLine]) {
        process(lines) { reader, line in reader.read(line) }
    }

    /// Counts lines the JSON assembler held, each at its own number, handling them as `reading` says.
    private func process(_ lines: [LogJSONAssembler.HeldLine], _ reading: (EventReader, UnsafeRawBufferPointer) -> Void) {
        let number = lineNumber
        for held in lines {
            lineNumber = held.number
            held.bytes.withUnsafeBytes { process($0, truncated: held.truncated, reading) }
        }
        lineNumber = number
    }

    /// Counts the line, reads it and tells the line observer how it was read.
    @inline(__always)
    private func process(_ line: UnsafeRawBufferPointer, truncated: Bool) {
        summary.lines += 1
        if truncated { summary.truncatedLines += 1 }
        guard observer != nil else { return read(line) }
        observing(line) { reader, line in reader.read(line) }
    }

    /// Counts the line, handles it as `reading` says and tells the line observer how it was read.
    private func process(_ line: UnsafeRawBufferPointer, truncated: Bool, _ reading: (EventReader, UnsafeRawBufferPointer) -> Void) {
        summary.lines += 1
        if truncated { summary.truncatedLines += 1 }
        guard observer != nil else { return reading(self, line) }
        observing(line, reading)
    }

    private func observing(_ line: UnsafeRawBufferPointer, _ reading: (EventReader, UnsafeRawBufferPointer) -> Void) {
        guard let observer else { return }
        let before = summary
        observed = LineReading(input: name, line: lineNumber, text: String(decoding: line, as: UTF8.self), disposition: "")
        reading(self, line)
        observed.disposition = LineReading.disposition(before: before, after: summary)
        observer(observed)
    }

    private func read(_ line: UnsafeRawBufferPointer) {
        if LineBytes.isBlank(line) {
            countSkipped(.blank)
            return
        }
        do {
            guard let header = try readHeader(line, from: 0) else {
                countSkipped(.unrecognized)
                return
            }
            guard keepsProcess(header, in: line) else {
                countOtherProcess(header, line, format: nil)
                return
            }
            _ = try readMessage(line, header: header, tail: recognizer.lastTailStamp, start: 0, format: nil)
            summary.parsedLines += 1
        } catch {
            countRegexLimit()
        }
    }

    /// Reads a JSON entry, made into a line whose header was read from the entry's fields.
    private func read(_ line: UnsafeRawBufferPointer, header: LineHeader, format: LogJSONStyle) {
        guard keepsProcess(header, in: line) else {
            countOtherProcess(header, line, format: format)
            return
        }
        do {
            _ = try readMessage(line, header: header, tail: 0, start: 0, format: format)
            summary.parsedLines += 1
        } catch {
            countRegexLimit()
        }
    }

    /// Reads the record starting at `start` (a record glued after the line's first); returns false when it is not in
    /// the input's format, or is of a process `--process`/`--pid` leave out.
    private func readRecord(_ line: UnsafeRawBufferPointer, from start: Int) throws -> Bool {
        guard let header = try readHeader(line, from: start), keepsProcess(header, in: line) else { return false }
        return try readMessage(line, header: header, tail: recognizer.lastTailStamp, start: start, format: nil)
    }

    /// The header of the record starting at `start`; nil when it is not in the input's format.
    @inline(__always)
    private func readHeader(_ line: UnsafeRawBufferPointer, from start: Int) throws -> LineHeader? {
        guard let header = try recognizer.parse(line, from: start) else { return nil }
        if firstFormat == nil, recognizer.lastLineHadHeader { firstFormat = recognizer.lastFormat.name }
        return header
    }

    /// Counts a line `--process`/`--pid` leave out, and tells the line observer whose it is.
    private func countOtherProcess(_ header: LineHeader, _ line: UnsafeRawBufferPointer, format: LogJSONStyle?) {
        guard observer != nil else {
            otherProcessRecords += 1
            return
        }
        countSkipped(.otherProcess)
        observed.format = format?.rawValue ?? (recognizer.lastLineHadHeader ? recognizer.lastFormat.name : nil)
        observed.process = header.process.map { String(decoding: line[$0], as: UTF8.self) }
        observed.pid = header.pid.map { String(decoding: line[$0], as: UTF8.self) }
    }

    /// Whether `--process`/`--pid` keep the record (always, without them).
    @inline(__always)
    private func keepsProcess(_ header: LineHeader, in line: UnsafeRawBufferPointer) -> Bool {
        guard let processFilter else { return true }
        if let verdict = processFilter.keeps(header, in: line) { keptLastProcess = verdict }
        return keptLastProcess
    }

    /// Reads the message of a record whose header was read (`format`: from a JSON entry rather than a text line).
    /// `start` is 0 for the line's first record; a record glued after it starts later. `tail` is the header's tail
    /// stamp (`LineHeaderRecognizer.lastTailStamp`, read before anything else is parsed), 0 when not known.
    @inline(__always)
    private func readMessage(_ line: UnsafeRawBufferPointer, header: LineHeader, tail: UInt64, start: Int, format: LogJSONStyle?) throws -> Bool {
        let reading = try messageParser.read(line, message: header.message)
        if observer != nil, start == 0 { observe(header, reading, line, format: format) }
        let message: CallbackMessage
        let end: Int
        switch reading {
        case .message(let read, let readEnd):
            message = read
            end = readEnd
        case .other:
            if start == 0 { summary.otherLines += 1 }
            return true
        case .unread(let reason):
            if start == 0 { noteUnread(line, reason: reason) }
            return true
        case .crash:
            if start == 0 { summary.crashLines += 1 }
            return true
        }
        // A second record glued to this one (a lost newline): cut this message where the recognised text ends.
        let rest = LineBytes.trimmed(line, end..<header.message.upperBound)
        let glued = format == nil && !rest.isEmpty && recognizer.headerStarts(in: line, at: rest.lowerBound)
        let callback = message.callback
        let isEvent = hand(message, header: header, tail: tail, line: line)
        if start == 0 {
            if !isEvent {
                summary.otherLines += 1
            } else if callback.family == .marker || callback.noticeRule != nil {
                summary.noticeLines += 1
            } else {
                summary.lifecycleLines += 1
            }
        }
        if glued, try readRecord(line, from: rest.lowerBound) {
            summary.gluedRecords += 1
        }
        return true
    }

    /// Makes the message into an event and hands it to the receiver; returns whether it took it.
    @inline(__always)
    private func hand(_ message: consuming CallbackMessage, header: LineHeader, tail: UInt64, line: UnsafeRawBufferPointer) -> Bool {
        let (pid, process, thread) = ids.read(line, header: header, tail: tail, names: messageParser.names)
        var micros: Int64?
        var writtenTime: UnsafeRawBufferPointer?
        if let range = header.time {
            let bytes = UnsafeRawBufferPointer(rebasing: line[range])
            writtenTime = bytes
            if let timeFormat {
                micros = timeFormat.microseconds(bytes)
            } else {
                micros = timestamps.microseconds(bytes)
            }
            if micros == nil { summary.unreadTimes += 1 }
        }
        let event = Event(line: lineNumber, micros: micros, writtenTime: writtenTime, pid: pid, process: process, thread: thread,
                          message: message)
        guard receiver.take(event) else {
            if observer != nil { observed.reason = OtherReason.notAController.rawValue }
            return false
        }
        summary.events += 1
        return true
    }

    /// Notes what the line observer is told of the line's header and message.
    private func observe(_ header: LineHeader, _ reading: MessageReading, _ line: UnsafeRawBufferPointer, format: LogJSONStyle?) {
        func text(_ range: Range<Int>?) -> String? { range.map { String(decoding: line[$0], as: UTF8.self) } }
        observed.format = format?.rawValue
            ?? (header.time == nil && header.pid == nil && header.process == nil ? nil : recognizer.lastFormat.name)
        observed.message = text(header.message)
        observed.time = text(header.time)
        observed.process = text(header.process)
        observed.pid = text(header.pid)
        observed.tid = text(header.tid)
        switch reading {
        case .message(let message, _):
            observed.className = messageParser.names.className(of: message)
            observed.address = messageParser.names.instanceText(message)
            observed.callback = message.callback
            observed.spelled = messageParser.names.spelled(message)
        case .other(let reason): observed.reason = messageParser.reasonText(reason)
        case .unread(let reason): observed.reason = reason.rawValue
        case .crash(let crash): observed.reason = crash.description(line)
        }
    }

    private func noteUnread(_ line: UnsafeRawBufferPointer, reason: UnreadReason) {
        summary.unreadLines += 1
        if reason == .redacted { summary.redactedLines += 1 }
        guard summary.unread.count < InputSummary.unreadLinesKept else { return }
        var text = String(decoding: line, as: UTF8.self)
        if text.count > 200 { text = String(text.prefix(200)) + "…" }
        var unread = summary.unread
        summary.unread = []
        unread.append(UnreadLine(input: name, line: lineNumber, text: text, reason: reason))
        summary.unread = unread
    }

    /// Adds the records left out to the summary's skipped lines.
    private func countOtherProcessRecords() {
        guard otherProcessRecords > 0 else { return }
        countSkipped(.otherProcess, lines: otherProcessRecords)
        otherProcessRecords = 0
    }

    /// Counts skipped lines. The dictionary is taken out of the summary while it changes (and keeps its storage,
    /// then referenced once), so that no access to the summary spans its hashing and growth.
    private func countSkipped(_ reason: SkipReason, lines: Int = 1) {
        var skipped = summary.skipped
        summary.skipped = [:]
        skipped[reason, default: 0] += lines
        summary.skipped = skipped
    }
}

/// Reads an event's process, pid and thread from its header, remembering the last ones read: nearly every event has
/// the header tail of the one before (`LineHeaderRecognizer.lastTailStamp`), or at least the same bytes from the pid
/// to the tid.
struct IDReader {
    /// The bytes from the pid's start to the tid's end, and where in them the pid ends and the tid starts.
    private var lastBytes = RememberedBytes()
    private var lastFields = (pidEnd: 0, tidStart: 0)
    private var lastPid: Int?
    private var lastThread: ThreadID?
    /// The tail stamp of the header they were read from last, 0 for none; and the process read with them.
    private var lastTail: UInt64 = 0
    private var lastProcess: ProcessName?

    /// The process (named in `names`), pid and thread of the header whose tail stamp is `tail` (0 when not known).
    @inline(__always)
    mutating func read(_ line: UnsafeRawBufferPointer, header: LineHeader, tail: UInt64,
                       names: NameTable) -> (pid: Int?, process: ProcessName?, thread: ThreadID?) {
        if tail != 0, tail == lastTail { return (lastPid, lastProcess, lastThread) }
        (lastPid, lastThread) = read(line, pid: header.pid, tid: header.tid)
        lastProcess = header.process.flatMap { names.processName(line[$0]) }
        lastTail = tail
        return (lastPid, lastProcess, lastThread)
    }

    /// The pid and thread in `line[pid]` and `line[tid]`: compared with the last bytes read, as a tail stamp is not
    /// always known (a format read by PCRE2, a whole-device log's resting tail).
    private mutating func read(_ line: UnsafeRawBufferPointer, pid: Range<Int>?, tid: Range<Int>?) -> (pid: Int?, thread: ThreadID?) {
        guard let pid, let tid, pid.lowerBound <= tid.lowerBound, let base = line.baseAddress else {
            lastBytes.forget()
            return (pid.flatMap { Int(decoding: line[$0]) }, tid.flatMap { ThreadID(UnsafeRawBufferPointer(rebasing: line[$0])) })
        }
        let start = base + pid.lowerBound
        let count = tid.upperBound - pid.lowerBound
        let fields = (pidEnd: pid.upperBound - pid.lowerBound, tidStart: tid.lowerBound - pid.lowerBound)
        if lastFields == fields, lastBytes.equals(start, count: count) { return (lastPid, lastThread) }
        lastBytes.remember(start, count: count)
        lastFields = fields
        return (Int(decoding: line[pid]), ThreadID(UnsafeRawBufferPointer(rebasing: line[tid])))
    }
}

extension Int {
    /// Parses ASCII decimal digits.
    init?(decoding bytes: UnsafeRawBufferPointer.SubSequence) {
        guard !bytes.isEmpty, bytes.count <= 18 else { return nil }
        var value = 0
        for byte in bytes {
            guard byte >= 0x30, byte <= 0x39 else { return nil }
            value = value * 10 + Int(byte - 0x30)
        }
        self = value
    }
}
