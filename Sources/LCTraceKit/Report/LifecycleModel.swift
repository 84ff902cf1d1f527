import Foundation
import Histogram

/// What a set of good runs did, to hold a later run against (`lctrace learn`, `--write-model`, `--against`): the
/// transitions between controller classes (kind, from class, to class) with how many runs took each, how often and
/// how long they took, and the controller classes seen with how many instances and how long from `viewDidLoad` to
/// their first `viewDidAppear`. Each input of a learning run is one run.
///
/// Models merge: counts add, and durations are kept in mergeable histograms (two significant digits, so percentiles
/// within 1 %), so merging is associative and commutative — the model of many runs is the same whatever order they
/// were learned or merged in, and CI can keep one model of its main branch and merge each new run into it.
///
/// The file is JSON, versioned by its `lctraceModel` member, sorted so that it diffs well:
///
///     {
///       "lctraceModel": 1,
///       "writtenBy": "lctrace 0.9.0",
///       "runs": 12,
///       "transitions": [
///         {"kind":"push","from":"ListViewController","to":"DetailViewController","runs":12,"count":48,
///          "durationsMicros":[[351000,20],[402000,28]]}
///       ],
///       "controllers": [
///         {"class":"DetailViewController","runs":12,"instances":48,"loadToAppearMicros":[[412000,48]]}
///       ]
///     }
public struct LifecycleModel: Sendable, Equatable {
    public static let formatVersion = 1
    /// The largest model file read.
    public static let maxBytes = 64 << 20

    /// One kind of transition between two controller classes; an empty class where the transition has no such side
    /// (the first appearance of a launch has no `from`).
    public struct TransitionPath: Hashable, Comparable, Sendable {
        public var kind: String
        public var from: String
        public var to: String

        public init(kind: String, from: String, to: String) {
            self.kind = kind
            self.from = from
            self.to = to
        }

        /// `push ListViewController → DetailViewController`.
        public var description: String {
            [kind, [from, to].filter { !$0.isEmpty }.joined(separator: " → ")].joined(separator: " ")
        }

        public static func < (a: Self, b: Self) -> Bool { (a.from, a.to, a.kind) < (b.from, b.to, b.kind) }
    }

    /// How many runs had something, how many times in all, and how long it took each time it was timed.
    public struct Tally: Sendable, Equatable {
        public var runs = 0
        public var count = 0
        public var durations = Durations()

        mutating func count(_ durationMs: Double?, times: Int = 1) {
            count += times
            if let durationMs { durations.record(durationMs) }
        }

        mutating func merge(_ other: Tally) {
            runs += other.runs
            count += other.count
            durations.merge(other.durations)
        }
    }

    public var runs = 0
    public var transitions: [TransitionPath: Tally] = [:]
    /// By controller class; `count` is the instances, `durations` from `viewDidLoad` to the first `viewDidAppear`.
    public var controllers: [String: Tally] = [:]

    public init() {}

    /// Adds the runs of `other` to this model.
    public mutating func merge(_ other: LifecycleModel) {
        runs += other.runs
        for (path, tally) in other.transitions { transitions[path, default: Tally()].merge(tally) }
        for (name, tally) in other.controllers { controllers[name, default: Tally()].merge(tally) }
    }

    /// Counts one transition of the run being learned.
    mutating func count(_ path: TransitionPath, durationMs: Double?) {
        transitions[path, default: Tally()].count(durationMs)
    }

    /// Counts `instances` of a controller class of the run being learned, `durationMs` from the first one's
    /// viewDidLoad to its first viewDidAppear.
    mutating func count(_ className: String, instances: Int = 1, durationMs: Double?) {
        controllers[className, default: Tally()].count(durationMs, times: instances)
    }

    /// Ends the run being learned: everything it had counts one run more.
    mutating func endRun() {
        runs = 1
        for path in transitions.keys { transitions[path]!.runs = 1 }
        for name in controllers.keys { controllers[name]!.runs = 1 }
    }

