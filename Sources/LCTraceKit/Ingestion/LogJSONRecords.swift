#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The two JSON styles of Apple's `log show` and `log stream`.
public enum LogJSONStyle: String, Sendable {
    /// `--style ndjson`: one object per line (after a `Filtering the log data …` line).
    case ndjson = "log-ndjson"
    /// `--style json`: an array of pretty-printed objects (`[{`, `  "key" : value,` …, `},{`, …, `}]`).
    case json = "log-json"
}

/// One entry of `log show`/`log stream` in a JSON style, with the fields lctrace reads. Other fields are ignored, and
/// a field of an unexpected type is read as missing.
struct LogJSONEntry: Decodable, Equatable {
    var timestamp: String?
    /// `processImagePath`'s last component, or `process` (which some exports carry instead).
    var process: String?
    var processID: Int?
    var threadID: UInt64?
    var eventMessage: String?

    init(timestamp: String? = nil, process: String? = nil, processID: Int? = nil, threadID: UInt64? = nil, eventMessage: String? = nil) {
        self.timestamp = timestamp
        self.process = process
        self.processID = processID
        self.threadID = threadID
        self.eventMessage = eventMessage
    }

    private enum Keys: String, CodingKey {
        case timestamp, processImagePath, process, processID, threadID, eventMessage
    }

    init(from decoder: any Decoder) throws {
        let fields = try decoder.container(keyedBy: Keys.self)
        timestamp = try? fields.decodeIfPresent(String.self, forKey: .timestamp)
        let path = try? fields.decodeIfPresent(String.self, forKey: .processImagePath)
        process = path.flatMap { $0.split(separator: "/").last.map(String.init) }
            ?? (try? fields.decodeIfPresent(String.self, forKey: .process))
        processID = try? fields.decodeIfPresent(Int.self, forKey: .processID)
        threadID = try? fields.decodeIfPresent(UInt64.self, forKey: .threadID)
        eventMessage = try? fields.decodeIfPresent(String.self, forKey: .eventMessage)
    }

    /// An object is a log entry when it has a message, or a time and a process id.
    var isLogEntry: Bool { eventMessage != nil || (timestamp != nil && processID != nil) }

    /// The entry as the text line NSLog would have printed for it (`TIME PROCESS[PID:TID] MESSAGE`), with the header
    /// fields' ranges in it: what the rest of the reading takes.
    func asLine() -> (bytes: [UInt8], header: LineHeader) {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(64 + (eventMessage?.utf8.count ?? 0))
        var header = LineHeader(message: 0..<0)
        func append(_ text: String) -> Range<Int> {
            let start = bytes.count
            bytes.append(contentsOf: text.utf8)
            return start..<bytes.count
        }
        if let timestamp {
            header.time = append(timestamp)
            bytes.append(0x20)
        }
        if let process { header.process = append(process) }
        if let processID {
            bytes.append(UInt8(ascii: "["))
            header.pid = append(String(processID))
            if let threadID {
                bytes.append(UInt8(ascii: ":"))
                header.tid = append("0x" + String(threadID, radix: 16))
            }
            bytes.append(UInt8(ascii: "]"))
        }
        if !bytes.isEmpty { bytes.append(0x20) }
        header.message = append(eventMessage ?? "")
        return (bytes, header)
    }
}

/// Finds the entries of `log show`/`log stream` JSON output in an input read line by line, so that such output is read
/// like any other log and may be mixed with text lines. An object starts at a line beginning with `{` or `[{` (after
/// white space) and may span lines; it is read when it closes, as one record at the line that closes it. The lines
/// before that one are held (a bounded number of bytes) until then: when the object is not a log entry after all (an
/// app printing a dictionary) or grows too big, they are handed back to be read as ordinary lines. A line `},{` starts
/// an object too when none is open: the next entry of an array, after an object whose lines were handed back.
///
/// A line of a pretty-printed object cut at the line-length cap (`truncated`) lost its end: the string it ends in is
/// closed where the cut fell, and the separator after it supplied when the next line starts another field, so that
/// the entry is still read, with that value cut short.
struct LogJSONAssembler {
    /// An object bigger than this, or spanning more lines, is not a log entry: its lines are read as ordinary lines.
    static let maxObjectBytes = 1 << 20
    static let maxObjectLines = 1000

    /// The bytes JSON allows outside strings: white space, punctuation, numbers and the letters of true, false, null.
    /// Any other byte (`items = 12;` in a dictionary's description) ends the object at once, as not JSON.
    private static let allowedOutsideStrings: [Bool] = (0..<256).map { byte in
        Array(" \t\r\"{}[]:,0123456789+-.eEtruefalsn".utf8).contains(UInt8(byte))
    }

