import Foundation

/// Findings accepted as known: `--write-baseline FILE` records a run's findings, and `--baseline FILE` then
/// leaves those out, so that a check fails only on new ones. Entries are keyed on content (`FindingKey`: rule,
/// controller class and normalised message), never on line numbers, times, process ids or addresses, so that a known
/// problem stays known when the log shifts. By default the input's name is not part of the key either, as CI names
/// its logs per run (`App-<udid>.log`, `<stdin>`); written with `--baseline-by-input`, a baseline keys each entry on
/// its input's base name too.
///
/// Entries are counted per launch: an entry's count is the most times one session of the recorded run had the
/// finding (for a finding about a whole input, one input). A session then matches its own findings against it, the
/// first ones of each kind, whatever other sessions found: a run with more launches than the recorded one (a longer
/// UI-test run) brings no new findings, and a third occurrence in one launch of a problem known twice per launch is
/// new. (Each session being matched on its own, a parallel run's workers apply the baseline as they read.)
///
/// The file is JSON, versioned by its `lctraceBaseline` member (now 3). Formats 1 (always keyed by input) and 2
/// counted a finding's occurrences in the whole run; they are still read, their counts taken as counts per launch,
/// which knows at least what they knew. Entries are sorted so that the file diffs well in version control:
///
///     {
///       "lctraceBaseline": 3,
///       "writtenBy": "lctrace 0.9.0",
///       "keyedBy": "content",
///       "findings": [
///         {"rule": "did-appear-twice", "controllerClass": "DetailViewController",
///          "message": "viewDidAppear on DetailViewController, which is already visible", "count": 2}
///       ]
///     }
public struct Baseline: Sendable, Equatable {
    /// The format version this lctrace writes, and the ones it reads.
    public static let formatVersion = 3
    public static let readableVersions = 1...3

    /// What an entry is keyed on besides its content.
    public enum Keying: String, Sendable {
        /// Rule, class and normalised message: the same problem in any input.
        case content
        /// Those and the input's base name.
        case input
    }

    /// How many findings of each key are known, per launch.
    public var counts: [FindingKey: Int] = [:]
    public var keying: Keying

    /// The largest baseline file read: about 150,000 distinct findings, which take under 200 MiB to read.
    public static let maxBytes = 32 << 20

    public init(counts: [FindingKey: Int] = [:], keying: Keying = .content) {
        self.counts = counts
        self.keying = keying
    }

    /// The finding's key in this baseline: without its input's name when keyed on content.
    public func key(_ finding: Finding) -> FindingKey {
        var key = FindingKey(finding)
        if keying == .content { key.input = "" }
        return key
    }

    public var findingCount: Int { counts.values.reduce(0, +) }

    public enum ReadError: Error, CustomStringConvertible {
        case unreadable(String)
        case notABaseline(String)
        case version(Int)
        case tooLarge

        public var description: String {
            switch self {
            case .unreadable(let why): return "cannot be read: \(why)"
            case .notABaseline(let why): return "is not an lctrace baseline: \(why)"
            case .tooLarge:
                return "is larger than \(Baseline.maxBytes >> 20) MiB, the most a baseline may be (its findings would take several times that in memory)"
            case .version(let version):
                return "is in baseline format \(version); this lctrace reads formats \(Baseline.readableVersions.lowerBound) to "
                    + "\(Baseline.readableVersions.upperBound) (write it again with --write-baseline)"
            }
        }
    }

    private struct File: Codable {
        var lctraceBaseline: Int
        var writtenBy: String?
        var keyedBy: String?
        var findings: [Entry]?
    }

    private struct Entry: Codable {
        var rule: String
        var controllerClass: String?
        var input: String?
        var message: String
        var count: Int
    }

