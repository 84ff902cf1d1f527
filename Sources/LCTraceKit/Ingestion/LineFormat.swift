import PCRE2

/// A line format: a PCRE2 pattern for the line header, with named groups `time`, `process`, `pid`, `tid`
/// and optionally `message` (the message is otherwise the rest of the line after the header).
/// Built-in patterns are matched anchored at the start of the line; each ships sample lines it must match.
public struct LineFormat: Sendable {
    public let name: String
    public let summary: String
    /// The header pattern, or nil for `bare` (the whole line is the message).
    public let pattern: String?
    public let samples: [String]
    /// A hand-written matcher that decides exactly as the pattern does, used instead of it (the fast path).
    let handHeader: HandHeader?

    public init(name: String, summary: String, pattern: String?, samples: [String]) {
        self.init(name: name, summary: summary, pattern: pattern, samples: samples, handHeader: nil)
    }

    init(name: String, summary: String, pattern: String?, samples: [String], handHeader: HandHeader?) {
        self.name = name
        self.summary = summary
        self.pattern = pattern
        self.samples = samples
        self.handHeader = handHeader
    }

    public static let nslogModern = LineFormat(
        name: "nslog-modern",
        summary: "NSLog/Xcode with microseconds and a time zone",
        pattern: #"(?<time>\d{4}-\d\d-\d\d[ T]\d\d:\d\d:\d\d\.\d{4,9}(?:[+-]\d\d:?\d\d|Z)) (?<process>[^\[\]\n]+?)\[(?<pid>\d+):(?<tid>[0-9A-Fa-fx]+)\] ?"#,
        samples: ["2024-02-09 09:14:03.118204+0100 ShopApp[4410:1982201] CartViewController viewDidLoad()"],
        handHeader: .nslogModern)

    public static let nslogClassic = LineFormat(
        name: "nslog-classic",
        summary: "classic NSLog: date, time with milliseconds, Process[pid:tid]",
        pattern: #"(?<time>\d{4}-\d\d-\d\d \d\d:\d\d:\d\d(?:\.\d{1,3})?) (?<process>[^\[\]\n]+?)\[(?<pid>\d+):(?<tid>[0-9A-Fa-fx]+)\] ?"#,
        samples: ["2016-03-17 16:02:37.329 LifeCycle[2148:117099]  ViewController    >>>>    viewDidLoad"],
        handHeader: .nslogClassic)

    public static let syslog = LineFormat(
        name: "syslog",
        summary: "syslog / simulator system.log: no year, no thread id",
        pattern: #"(?<time>[A-Z][a-z]{2} [ \d]\d \d\d:\d\d:\d\d) (?<host>\S+) (?<process>[^\[\]\n]+?)\[(?<pid>\d+)\](?: \([^)\n]*\))?(?: <\w+>)?: ?"#,
        samples: ["Mar 17 16:34:24 MacBook-Pro LifeCycle[2346]: ViewController >>>> viewDidAppear:",
                  "Mar  7 09:01:02 iPhone-Simulator ShopApp[812] <Notice>: -[CartViewController viewWillAppear:]"])

    public static let logShow = LineFormat(
        name: "log-show",
        summary: "`log show` / `log stream` default style: timestamp, thread, type, activity, pid, TTL, Process: (Library) [subsystem:category]",
        pattern: #"(?<time>\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d{1,9}(?:[+-]\d\d:?\d\d)?) +(?<tid>0x[0-9a-fA-F]+) +[A-Za-z]+ +0x[0-9a-fA-F]+ +(?<pid>\d+) +\d+ +(?<process>[^:\n]+?): (?:\([^)\n]*\) )?(?:\[[^\]\n]*\] )?"#,
        samples: ["2024-02-09 09:14:03.118204+0100 0x1e4a1    Default     0x0                  4410   0    ShopApp: (ShopApp) [com.example.shop:lifecycle] CartViewController viewDidLoad()",
                  "2024-02-09 09:14:03.120011+0100 0x1e4a1    Default     0x0                  4410   0    ShopApp: CartViewController viewWillAppear(_:)"])

