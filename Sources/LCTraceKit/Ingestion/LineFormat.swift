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
    /// How the `time` group is written (`--time-format`), for a user's pattern; nil reads it by its shape
    /// (`TimestampReader`), as the built-in formats are read.
    public let timeFormat: TimeFormat?

    public init(name: String, summary: String, pattern: String?, samples: [String], timeFormat: TimeFormat? = nil) {
        self.init(name: name, summary: summary, pattern: pattern, samples: samples, handHeader: nil, timeFormat: timeFormat)
    }

    init(name: String, summary: String, pattern: String?, samples: [String], handHeader: HandHeader?, timeFormat: TimeFormat? = nil) {
        self.name = name
        self.summary = summary
        self.pattern = pattern
        self.samples = samples
        self.handHeader = handHeader
        self.timeFormat = timeFormat
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

    /// syslog and what prints its lines: a simulator's system.log, an old device console (Xcode's Devices window,
    /// Console.app) and `idevicesyslog` with the device name. The process ends where a `(Library)` suffix or the `[`
    /// starts (`ShopApp(Foundation)[4410]` is ShopApp); the host holds no bracket, so a line without one
    /// (`idevicesyslog`) is never read as having a host.
    public static let syslog = LineFormat(
        name: "syslog",
        summary: "syslog / simulator system.log / device console: no year, no thread id",
        pattern: #"(?<time>[A-Z][a-z]{2} [ \d]\d \d\d:\d\d:\d\d(?:\.\d{1,6})?) (?<host>[^\s\[\]]+) (?<process>[^\[\]\n]+?)(?:(?<=\S)\([^()\[\]\n]*\))?\[(?<pid>\d+)\](?: \([^)\n]*\))?(?: <\w+>)?: ?"#,
        samples: ["Mar 17 16:34:24 MacBook-Pro LifeCycle[2346]: ViewController >>>> viewDidAppear:",
                  "Mar  7 09:01:02 iPhone-Simulator ShopApp[812] <Notice>: -[CartViewController viewWillAppear:]",
                  "Feb  9 09:14:03 iPhone ShopApp(Foundation)[4410] <Notice>: ViewController viewDidLoad()",
                  "Feb  9 09:14:05 Anas-iPhone ShopApp[372] <Warning>: CartViewController viewWillAppear:"])

    /// `idevicesyslog` (libimobiledevice) as it prints lines: the syslog time (with microseconds when the device
    /// relays os_trace), no device name, `Process(Library)[pid] <Level>:`. The process has no space: a line of
    /// another shape is never read as this one.
    public static let idevicesyslog = LineFormat(
        name: "idevicesyslog",
        summary: "idevicesyslog: syslog time, Process(Library)[pid] <Level>:, no device name",
        pattern: #"(?<time>[A-Z][a-z]{2} [ \d]\d \d\d:\d\d:\d\d(?:\.\d{1,6})?) (?<process>[^\s\[\]()]+)(?:\([^()\[\]\s]*\))?\[(?<pid>\d+)\](?: <\w+>:)? ?"#,
        samples: ["Feb  9 09:14:03 ShopApp(Foundation)[4410] <Notice>: ViewController viewDidLoad()",
                  "Feb  9 09:14:03.118204 ShopApp[4410] <Notice>: ViewController viewWillAppear(_:)"])

    /// `log show --style syslog` / `log stream --style syslog`: the timestamp padded to its column (two spaces, where
    /// every other format has one), the host (`localhost`), `Process[pid]:`, then `(Library)` and
    /// `[subsystem:category]` when the entry has them.
    public static let logSyslog = LineFormat(
        name: "log-syslog",
        summary: "`log show` / `log stream` --style syslog: timestamp, host, Process[pid]: (Library) [subsystem:category]",
        pattern: #"(?<time>\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d{1,9}(?:[+-]\d\d:?\d\d|Z)?)  +(?<host>[^\s\[\]]+) (?<process>[^\[\]\n]+?)\[(?<pid>\d+)\]: ?(?:\([^)\n]*\) )?(?:\[[^\]\n]*\] )?"#,
        samples: ["2024-02-09 09:14:03.118204+0100  localhost ShopApp[4410]: (Foundation) ViewController viewDidLoad()",
                  "2024-02-09 09:14:03.120011+0100  localhost ShopApp[4410]: (ShopApp) [com.example.shop:lifecycle] ViewController viewWillAppear(_:)",
                  "2024-02-09 09:14:03.121842+0100  localhost ShopApp[4410]: ViewController viewDidAppear(_:)"])

    /// CocoaLumberjack's `DDTTYLogger` without a formatter: NSLog's header, but `yyyy-MM-dd HH:mm:ss:SSS` (a colon
    /// before the milliseconds) and the thread id cut to 8 digits.
    public static let lumberjackTTY = LineFormat(
        name: "lumberjack-tty",
        summary: "CocoaLumberjack DDTTYLogger: date, time with :milliseconds, Process[pid:tid]",
        pattern: #"(?<time>\d{4}-\d\d-\d\d \d\d:\d\d:\d\d:\d{3}) (?<process>[^\[\]\n]+?)\[(?<pid>\d+):(?<tid>[0-9A-Fa-fx]+)\] ?"#,
        samples: ["2024-02-09 09:14:03:118 ShopApp[4410:19822011] ViewController viewDidLoad()"])

    /// CocoaLumberjack's default file formatter (`DDLogFileFormatterDefault`): `yyyy/MM/dd HH:mm:ss:SSS`, two spaces,
    /// the message. No process or thread.
    public static let lumberjackFile = LineFormat(
        name: "lumberjack-file",
        summary: "CocoaLumberjack DDFileLogger default: yyyy/MM/dd HH:mm:ss:SSS and the message",
        pattern: #"(?<time>\d{4}/\d\d/\d\d \d\d:\d\d:\d\d:\d{3}) +"#,
        samples: ["2024/02/09 09:14:03:118  ViewController viewDidLoad()"])

    /// XCGLogger's default line: date and time, `[Level]`, then the identifier and the thread when shown (`[main]`, a
    /// queue's label, an address). The header ends before the source bracket (`[File.swift:34]`, `[34]`), the function
    /// or `> `, which stay in the message.
    public static let xcglogger = LineFormat(
        name: "xcglogger",
        summary: "XCGLogger: date, time, [Level], [thread] when shown; [File.swift:line] function > message left to the message",
        pattern: #"(?<time>\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d{3}) \[(?:Verbose|Debug|Info|Notice|Warning|Error|Severe|Alert|Emergency)\] (?:\[(?!(?:[^\]\n]*\.(?:swift|m|mm|h|c|cc|cpp)(?::\d+)?|\d+)\])[^\]\n]*\] ){0,2}"#,
        samples: ["2024-02-09 09:14:03.118 [Debug] [main] [ViewController.swift:34] viewDidLoad() > loading feed",
                  "2024-02-09 09:14:03.120 [Info] [CartViewController.swift:51] viewWillAppear(_:) > "])

    /// SwiftyBeaver's default format, `$DHH:mm:ss.SSS$d $C$L$c $N.$F:$l - $M`: a time of day, the level's colour (an
    /// emoji and a space on the console, an ANSI 256-colour code with terminal colours, nothing in a file), the level.
    /// `File.function:line - ` stays in the message.
    public static let swiftyBeaver = LineFormat(
        name: "swiftybeaver",
        summary: "SwiftyBeaver: time of day, colour, LEVEL; File.function():line - message left to the message",
        pattern: #"(?<time>\d\d:\d\d:\d\d\.\d{3}) (?:[\x80-\xff]{3,8} )?(?:\x1b\[38;5;\d{1,3}m)?(?:VERBOSE|DEBUG|INFO|WARNING|ERROR|CRITICAL|FAULT)(?:\x1b\[0m)? "#,
        samples: ["09:14:03.118 DEBUG ViewController.viewDidLoad():34 - loading feed",
                  "09:14:03.120 \u{1F49A} DEBUG ViewController.viewWillAppear(_:):41 - ",
                  "09:14:03.121 \u{1F7E9} DEBUG ViewController.viewDidAppear(_:):45 - appeared",
                  "09:14:03.122 \u{1B}[38;5;35mDEBUG\u{1B}[0m ViewController.viewDidAppear(_:):45 - "])

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
                  "2024-02-09 09:14:03.120 I  ShopApp[4410:1e4a1] (UIKitCore) CartViewController viewWillAppear(_:)"],
        handHeader: .logCompact)

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

    /// The old device console without its date (Xcode's Devices window before iOS 10): what is left of a syslog line
    /// when its date and device were cut off.
    public static let deviceConsole = LineFormat(
        name: "device-console",
        summary: "Process[pid] <Level>: with no date (an old device console line)",
        pattern: #"(?<process>[^\[\]\n]+?)\[(?<pid>\d+)\] <\w+>: ?"#,
        samples: ["ShopApp[372] <Warning>: ViewController viewDidLoad()"])

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
    /// The NSLog and `log` formats lead, the most common by far; the others are tried only on the lines those miss,
    /// and no format on a line whose first byte cannot start it (`startBytes`). SwiftyBeaver's comes before the Xcode
    /// console's, whose process could otherwise begin with SwiftyBeaver's level.
    public static let builtIn: [LineFormat] = [.logShow, .logCompact, .nslogModern, .nslogClassic, .logSyslog, .lumberjackTTY,
                                               .lumberjackFile, .xcglogger, .swiftyBeaver, .xcodeConsole, .syslog, .idevicesyslog,
                                               .processHeader, .deviceConsole, .idsHeader, .timeOfDay, .bare]

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
    var isPartial: Bool {
        name == "process-header" || name == "device-console" || name == "ids-header" || name == "time-of-day"
    }

    public static func named(_ name: String) -> LineFormat? { builtIn.first { $0.name == name } }

    /// The bytes each built-in header can start with, by format name, as PCRE2 works them out from the pattern: a line
    /// that starts with another byte is not tried against it (most formats start with a digit, a bare line seldom
    /// does). PCRE2 keeps this only for patterns that are not anchored, so each is compiled once more without.
    static let startBytes: [String: PCRE2StartBytes] = {
        var table: [String: PCRE2StartBytes] = [:]
        for format in builtIn {
            guard let pattern = format.pattern, let compiled = try? PCRE2Pattern(pattern, jit: false) else { continue }
            table[format.name] = compiled.startBytes
        }
        return table
    }()

    /// A user-supplied header pattern (`--pattern`), used as given (not implicitly anchored), with how its `time`
    /// group is written (`--time-format`) when it is not a shape the built-in formats read.
    public static func custom(_ pattern: String, timeFormat: TimeFormat? = nil) -> LineFormat {
        LineFormat(name: "custom", summary: "user pattern", pattern: pattern, samples: [], timeFormat: timeFormat)
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

    /// Why `timeFormat` cannot be the `--time-format` of `pattern` (it is not a time format, or the pattern has no
    /// `time` group for it to read), in one line; nil when it can.
    public static func timeFormatProblem(_ timeFormat: String, pattern: String) -> String? {
        do {
            _ = try TimeFormat(timeFormat)
        } catch {
            return error.description
        }
        guard let compiled = try? PCRE2Pattern(pattern), compiled.groupNumber(named: "time") != nil else {
            return "the pattern has no time group for it to read, as in (?<time>\\S+ \\S+)"
        }
        return nil
    }
}

