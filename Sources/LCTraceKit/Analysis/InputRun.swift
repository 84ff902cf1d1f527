import PCRE2

/// The state of one input being read: its line count and its open sessions.
///
/// Each app launch is a session. Lines of several processes may be interleaved in one file (an app and its
/// extension, two apps in one system log), so each process id has its own open session: a line of another open
/// process goes to that process's session. A new process id opens a session; it ends the open session of a process
/// of the same name (the app was launched again) or with no name to tell them apart. `main()` ends every open session
/// of the input, which is what lets a long file be cut into sections at its `main()` lines.
final class InputRun {
    /// At most this many sessions are open at once; opening one more ends the one idle longest.
    static let maxOpenSessions = 8

    unowned let analyzer: Analyzer
    /// The analyzer's, held here so that each line does not go through the unowned reference to reach it.
    let messageParser: MessageParser
    let recognizer: LineHeaderRecognizer
    let name: String
    var summary: InputSummary
    var lineNumber: Int
    /// The open sessions, in the order they opened; `current` is the one the last event went to.
    private var open: [OpenSession] = []
    private var current = 0 {
        didSet {
            sessionReference = Unmanaged.passUnretained(open[current].analyzer)
            currentPid = open[current].analyzer.pid
        }
    }
    /// The current session's process id, and its class filter (the other open sessions keep theirs in `open`).
    private var currentPid: Int?
    private var classFilter = ControllerClassFilter()
    /// The current session as the per-line path reads it: without retaining and releasing it on every line. (It is
    /// owned by `open`, which is never changed while a line is being handled.)
    private var sessionReference: Unmanaged<SessionAnalyzer>?
    let knowledge: InputKnowledge
    var timestamps = TimestampReader()
    /// The process and thread ids of the last event, and the bytes they were read from.
    private var ids = IDReader()
    /// The analyzer's line observer, and what it is told of the line being read.
    private let observer: ((LineReading) -> Void)?
    private var observed = LineReading(input: "", line: 0, text: "", disposition: "")
    /// The format named in the summary when the choice is forced; nil for automatic (the first format recognised).
    private let forcedFormat: String?
    /// Finds `log show`/`log stream` JSON entries among the lines, with the automatic choice of format only.
    private var json = LogJSONAssembler()
    private let readsJSON: Bool
    /// The format of the first line with a header, or the style of the first JSON entry: the input's format.
    private var firstFormat: String?

    init(analyzer: Analyzer, name: String, recognizer: LineHeaderRecognizer, firstLine: Int, knowledge: InputKnowledge) {
        self.analyzer = analyzer
        self.messageParser = analyzer.messageParser
        self.recognizer = recognizer
        self.name = name
        self.lineNumber = firstLine - 1
        self.knowledge = knowledge
        self.observer = analyzer.lineObserver
        if case .fixed(let format) = analyzer.options.lineFormat { forcedFormat = format.name } else { forcedFormat = nil }
        readsJSON = forcedFormat == nil
        self.summary = InputSummary(name: name, format: forcedFormat ?? LineFormat.bare.name)
    }

    func take(_ line: UnsafeRawBufferPointer, truncated: Bool) {
        lineNumber += 1
        if readsJSON, json.collecting || LogJSONAssembler.mayStartObject(line), takeJSON(line, truncated: truncated) { return }
        process(line, truncated: truncated)
    }

    func finish() {
        replay(json.finish())
        if forcedFormat == nil, let firstFormat { summary.format = firstFormat }
        closeAll()
    }

    /// Hands the line to the JSON assembler; returns false when it is to be read as an ordinary line.
    private func takeJSON(_ line: UnsafeRawBufferPointer, truncated: Bool) -> Bool {
        switch json.take(line, number: lineNumber, truncated: truncated) {
        case .ordinary:
            return false
        case .held:
            return true
        case .replay(let lines):
            replay(lines)
        case .entries(let entries, let style, let parts):
            process(parts) { run, _ in run.countStructure(style) }
            if firstFormat == nil { firstFormat = style.rawValue }
            for (index, entry) in entries.enumerated() {
                let (bytes, header) = entry.asLine()
                bytes.withUnsafeBytes { bytes in
                    if index == 0 {
                        process(bytes, truncated: truncated) { run, bytes in run.read(bytes, header: header, format: style) }
                    } else if (try? readMessage(bytes, header: header, start: 1, format: style)) == true {
                        summary.gluedRecords += 1
                    }
                }
            }
        }
        return true
    }