    static func path(of transition: TransitionReport) -> TransitionPath {
        TransitionPath(kind: transition.kind.rawValue, from: transition.from.map(FindingKey.className(ofController:)) ?? "",
                       to: transition.to.map(FindingKey.className(ofController:)) ?? "")
    }

    // MARK: The file

    public enum ReadError: Error, CustomStringConvertible {
        case unreadable(String)
        case notAModel(String)
        case version(Int)
        case tooLarge

        public var description: String {
            switch self {
            case .unreadable(let why): return "cannot be read: \(why)"
            case .notAModel(let why): return "is not an lctrace model: \(why)"
            case .tooLarge: return "is larger than \(LifecycleModel.maxBytes >> 20) MiB, the most a model may be"
            case .version(let version):
                return "is in model format \(version); this lctrace reads format \(LifecycleModel.formatVersion) (learn it again with lctrace learn)"
            }
        }
    }

    private struct File: Codable {
        var lctraceModel: Int
        var writtenBy: String?
        var runs: Int
        var transitions: [TransitionEntry]
        var controllers: [ControllerEntry]
    }

    private struct TransitionEntry: Codable {
        var kind: String
        var from: String?
        var to: String?
        var runs: Int
        var count: Int
        var durationsMicros: [[UInt64]]
    }

    private struct ControllerEntry: Codable {
        var `class`: String
        var runs: Int
        var instances: Int
        var loadToAppearMicros: [[UInt64]]
    }

    private struct Version: Codable {
        var lctraceModel: Int
    }

    /// Reads a model file's bytes.
    public init(json: Data) throws(ReadError) {
        if let version = try? JSONDecoder().decode(Version.self, from: json), version.lctraceModel != LifecycleModel.formatVersion {
            throw .version(version.lctraceModel)
        }
        let file: File
        do {
            file = try JSONDecoder().decode(File.self, from: json)
        } catch let DecodingError.keyNotFound(key, _) {
            throw .notAModel("it has no \"\(key.stringValue)\"")
        } catch {
            throw .notAModel(json.isEmpty ? "it is empty" : "it is not JSON of a model")
        }
        guard file.runs >= 0 else { throw .notAModel("\"runs\" is negative") }
        runs = file.runs
        for entry in file.transitions {
            let path = TransitionPath(kind: entry.kind, from: entry.from ?? "", to: entry.to ?? "")
            guard let durations = Durations(pairs: entry.durationsMicros), entry.runs >= 0, entry.count >= 0 else {
                throw .notAModel("the transition \(path.description) has a negative count or a malformed duration")
            }
            transitions[path] = Tally(runs: entry.runs, count: entry.count, durations: durations)
        }
        for entry in file.controllers {
            guard let durations = Durations(pairs: entry.loadToAppearMicros), entry.runs >= 0, entry.instances >= 0 else {
                throw .notAModel("the controller \(entry.class) has a negative count or a malformed duration")
            }
            controllers[entry.class] = Tally(runs: entry.runs, count: entry.instances, durations: durations)
        }
    }

    /// Reads the model file at `path`.
    public init(path: String) throws(ReadError) {
        let bytes: [UInt8]
        do {
            bytes = try FileDescriptorIO.readFile(atPath: path, limit: LifecycleModel.maxBytes)
        } catch {
            throw .unreadable(error.description)
        }
        guard bytes.count <= LifecycleModel.maxBytes else { throw .tooLarge }
        try self.init(json: Data(bytes))
    }

    /// Whether `bytes` (a file's first bytes) look like a model rather than a log: JSON with an `lctraceModel` member.
    public static func looksLikeModel(_ bytes: some Collection<UInt8>) -> Bool {
        let text = String(decoding: bytes.prefix(256), as: UTF8.self)
        return text.drop(while: \.isWhitespace).hasPrefix("{") && text.contains("\"lctraceModel\"")
    }