    public static let logCompact = LineFormat(
        name: "log-compact",
        summary: "`log show --style compact` / `log stream --style compact`: timestamp, type code, Process[pid:tid]",
        pattern: #"(?<time>\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d{3}) (?:Df|Db|Fa|I|E|F|A) +(?<process>[^\[\]\n]+?)\[(?<pid>\d+):(?<tid>[0-9a-fA-Fx]+)\] (?:\([^)\n]*\) )?(?:\[[^\]\n]*\] )?"#,
        samples: ["2024-02-09 09:14:03.118 Df ShopApp[4410:1e4a1] [com.example.shop:lifecycle] CartViewController viewDidLoad()",
                  "2024-02-09 09:14:03.120 I  ShopApp[4410:1e4a1] (UIKitCore) CartViewController viewWillAppear(_:)"])

    public static let xcodeConsole = LineFormat(
        name: "xcode-console",
        summary: "Xcode 15+ console with the Timestamp, Process and TID metadata shown: time of day, Process[pid:tid]",
        pattern: #"(?<time>\d\d:\d\d:\d\d\.\d{3,9}(?:[+-]\d\d:?\d\d)?) (?<process>[^\[\]\n]+?)\[(?<pid>\d+):(?<tid>[0-9a-fA-Fx]+)\] (?:\([^)\n]*\) )?(?:\[[^\]\n]*\] )?"#,
        samples: ["09:14:03.118204+0100 ShopApp[4410:1e4a1] CartViewController viewDidLoad()",
                  "09:14:03.120011+0100 ShopApp[4410:1e4a1] [com.example.shop:lifecycle] CartViewController viewWillAppear(_:)"])

    /// The partial headers of issue-tracker and blog pastes: what is left of an NSLog header when its date was cut.
    public static let processHeader = LineFormat(
        name: "process-header",
        summary: "Process[pid:tid] with no date (an NSLog header whose date was cut off)",
        pattern: #"(?<process>[^\[\]\n]+?)\[(?<pid>\d+):(?<tid>[0-9A-Fa-fx]+)\] ?"#,
        samples: ["LifeCycle[2148:117099] ViewController >>>> viewDidLoad",
                  "My Shop 2[4410:1e4a1] CartViewController viewDidLoad()",
                  "Café[812:f803] -[MenuViewController viewWillAppear:]"])

    public static let idsHeader = LineFormat(
        name: "ids-header",
        summary: "[pid:tid] alone (the thread id may be hexadecimal)",
        pattern: #"\[(?<pid>\d+):(?<tid>[0-9A-Fa-fx]+)\] ?"#,
        samples: ["[7397:f803] -[ViewController viewDidLoad]"])

    public static let timeOfDay = LineFormat(
        name: "time-of-day",
        summary: "a time of day alone before the message",
        pattern: #"(?<time>\d\d:\d\d:\d\d(?:[.,]\d{1,9})?(?:[+-]\d\d:?\d\d)?) +"#,
        samples: ["16:02:37.277 ViewController viewDidLoad()"])

    public static let bare = LineFormat(
        name: "bare",
        summary: "bare messages (print output): no header, so order-only analysis",
        pattern: nil,
        samples: ["ViewController viewWillAppear(_:)"])

    /// Built-in formats in detection order: most specific first. The complete headers come first and never match
    /// one another's lines; the partial ones after them (`isPartial`) would also match parts of a complete header.
    public static let builtIn: [LineFormat] = [.logShow, .logCompact, .nslogModern, .nslogClassic, .xcodeConsole, .syslog,
                                               .processHeader, .idsHeader, .timeOfDay, .bare]