    private func countStructure(_ style: LogJSONStyle?) {
        summary.skipped[.jsonStructure, default: 0] += 1
        if observer != nil { observed.format = style?.rawValue }
    }

    /// Reads lines the JSON assembler held and gave back, as ordinary lines.
    private func replay(_ lines: [LogJSONAssembler.HeldLine]) {
        process(lines) { run, line in run.read(line) }
    }

    /// Counts lines the JSON assembler held, each at its own number, handling them as `reading` says.
    private func process(_ lines: [LogJSONAssembler.HeldLine], _ reading: (InputRun, UnsafeRawBufferPointer) -> Void) {
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
        observing(line) { run, line in run.read(line) }
    }

    /// Counts the line, handles it as `reading` says and tells the line observer how it was read.
    private func process(_ line: UnsafeRawBufferPointer, truncated: Bool, _ reading: (InputRun, UnsafeRawBufferPointer) -> Void) {
        summary.lines += 1
        if truncated { summary.truncatedLines += 1 }
        guard observer != nil else { return reading(self, line) }
        observing(line, reading)
    }

    private func observing(_ line: UnsafeRawBufferPointer, _ reading: (InputRun, UnsafeRawBufferPointer) -> Void) {
        guard let observer else { return }
        let before = summary
        observed = LineReading(input: name, line: lineNumber, text: String(decoding: line, as: UTF8.self), disposition: "")
        reading(self, line)
        observed.disposition = LineReading.disposition(before: before, after: summary)
        observer(observed)
    }

    private func read(_ line: UnsafeRawBufferPointer) {
        if MessageParser.isBlank(line) {
            summary.skipped[.blank, default: 0] += 1
            return
        }
        do {
            guard try parseRecord(line, from: 0) else {
                summary.skipped[.unrecognized, default: 0] += 1
                return
            }
            summary.parsedLines += 1
        } catch {
            summary.skipped[.regexLimit, default: 0] += 1
        }
    }

    /// Reads a JSON entry, made into a line whose header was read from the entry's fields.
    private func read(_ line: UnsafeRawBufferPointer, header: LineHeader, format: LogJSONStyle) {
        do {
            _ = try readMessage(line, header: header, start: 0, format: format)
            summary.parsedLines += 1
        } catch {
            summary.skipped[.regexLimit, default: 0] += 1
        }
    }

    /// Parses the record starting at `start`; returns false when it is not in the input's format.
    private func parseRecord(_ line: UnsafeRawBufferPointer, from start: Int) throws -> Bool {
        guard let header = try recognizer.parse(line, from: start) else { return false }
        if firstFormat == nil, recognizer.lastLineHadHeader { firstFormat = recognizer.lastFormat.name }
        return try readMessage(line, header: header, start: start, format: nil)
    }