    /// What a line turned out to be.
    enum Step {
        /// Not JSON, or not yet known to be: read it as an ordinary line.
        case ordinary
        /// Part of an object that is still open: nothing to count yet.
        case held
        /// It closed one log entry or more (more when several objects sit on one line). `partLines`, the entry's
        /// lines before this one, are counted as JSON structure now.
        case entries([LogJSONEntry], style: LogJSONStyle, partLines: [HeldLine])
        /// The object was not a log entry, or grew too big: read these lines (this one last) as ordinary lines.
        case replay([HeldLine])
    }

    struct HeldLine {
        let number: Int
        let bytes: [UInt8]
        /// Cut at the line-length cap when it was read.
        let truncated: Bool
    }

    /// Whether an object is open: the next line belongs to it.
    private(set) var collecting = false
    private var depth = 0
    private var inString = false
    private var escaped = false
    /// The open object so far, from its `{`.
    private var object: [UInt8] = []
    /// The lines of the open object before the current one. Its first line was counted already when it closed the
    /// entry before (`},{`).
    private var held: [HeldLine] = []
    private var firstLineCounted = false
    /// Set when the last line held was cut at the line-length cap: the `,` that ended it may be missing.
    private var lastLineCut = false
    private var decoder: JSONDecoder?

    /// Whether `line` may start an object: its first byte that is not white space is `{`, `[` or `}` (of `},{`). (A
    /// line of an open object, `collecting`, is the assembler's too.)
    @inline(__always)
    static func mayStartObject(_ line: UnsafeRawBufferPointer) -> Bool {
        guard let first = line.first else { return false }
        if isObjectStart(first) { return true }
        guard LineBytes.isSpace(first) else { return false }
        let start = LineBytes.skipSpaces(line, from: 0)
        return start < line.count && isObjectStart(line[start])
    }