    /// Whether a line read as `nslog-classic` might be `log-compact`, which comes first in detection order: both
    /// start with a date and a time with milliseconds, and a classic process name may begin with what is compact's
    /// type code (`2024-02-09 09:14:03.118 Df ShopApp[4410:1e4a1]`). True when the process begins with a type code and
    /// a space.
    @inline(__always)
    static func classicProcessMayBeCompact(_ process: UnsafeRawBufferPointer.SubSequence) -> Bool {
        let count = process.endIndex - process.startIndex
        guard count >= 3 else { return false }
        let first = process[process.startIndex]
        let second = process[process.startIndex + 1]
        let typeCode: Int
        switch first {
        case UInt8(ascii: "I"), UInt8(ascii: "E"), UInt8(ascii: "A"): typeCode = 1
        case UInt8(ascii: "D"): typeCode = second == UInt8(ascii: "f") || second == UInt8(ascii: "b") ? 2 : 0
        case UInt8(ascii: "F"): typeCode = second == UInt8(ascii: "a") ? 2 : 1
        default: typeCode = 0
        }
        return typeCode > 0 && count > typeCode && process[process.startIndex + typeCode] == UInt8(ascii: " ")
    }

    /// A partial header: tried only after every complete one, whatever format the line before had.
    var isPartial: Bool { name == "process-header" || name == "ids-header" || name == "time-of-day" }

    public static func named(_ name: String) -> LineFormat? { builtIn.first { $0.name == name } }

    /// A user-supplied header pattern (`--pattern`), used as given (not implicitly anchored).
    public static func custom(_ pattern: String) -> LineFormat {
        LineFormat(name: "custom", summary: "user pattern", pattern: pattern, samples: [])
    }

    var isAnchoredBuiltIn: Bool { name != "custom" }

    /// The named groups a header pattern reads; a `--pattern` must have at least one of them.
    public static let groupNames = ["time", "process", "pid", "tid", "message"]

    /// Why `pattern` cannot be a `--pattern` (it does not compile, or names none of `groupNames`), in one line;
    /// nil when it can.
    public static func customPatternProblem(_ pattern: String) -> String? {
        let compiled: PCRE2Pattern
        do {
            compiled = try PCRE2Pattern(pattern)
        } catch {
            return error.summary
        }
        guard groupNames.contains(where: { compiled.groupNumber(named: $0) != nil }) else {
            return "the pattern names none of the groups \(groupNames.joined(separator: ", ")), as in (?<message>.*)"
        }
        return nil
    }
}

/// The parts of a line a format recognised, as byte ranges into the line.
public struct LineHeader: Equatable {
    public var time: Range<Int>?
    public var process: Range<Int>?
    public var pid: Range<Int>?
    public var tid: Range<Int>?
    public var message: Range<Int>
}

/// Matches one line format's header against lines. One per thread (its matcher owns PCRE2 match data).
public final class LineHeaderParser {
    public let format: LineFormat
    /// Nil for `bare`, which has no header.
    private let matcher: ChosenMatcher<HandHeaderMatcher, PCRE2HeaderMatcher>?

    /// `fastPath: false` matches with PCRE2 even where a hand-written matcher exists (to compare the two).
    public convenience init(format: LineFormat, limits: PCRE2Limits = PCRE2Limits(), fastPath: Bool = true) throws(PCRE2CompileError) {
        try self.init(format: format, limits: limits, matchers: MatcherChoice(fastPath: fastPath))
    }

    init(format: LineFormat, limits: PCRE2Limits, matchers: MatcherChoice) throws(PCRE2CompileError) {
        self.format = format
        matcher = try matchers.headerMatcher(for: format, limits: limits)
    }

    /// The header of `line` read from byte `start`, or nil when the line is not in this format.
    @inline(__always)
    public func parse(_ line: UnsafeRawBufferPointer, from start: Int = 0) throws(PCRE2MatchError) -> LineHeader? {
        guard let matcher else { return LineHeader(message: start..<line.count) }
        return try matcher.firstMatch(line, in: start..<line.count)
    }

    /// Whether a header of this format starts exactly at `start` (used to split two records glued on one line).
    public func headerStarts(in line: UnsafeRawBufferPointer, at start: Int) -> Bool {
        guard format.isAnchoredBuiltIn, matcher != nil else { return false }
        return (try? parse(line, from: start)) != nil
    }
}