    /// Reads a baseline file's bytes.
    public init(json: Data) throws(ReadError) {
        let file: File
        do {
            file = try JSONDecoder().decode(File.self, from: json)
        } catch let DecodingError.keyNotFound(key, context) {
            throw .notABaseline("\(Baseline.place(context.codingPath)) has no \"\(key.stringValue)\"")
        } catch let DecodingError.typeMismatch(type, context), let DecodingError.valueNotFound(type, context) {
            let what = type == Int.self ? "a whole number" : type == String.self ? "a string" : "\(type)".hasPrefix("Array") ? "a list"
                : "an object"
            throw .notABaseline("\(Baseline.place(context.codingPath)) is not \(what)")
        } catch {
            throw .notABaseline(json.isEmpty ? "it is empty" : "it is not JSON")
        }
        guard Baseline.readableVersions.contains(file.lctraceBaseline) else { throw .version(file.lctraceBaseline) }
        // Format 1 was always keyed by input.
        let keyedBy = file.keyedBy ?? (file.lctraceBaseline == 1 ? Keying.input.rawValue : Keying.content.rawValue)
        guard let keying = Keying(rawValue: keyedBy) else {
            throw .notABaseline("\"keyedBy\" is \"\(keyedBy)\", not \"content\" or \"input\"")
        }
        self.keying = keying
        // The counts of all entries together fit in an Int, so that no sum of them can overflow later.
        var total = 0
        for entry in file.findings ?? [] {
            guard entry.count > 0 else { throw .notABaseline("an entry of rule \(entry.rule) has a count of \(entry.count)") }
            let (sum, overflow) = total.addingReportingOverflow(entry.count)
            guard !overflow else { throw .notABaseline("its counts add up to more than \(Int.max)") }
            total = sum
            guard keying == .content || entry.input != nil else { throw .notABaseline("an entry of rule \(entry.rule) names no input") }
            let input = keying == .input ? entry.input ?? "" : ""
            let key = FindingKey(rule: entry.rule, controllerClass: entry.controllerClass, input: input, message: entry.message)
            counts[key, default: 0] += entry.count
        }
    }

    /// Where in the file a decoding error is: `it` (the whole), `"count" of finding 3`, `"lctraceBaseline"`.
    static func place(_ path: [any CodingKey]) -> String {
        guard let last = path.last else { return "it" }
        if last.intValue != nil { return "finding \(last.intValue! + 1)" }
        let entry = path.dropLast().last?.intValue.map { " of finding \($0 + 1)" } ?? ""
        return "\"\(last.stringValue)\"" + entry
    }

    /// Reads the baseline file at `path`.
    public init(path: String) throws(ReadError) {
        let bytes: [UInt8]
        do {
            bytes = try FileDescriptorIO.readFile(atPath: path, limit: Baseline.maxBytes)
        } catch {
            throw .unreadable(error.description)
        }
        guard bytes.count <= Baseline.maxBytes else { throw .tooLarge }
        try self.init(json: Data(bytes))
    }

    /// The file's text: entries sorted by input, rule, class and message, one per line.
    public var json: String {
        var writer = JSONWriter(indent: nil)
        var text = "{\n  \"lctraceBaseline\": \(Baseline.formatVersion),\n  \"writtenBy\": \"lctrace \(LCTraceVersion.current)\",\n"
            + "  \"keyedBy\": \"\(keying.rawValue)\",\n  \"findings\": ["
        for (index, (key, count)) in counts.sorted(by: { $0.key < $1.key }).enumerated() {
            writer.reset()
            writer.object { w in
                w.member("rule", key.rule)
                w.member("controllerClass", key.controllerClass)
                if keying == .input { w.member("input", key.input) }
                w.member("message", key.message)
                w.member("count", count)
            }
            text += (index == 0 ? "\n    " : ",\n    ") + String(decoding: writer.buffer.bytes, as: UTF8.self)
        }
        return text + (counts.isEmpty ? "]\n}\n" : "\n  ]\n}\n")
    }
}

/// Records every finding of a run into a baseline (`--write-baseline`): each entry counts the most times one
/// session had the finding (one input, for findings about a whole input). A run that records a baseline applies none.
public final class BaselineRecorder {
    public private(set) var baseline: Baseline
    /// The findings of the sessions open (by number) and of the input being read (session 0), counted by key.
    private var open: [Int: [FindingKey: Int]] = [:]

    public init(keying: Baseline.Keying = .content) {
        baseline = Baseline(keying: keying)
    }

    func record(_ finding: Finding) {
        open[finding.session, default: [:]][baseline.key(finding), default: 0] += 1
    }

    /// The session's findings are all recorded: its counts join the baseline's.
    func sessionClosed(_ index: Int) {
        guard let counts = open.removeValue(forKey: index) else { return }
        baseline.counts.merge(counts, uniquingKeysWith: max)
    }

    /// The input's findings about itself are all recorded (they come after its sessions').
    func inputEnded() { sessionClosed(0) }
}