    @inline(__always)
    private static func isObjectStart(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: "{") || byte == UInt8(ascii: "[") || byte == UInt8(ascii: "}")
    }

    /// Forgets the open object.
    private mutating func reset() {
        collecting = false
        held = []
        object = []
    }

    /// Reads one line: one that may start an object, or any line while one is open.
    mutating func take(_ line: UnsafeRawBufferPointer, number: Int, truncated: Bool) -> Step {
        var index = LineBytes.skipSpaces(line, from: 0)
        if !collecting {
            if index < line.count, line[index] == UInt8(ascii: "[") {
                index = LineBytes.skipSpaces(line, from: index + 1)
            } else if index < line.count, line[index] == UInt8(ascii: "}") {
                // `},{`: the end of an object that was not read, and the start of the next one.
                index = LineBytes.skipSpaces(line, from: index + 1)
                guard index < line.count, line[index] == UInt8(ascii: ",") else { return .ordinary }
                index = LineBytes.skipSpaces(line, from: index + 1)
            }
            guard index < line.count, line[index] == UInt8(ascii: "{") else { return .ordinary }
            begin(firstLineCounted: false)
        } else if lastLineCut {
            // The line before was cut: when this one starts another field, the `,` before it was lost with the cut.
            lastLineCut = false
            if index < line.count, line[index] == UInt8(ascii: "\""), needsSeparator() { object.append(UInt8(ascii: ",")) }
        }
        var entries: [LogJSONEntry] = []
        var style = LogJSONStyle.json
        var parts: [HeldLine] = []
        while index < line.count {
            let byte = line[index]
            index += 1
            if !collecting {
                // After an object closed on this line, only another object may start.
                guard byte == UInt8(ascii: "{") else { continue }
                begin(firstLineCounted: true)
            }
            object.append(byte)
            if inString {
                if escaped {
                    escaped = false
                } else if byte == UInt8(ascii: "\\") {
                    escaped = true
                } else if byte == UInt8(ascii: "\"") {
                    inString = false
                }
                continue
            }
            guard LogJSONAssembler.allowedOutsideStrings[Int(byte)] else {
                if entries.isEmpty { return replayAll(line, number: number, truncated: truncated) }
                collecting = false
                break
            }
            if byte == UInt8(ascii: "\"") {
                inString = true
            } else if byte == UInt8(ascii: "{") {
                depth += 1
            } else if byte == UInt8(ascii: "}") {
                depth -= 1
                guard depth == 0 else { continue }
                collecting = false
                guard let entry = decode(), entry.isLogEntry else {
                    // The first object of the line decides what the line is; a later one that is not an entry is left.
                    if entries.isEmpty { return replayAll(line, number: number, truncated: truncated) }
                    continue
                }
                if entries.isEmpty {
                    style = held.isEmpty ? .ndjson : .json
                    parts = firstLineCounted ? Array(held.dropFirst()) : held
                }
                entries.append(entry)
            }
        }
        // A line of an object begun on an earlier line, cut at the line-length cap: the string the cut fell in
        // ends there, and the next line may need the separator the cut took.
        if collecting, truncated, !held.isEmpty {
            if inString { closeCutString() }
            lastLineCut = true
        }
        // JSON strings do not span lines.
        if collecting, inString {
            if entries.isEmpty { return replayAll(line, number: number, truncated: truncated) }
            collecting = false
        }
        if entries.isEmpty, object.count > LogJSONAssembler.maxObjectBytes || held.count >= LogJSONAssembler.maxObjectLines {
            return replayAll(line, number: number, truncated: truncated)
        }
        if collecting {
            // An object is open at the end of the line: this line is held with it (counted already when it also
            // closed an entry).
            if !entries.isEmpty { held = [] ; firstLineCounted = true }
            held.append(HeldLine(number: number, bytes: Array(line), truncated: truncated))
        }
        guard !entries.isEmpty else { return .held }
        return .entries(entries, style: style, partLines: parts)
    }

    /// The input ended: the lines of an object still open are read as ordinary lines.
    mutating func finish() -> [HeldLine] {
        guard collecting else { return [] }
        let lines = firstLineCounted ? Array(held.dropFirst()) : held
        reset()
        return lines
    }

    private mutating func begin(firstLineCounted counted: Bool) {
        collecting = true
        depth = 0
        inString = false
        escaped = false
        lastLineCut = false
        object.removeAll(keepingCapacity: true)
        held.removeAll(keepingCapacity: true)
        firstLineCounted = counted
    }

    /// Ends the open string where the line was cut, leaving out what the cut made invalid: a UTF-8 sequence it split,
    /// an escape sequence it split (`\`, `\u12`), and a first surrogate whose second was cut off (`\ud83d`).
    private mutating func closeCutString() {
        if escaped {
            object.removeLast()
            escaped = false
        } else if let last = object.last, last >= 0x80 {
            // The start of the last UTF-8 sequence, and the length its first byte announces.
            var start = object.count - 1
            while start > 0, object.count - start < 4, object[start] & 0xC0 == 0x80 { start -= 1 }
            let first = object[start]
            let length = first >= 0xF0 ? 4 : first >= 0xE0 ? 3 : first >= 0xC0 ? 2 : 1
            if object.count - start < length { object.removeLast(object.count - start) }
        } else if let length = trailingUnicodeEscape(), length < 6 {
            object.removeLast(length)
        }
        if trailingUnicodeEscape() == 6, LogJSONAssembler.isFirstSurrogate(object.suffix(4)) { object.removeLast(6) }
        object.append(UInt8(ascii: "\""))
        inString = false
    }

    /// The length of the `\u` escape the open object ends in, with its hex digits so far (2 to 6 bytes), if it ends
    /// in one.
    private func trailingUnicodeEscape() -> Int? {
        guard object.count >= 2 else { return nil }
        for length in 2...min(6, object.count) {
            let start = object.count - length
            guard object[start] != UInt8(ascii: "\\") else {
                // A backslash after an even number of backslashes starts an escape (the others are escaped ones).
                var before = start
                while before > 0, object[before - 1] == UInt8(ascii: "\\") { before -= 1 }
                guard (start - before) % 2 == 0, object[start + 1] == UInt8(ascii: "u"),
                      object.suffix(length - 2).allSatisfy(LogJSONAssembler.isHexDigit) else { return nil }
                return length
            }
        }
        return nil
    }

    private static func isHexDigit(_ byte: UInt8) -> Bool {
        (byte >= 0x30 && byte <= 0x39) || (byte | 0x20 >= 0x61 && byte | 0x20 <= 0x66)
    }

    /// Whether four hex digits name the first half of a UTF-16 surrogate pair (D800–DBFF).
    private static func isFirstSurrogate(_ digits: ArraySlice<UInt8>) -> Bool {
        digits.first.map { $0 | 0x20 == UInt8(ascii: "d") } == true
            && digits.dropFirst().first.map { (0x38...0x39).contains($0) || (0x61...0x62).contains($0 | 0x20) } == true
    }

    /// Whether the open object's last byte that is not white space ends a value, so that a field after it needs a `,`.
    private func needsSeparator() -> Bool {
        guard let last = object.last(where: { !LineBytes.isSpace($0) && $0 != 0x0D }) else { return false }
        return last != UInt8(ascii: ",") && last != UInt8(ascii: "{") && last != UInt8(ascii: "[") && last != UInt8(ascii: ":")
    }

    private mutating func decode() -> LogJSONEntry? {
        if decoder == nil { decoder = JSONDecoder() }
        return try? decoder!.decode(LogJSONEntry.self, from: Data(object))
    }

    /// Hands the held lines and this one back to be read as ordinary lines (but a first line counted already).
    private mutating func replayAll(_ line: UnsafeRawBufferPointer, number: Int, truncated: Bool) -> Step {
        var lines = firstLineCounted ? Array(held.dropFirst()) : held
        lines.append(HeldLine(number: number, bytes: Array(line), truncated: truncated))
        collecting = false
        held = []
        object = []
        return .replay(lines)
    }
}