/// The parts of a line a format recognised, as byte ranges into the line.
public struct LineHeader: Equatable {
    // The optional fields are stored as plain ranges, `-1..<-1` when the header has no such field: an optional range
    // takes 17 bytes, and a header of four was copied in misaligned pieces on every line.
    private var timeBounds: Range<Int>
    private var processBounds: Range<Int>
    private var pidBounds: Range<Int>
    private var tidBounds: Range<Int>
    public var message: Range<Int>

    public init(time: Range<Int>? = nil, process: Range<Int>? = nil, pid: Range<Int>? = nil, tid: Range<Int>? = nil,
                message: Range<Int>) {
        timeBounds = LineHeader.bounds(time)
        processBounds = LineHeader.bounds(process)
        pidBounds = LineHeader.bounds(pid)
        tidBounds = LineHeader.bounds(tid)
        self.message = message
    }

    public var time: Range<Int>? {
        @inline(__always) get { LineHeader.field(timeBounds) }
        set { timeBounds = LineHeader.bounds(newValue) }
    }
    public var process: Range<Int>? {
        @inline(__always) get { LineHeader.field(processBounds) }
        set { processBounds = LineHeader.bounds(newValue) }
    }
    public var pid: Range<Int>? {
        @inline(__always) get { LineHeader.field(pidBounds) }
        set { pidBounds = LineHeader.bounds(newValue) }
    }
    public var tid: Range<Int>? {
        @inline(__always) get { LineHeader.field(tidBounds) }
        set { tidBounds = LineHeader.bounds(newValue) }
    }