    /// The file's text: one entry per line, transitions and controllers sorted.
    public var json: String {
        var writer = JSONWriter(indent: nil)
        func line(_ write: (inout JSONWriter) -> Void) -> String {
            writer.reset()
            write(&writer)
            return String(decoding: writer.buffer.bytes, as: UTF8.self)
        }
        let transitionLines = transitions.sorted { $0.key < $1.key }.map { path, tally in
            line { w in
                w.object { w in
                    w.member("kind", path.kind)
                    if !path.from.isEmpty { w.member("from", path.from) }
                    if !path.to.isEmpty { w.member("to", path.to) }
                    w.member("runs", tally.runs)
                    w.member("count", tally.count)
                    w.key("durationsMicros")
                    tally.durations.write(into: &w)
                }
            }
        }
        let controllerLines = controllers.sorted { $0.key < $1.key }.map { name, tally in
            line { w in
                w.object { w in
                    w.member("class", name)
                    w.member("runs", tally.runs)
                    w.member("instances", tally.count)
                    w.key("loadToAppearMicros")
                    tally.durations.write(into: &w)
                }
            }
        }
        func list(_ lines: [String]) -> String {
            lines.isEmpty ? "[]" : "[\n    " + lines.joined(separator: ",\n    ") + "\n  ]"
        }
        return "{\n  \"lctraceModel\": \(LifecycleModel.formatVersion),\n  \"writtenBy\": \"lctrace \(LCTraceVersion.current)\",\n"
            + "  \"runs\": \(runs),\n  \"transitions\": \(list(transitionLines)),\n  \"controllers\": \(list(controllerLines))\n}\n"
    }
}

extension LifecycleModel {
    /// Durations in a mergeable histogram: microseconds, two significant digits, up to an hour (longer ones count as
    /// an hour).
    public struct Durations: Sendable, Equatable {
        static let ceilingMicros: UInt64 = 3_600_000_000
        private var histogram = Histogram<UInt64>(highestTrackableValue: Durations.ceilingMicros, numberOfSignificantValueDigits: .two)

        public init() {}

        public var count: Int { Int(histogram.totalCount) }

        mutating func record(_ ms: Double) {
            let micros = ms.isFinite && ms > 0 ? UInt64(min(ms * 1000, Double(Durations.ceilingMicros))) : 0
            histogram.record(micros)
        }

        mutating func merge(_ other: Durations) {
            if other.count > 0 { histogram.add(other.histogram) }
        }

        /// The duration at `percentile` (0–100), in milliseconds to three significant digits (the histogram holds no
        /// more); nil when there is none. Read from the recorded values, so that a model read back from its file
        /// gives the same as the one that wrote it.
        public func milliseconds(atPercentile percentile: Double) -> Double? {
            guard count > 0 else { return nil }
            let rank = max(1, Int((percentile / 100 * Double(count)).rounded(.up)))
            var seen: UInt64 = 0
            for recorded in histogram.recordedValues() {
                seen += recorded.count
                if seen >= rank { return Durations.threeDigits(Double(recorded.value) / 1000) }
            }
            return nil
        }

        static func threeDigits(_ ms: Double) -> Double {
            guard ms > 0 else { return 0 }
            let scale = pow(10, 2 - floor(log10(ms)))
            return (ms * scale).rounded() / scale
        }

        /// The recorded values and their counts, as `[[micros, count], …]`, lowest first.
        var pairs: [[UInt64]] { histogram.recordedValues().map { [$0.value, $0.count] } }

        init?(pairs: [[UInt64]]) {
            for pair in pairs {
                guard pair.count == 2, pair[0] <= Durations.ceilingMicros, pair[1] > 0 else { return nil }
                histogram.record(pair[0], count: pair[1])
            }
        }

        func write(into w: inout JSONWriter) {
            w.array { w in
                for pair in pairs { w.array { w in w.value(Int(pair[0])); w.value(Int(pair[1])) } }
            }
        }

        public static func == (a: Durations, b: Durations) -> Bool { a.pairs == b.pairs }
    }
}