    /// Reads the message of a record whose header was read (`format`: from a JSON entry rather than a text line).
    /// `start` is 0 for the line's first record; a record glued after it starts later.
    @inline(__always)
    private func readMessage(_ line: UnsafeRawBufferPointer, header: LineHeader, start: Int, format: LogJSONStyle?) throws -> Bool {
        let message: KeyedMessage
        let reading = try messageParser.parseKeyed(line, message: header.message)
        if observer != nil, start == 0 { observe(header, reading, line, format: format) }
        switch reading {
        case .message(let read): message = read
        case .other:
            if start == 0 { summary.otherLines += 1 }
            return true
        case .unread(let reason):
            if start == 0 { noteUnread(line, reason: reason) }
            return true
        }
        // A second record glued to this one (a lost newline): cut this message where the recognised text ends.
        let rest = MessageParser.trimmed(line, message.end..<header.message.upperBound)
        let glued = format == nil && !rest.isEmpty && recognizer.headerStarts(in: line, at: rest.lowerBound)
        let callback = message.callback
        let isEvent = handle(consume message, header: header, line: line)
        if start == 0 {
            if !isEvent {
                summary.otherLines += 1
            } else if callback.family == .marker || callback.noticeRule != nil {
                summary.noticeLines += 1
            } else {
                summary.lifecycleLines += 1
            }
        }
        if glued, try parseRecord(line, from: rest.lowerBound) {
            summary.gluedRecords += 1
        }
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
        case .message(let message):
            observed.className = messageParser.className(of: message)
            observed.address = messageParser.address(of: message)
            observed.callback = message.callback
            observed.spelled = messageParser.spelling(of: message)
        case .other(let reason): observed.reason = reason.rawValue
        case .unread(let reason): observed.reason = reason.rawValue
        }
    }

    private func noteUnread(_ line: UnsafeRawBufferPointer, reason: UnreadReason) {
        summary.unreadLines += 1
        guard summary.unread.count < InputSummary.unreadLinesKept else { return }
        var text = String(decoding: line, as: UTF8.self)
        if text.count > 200 { text = String(text.prefix(200)) + "…" }
        summary.unread.append(UnreadLine(input: name, line: lineNumber, text: text, reason: reason))
    }

    /// Takes the message (consuming it: it moves into the event rather than being copied). Returns false when it is
    /// not an event after all: init or dealloc of a class that is not a view controller (`ControllerClassFilter`).
    private func handle(_ message: consuming KeyedMessage, header: LineHeader, line: UnsafeRawBufferPointer) -> Bool {
        let (pid, thread) = ids.read(line, pid: header.pid, tid: header.tid)
        let callback = message.callback
        // The common case first: an event of the current session's process that cannot start a launch.
        let route = pid == currentPid && sessionReference != nil && callback != .main && callback != .didFinishLaunching
            && callback != .willFinishLaunching
            ? .current
            : sessionReference?._withUnsafeGuaranteedRef({ InputRun.route(from: $0, callback: callback, pid: pid) }) ?? .open
        let target: Int? = switch route {
        case .current: current
        case .other(let pid): open.firstIndex { $0.analyzer.pid == pid }
        case .open, .openAfterAll, .openAfterCurrent: nil
        }
        if callback.family == .controller, callback.isSharedWithOtherClasses, !acceptsShared(message, session: target) {
            if observer != nil { observed.reason = OtherReason.notAController.rawValue }
            return false
        }
        summary.events += 1
        var micros = header.time.flatMap { timestamps.microseconds(UnsafeRawBufferPointer(rebasing: line[$0])) }
        if let target {
            if target != current { switchSession(to: target) }
        } else {
            let process = header.process.map { String(decoding: line[$0], as: UTF8.self) }
            openSession(route, process: process, pid: pid, callback: callback)
        }
        if callback.family == .controller, !callback.isSharedWithOtherClasses {
            classFilter.noteControllerCallback(message, names: messageParser)
        }
        if let logged = micros {
            let line = lineNumber
            micros = sessionReference!._withUnsafeGuaranteedRef { $0.sessionTime(logged, line: line) }
        }
        let event = LifecycleEvent(line: lineNumber, micros: micros,
                                   time: header.time.map { UnsafeRawBufferPointer(rebasing: line[$0]) } ?? UnsafeRawBufferPointer(start: nil, count: 0),
                                   thread: thread, message: message)
        sessionReference!._withUnsafeGuaranteedRef { $0.handle(event) }
        return true
    }

    /// Whether an init or dealloc belongs to a view controller, from what the open session it goes to knows (nil: it
    /// opens a new session, which knows nothing yet).
    private func acceptsShared(_ message: borrowing KeyedMessage, session: Int?) -> Bool {
        guard let session else {
            var fresh = ControllerClassFilter()
            return fresh.acceptsShared(message, names: messageParser)
        }
        if session == current { return classFilter.acceptsShared(message, names: messageParser) }
        return open[session].classFilter.acceptsShared(message, names: messageParser)
    }

    /// Makes the open session at `index` the current one, its class filter with it.
    private func switchSession(to index: Int) {
        swap(&classFilter, &open[current].classFilter)
        swap(&classFilter, &open[index].classFilter)
        current = index
    }

    /// Where an event goes, seen from the current session.
    private enum Route {
        /// The current session (the common case, decided first).
        case current
        /// The open session of another process, if one is open for this id; otherwise a new session.
        case other(pid: Int)
        /// A new session (there is none yet).
        case open
        /// A new session after every open one ends: `main()`.
        case openAfterAll
        /// A new session after the current one ends: a second launch in a log with no process ids.
        case openAfterCurrent
    }

    /// `main()` starts a new app launch, and so does a willFinishLaunching or didFinishLaunching after
    /// didFinishLaunching when the format has no process id to tell launches apart. An event of another process id
    /// belongs to that process's session.
    private static func route(from session: SessionAnalyzer, callback: Callback, pid: Int?) -> Route {
        if callback == .main { return session.eventCount > 0 ? .openAfterAll : .current }
        if let pid, let current = session.pid { return pid == current ? .current : .other(pid: pid) }
        if pid == nil, callback == .didFinishLaunching || callback == .willFinishLaunching {
            return session.sawFinishLaunching ? .openAfterCurrent : .current
        }
        return .current
    }

    /// Opens the session an event starts, first ending the sessions it ends (`route`).
    private func openSession(_ route: Route, process: String?, pid: Int?, callback: Callback) {
        // The current session's class filter goes back to it, in case it stays open.
        if !open.isEmpty { swap(&classFilter, &open[current].classFilter) }
        var launchFollows = false
        var expected = open.isEmpty ? SessionAnalyzer.Size() : open[current].analyzer.size
        switch route {
        case .current:
            preconditionFailure("an event for the current session opens none")
        case .open:
            break
        case .openAfterAll:
            launchFollows = true
            closeAll()
        case .openAfterCurrent:
            launchFollows = true
            close(at: current)
        case .other:
            // Another process: the open session of a process with the same name (or no name) was an earlier launch.
            for index in open.indices.reversed() where open[index].analyzer.process == nil || process == nil
                || open[index].analyzer.process == process {
                expected = open[index].analyzer.size
                launchFollows = true
                close(at: index)
            }
            if open.count >= InputRun.maxOpenSessions, let idle = open.indices.min(by: { open[$0].analyzer.endLine < open[$1].analyzer.endLine }) {
                close(at: idle)
            }
        }
        // The process's start is in the log when main() opens the session, or a launch follows another.
        let session = analyzer.newSession(input: name, line: lineNumber, process: process, pid: pid,
                                          launchLogged: callback == .main || launchFollows, knowledge: knowledge,
                                          expected: expected, alsoOpen: open.count)
        open.append(OpenSession(analyzer: session))
        classFilter = ControllerClassFilter()
        current = open.count - 1
    }

    private func close(at index: Int) {
        let closing = open.remove(at: index)
        end(closing.analyzer)
        if open.isEmpty {
            sessionReference = nil
            currentPid = nil
        } else if current >= index {
            current = max(0, current - 1)
        }
    }

    /// Ends every open session, in the order they opened.
    private func closeAll() {
        for session in open { end(session.analyzer) }
        open.removeAll()
        sessionReference = nil
        currentPid = nil
    }

    private func end(_ session: SessionAnalyzer) {
        if session.timeStepsBack > 0 {
            summary.timeStepsBack += session.timeStepsBack
            if summary.firstTimeStepBack.map({ $0 > session.firstTimeStepBack! }) ?? true {
                summary.firstTimeStepBack = session.firstTimeStepBack
            }
        }
        analyzer.closeSession(session)
    }
}

/// A session still taking events, with what is known of its classes.
private struct OpenSession {
    let analyzer: SessionAnalyzer
    /// Whether init and dealloc belong to a view controller, from what this launch logged (while the session is not
    /// the current one: the current session's is `InputRun.classFilter`).
    var classFilter = ControllerClassFilter()
}

/// Reads a line's process and thread ids, remembering the last bytes read: consecutive lines nearly always come from
/// one process and thread, so their ids are compared with the last line's instead of read again.
struct IDReader {
    /// The bytes from the pid's start to the tid's end, and where in them the pid ends and the tid starts.
    private var lastBytes = RememberedBytes()
    private var lastFields = (pidEnd: 0, tidStart: 0)
    private var lastPid: Int?
    private var lastThread: ThreadID?

    mutating func read(_ line: UnsafeRawBufferPointer, pid: Range<Int>?, tid: Range<Int>?) -> (pid: Int?, thread: ThreadID?) {
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
        lastPid = Int(decoding: line[pid])
        lastThread = ThreadID(UnsafeRawBufferPointer(rebasing: line[tid]))
        return (lastPid, lastThread)
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