    private static let absent = -1 ..< -1
    @inline(__always) private static func bounds(_ field: Range<Int>?) -> Range<Int> { field ?? absent }
    @inline(__always) private static func field(_ bounds: Range<Int>) -> Range<Int>? { bounds.lowerBound < 0 ? nil : bounds }
}

/// Matches one line format's header against lines. One per thread (its matcher owns PCRE2 match data).
public final class LineHeaderParser {
    public let format: LineFormat
    /// Nil for `bare`, which has no header.
    private let matcher: ChosenMatcher<HandHeaderMatcher, PCRE2HeaderMatcher>?
    /// The bytes a header of a built-in format can start with (`LineFormat.startBytes`); every byte for a user's pattern.
    let startBytes: PCRE2StartBytes

    /// `fastPath: false` matches with PCRE2 even where a hand-written matcher exists (to compare the two).
    public convenience init(format: LineFormat, limits: PCRE2Limits = PCRE2Limits(), fastPath: Bool = true) throws(PCRE2CompileError) {
        try self.init(format: format, limits: limits, matchers: MatcherChoice(fastPath: fastPath))
    }

    init(format: LineFormat, limits: PCRE2Limits, matchers: MatcherChoice) throws(PCRE2CompileError) {
        self.format = format
        matcher = try matchers.headerMatcher(for: format, limits: limits)
        startBytes = format.isAnchoredBuiltIn ? LineFormat.startBytes[format.name] ?? .all : .all
    }

    /// The header of `line` read from byte `start`, or nil when the line is not in this format.
    @inline(__always)
    public func parse(_ line: UnsafeRawBufferPointer, from start: Int = 0) throws(PCRE2MatchError) -> LineHeader? {
        guard let matcher else { return LineHeader(message: start..<line.count) }
        return try matcher.firstMatch(line, in: start..<line.count)
    }

    /// The stamp of the tail of the last header this parser read (`HeaderTail.stamp`): lines with one nonzero stamp have
    /// the same process, pid and tid. 0 when not known: the format is read by PCRE2 alone, or the hand-written matcher
    /// did not compare the tail (it rests).
    var tailStamp: UInt64 { handMatcher?.tailStamp ?? 0 }

    /// The hand-written matcher that decides every line of this format, when the run reads with one: a caller that
    /// reads many lines in a row with this parser may ask it directly, for the same answers as `parse`, which must
    /// therefore stay only the asking of its matcher (`LineHeaderRecognizer` asks its hint's this way).
    var handMatcher: HandHeaderMatcher? {
        guard case .fastPath(let matcher)? = matcher else { return nil }
        return matcher.handMatcher
    }

    /// Whether a header of this format starts exactly at `start` (used to split two records glued on one line).
    public func headerStarts(in line: UnsafeRawBufferPointer, at start: Int) -> Bool {
        guard format.isAnchoredBuiltIn, matcher != nil else { return false }
        return (try? parse(line, from: start)) != nil
    }
}

/// How the line format of each input is chosen.
public enum LineFormatChoice: Sendable {
    /// Detected per input from its first lines.
    case automatic
    /// Forced (`--line-format NAME` or `--pattern REGEX`).
    case fixed(LineFormat)
}
