import Foundation
import Testing
import PCRE2
@testable import LCTraceKit

/// The line headers of the tools developers capture logs with (`Fixtures/header-shapes`): idevicesyslog with and
/// without the device name, `log show --style syslog`, the old device console with and without its date,
/// CocoaLumberjack's file and terminal loggers, XCGLogger, SwiftyBeaver, colour escapes before any of them, and a
/// user's pattern with `--time-format`. Each is read into events, controllers, process, pid and times, the same with
/// the hand-written matchers as with PCRE2 alone, and the same on one thread as in sections on two.
@Suite struct HeaderShapeTests {
    static let directory = Fixtures.repositoryRoot.appendingPathComponent("Tests/LCTraceKitTests/Fixtures/header-shapes")

    static func path(_ fixture: String) -> String { directory.appendingPathComponent(fixture).path }

    /// What one fixture must read as.
    struct Shape: CustomStringConvertible, Sendable {
        var fixture: String
        /// The input's format, as the summary names it.
        var format: String
        /// Each line's disposition and format (`-` for a line read as bare), `lctrace lines` as JSON has them.
        var lines: [String]
        /// The lifecycle events read (notices included), as the summary counts them.
        var events: Int
        /// The classes of the session's controllers, in the report's order; nil for what the message alone reads.
        var controllers: [String]?
        var process: String?
        var pid: Int?
        /// Every controller event as the JSON report shows it: `LINE TIME +OFFSETms`.
        var times: [String]
        var choice: LineFormatChoice = .automatic

        var description: String { fixture }
    }

    static let customPattern = #"^\[(?<time>[^\]]+)\] \[(?<process>\w+):(?<pid>\d+)\] "#

    static let shapes: [Shape] = [
        Shape(fixture: "idevicesyslog.log", format: "idevicesyslog",
              lines: ["other idevicesyslog", "notice idevicesyslog", "lifecycle idevicesyslog", "lifecycle idevicesyslog",
                      "lifecycle idevicesyslog", "other idevicesyslog", "lifecycle idevicesyslog"],
              events: 5, controllers: ["ViewController"], process: "ShopApp", pid: 4410,
              times: ["4 Feb  9 09:14:03 +1000", "5 Feb  9 09:14:03 +1000", "7 Feb  9 09:14:04 +2000"]),
        Shape(fixture: "idevicesyslog-os-trace.log", format: "idevicesyslog",
              lines: ["notice idevicesyslog", "lifecycle idevicesyslog", "lifecycle idevicesyslog", "other idevicesyslog",
                      "lifecycle idevicesyslog"],
              events: 4, controllers: ["ViewController"], process: "ShopApp", pid: 4410,
              times: ["2 Feb  9 09:14:03.118204 +306.702", "3 Feb  9 09:14:03.119015 +307.513",
                      "5 Feb  9 09:14:03.160554 +349.052"]),
        Shape(fixture: "idevicesyslog-device-name.log", format: "syslog",
              lines: ["notice syslog", "lifecycle syslog", "lifecycle syslog", "other syslog", "lifecycle syslog"],
              events: 4, controllers: ["ViewController"], process: "ShopApp", pid: 4410,
              times: ["2 Feb  9 09:14:03 +1000", "3 Feb  9 09:14:03 +1000", "5 Feb  9 09:14:04 +2000"]),
        Shape(fixture: "log-syslog.log", format: "log-syslog",
              lines: ["other -", "other -", "notice log-syslog", "lifecycle log-syslog", "lifecycle log-syslog", "other log-syslog",
                      "lifecycle log-syslog"],
              events: 4, controllers: ["ViewController"], process: "ShopApp", pid: 4410,
              times: ["4 2024-02-09 09:14:03.118204+0100 +306.702", "5 2024-02-09 09:14:03.119015+0100 +307.513",
                      "7 2024-02-09 09:14:03.160554+0100 +349.052"]),
        Shape(fixture: "device-console.log", format: "device-console",
              lines: ["notice device-console", "lifecycle device-console", "lifecycle device-console", "lifecycle device-console",
                      "lifecycle device-console"],
              events: 5, controllers: ["ViewController"], process: "ShopApp", pid: 372,
              times: ["3 - -", "4 - -", "5 - -"]),
        Shape(fixture: "device-console-dated.log", format: "syslog",
              lines: ["notice syslog", "lifecycle syslog", "lifecycle syslog", "lifecycle syslog", "other syslog", "lifecycle syslog"],
              events: 5, controllers: ["ViewController"], process: "ShopApp", pid: 372,
              times: ["3 Feb  9 09:14:03 +1000", "4 Feb  9 09:14:03 +1000", "6 Feb  9 09:14:04 +2000"]),
        Shape(fixture: "lumberjack-file.log", format: "lumberjack-file",
              lines: ["notice lumberjack-file", "lifecycle lumberjack-file", "lifecycle lumberjack-file", "other lumberjack-file",
                      "lifecycle lumberjack-file"],
              events: 4, controllers: ["ViewController"], process: nil, pid: nil,
              times: ["2 2024/02/09 08:14:03:118 +307", "3 2024/02/09 08:14:03:119 +308", "5 2024/02/09 08:14:03:160 +349"]),
        Shape(fixture: "lumberjack-tty.log", format: "lumberjack-tty",
              lines: ["notice lumberjack-tty", "lifecycle lumberjack-tty", "lifecycle lumberjack-tty", "lifecycle lumberjack-tty"],
              events: 4, controllers: ["ViewController"], process: "ShopApp", pid: 4410,
              times: ["2 2024-02-09 09:14:03:118 +307", "3 2024-02-09 09:14:03:119 +308", "4 2024-02-09 09:14:03:160 +349"]),
        Shape(fixture: "lumberjack-tty-ansi.log", format: "lumberjack-tty",
              lines: ["notice lumberjack-tty", "lifecycle lumberjack-tty", "lifecycle lumberjack-tty", "lifecycle lumberjack-tty"],
              events: 4, controllers: ["ViewController"], process: "ShopApp", pid: 4410,
              times: ["2 2024-02-09 09:14:03:118 +307", "3 2024-02-09 09:14:03:119 +308", "4 2024-02-09 09:14:03:160 +349"]),
        Shape(fixture: "xcglogger.log", format: "xcglogger",
              lines: ["lifecycle xcglogger", "lifecycle xcglogger", "lifecycle xcglogger", "other xcglogger", "lifecycle xcglogger"],
              events: 4, controllers: nil, process: nil, pid: nil,
              times: ["2 2024-02-09 09:14:03.118 +307", "3 2024-02-09 09:14:03.119 +308", "5 2024-02-09 09:14:03.160 +349"]),
        Shape(fixture: "xcglogger-ansi.log", format: "xcglogger",
              lines: ["lifecycle xcglogger", "lifecycle xcglogger", "lifecycle xcglogger"],
              events: 3, controllers: nil, process: nil, pid: nil,
              times: ["2 2024-02-09 09:14:03.118 +307", "3 2024-02-09 09:14:03.160 +349"]),
        Shape(fixture: "swiftybeaver.log", format: "swiftybeaver",
              lines: ["lifecycle swiftybeaver", "lifecycle swiftybeaver", "lifecycle swiftybeaver", "other swiftybeaver",
                      "lifecycle swiftybeaver"],
              events: 4, controllers: ["ViewController"], process: nil, pid: nil,
              times: ["2 09:14:03.118 +307", "3 09:14:03.119 +308", "5 09:14:03.160 +349"]),
        Shape(fixture: "swiftybeaver-file.log", format: "swiftybeaver",
              lines: ["lifecycle swiftybeaver", "lifecycle swiftybeaver", "lifecycle swiftybeaver"],
              events: 3, controllers: ["ViewController"], process: nil, pid: nil,
              times: ["1 09:14:03.118 +0", "2 09:14:03.119 +1", "3 09:14:03.160 +42"]),
        Shape(fixture: "swiftybeaver-colored.log", format: "swiftybeaver",
              lines: ["lifecycle swiftybeaver", "lifecycle swiftybeaver"],
              events: 2, controllers: ["ViewController"], process: nil, pid: nil,
              times: ["1 09:14:03.118 +0", "2 09:14:03.160 +42"]),
        // A user's pattern with --time-format: the fourth line's date (31 February) is not read.
        Shape(fixture: "time-format.log", format: "custom",
              lines: ["notice custom", "lifecycle custom", "lifecycle custom", "lifecycle custom", "lifecycle custom"],
              events: 5, controllers: ["ViewController"], process: "ShopApp", pid: 4410,
              times: ["2 09.02.2024 09:14:03,118 +307", "3 09.02.2024 09:14:03,119 +308", "4 31.02.2024 09:14:03,150 -",
                      "5 09.02.2024 09:14:03,160 +349"],
              choice: .fixed(.custom(customPattern, timeFormat: try! TimeFormat("%d.%m.%Y %H:%M:%S,%f")))),
    ]

    // MARK: - Reading each shape

    /// How each line of `path` was read.
    static func readings(_ path: String, choice: LineFormatChoice = .automatic) throws -> [LineReading] {
        var options = AnalysisOptions()
        options.lineFormat = choice
        var readings: [LineReading] = []
        let analyzer = try Analyzer(options: options, reporter: RecordingSink())
        analyzer.lineObserver = { readings.append($0) }
        try analyzer.analyze(.file(path))
        analyzer.finish()
        return readings
    }

    static func json(_ text: String) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
    }

    @Test(arguments: Self.shapes)
    func readsAsTheToolWroteIt(_ shape: Shape) throws {
        let path = Self.path(shape.fixture)
        let readings = try Self.readings(path, choice: shape.choice)
        #expect(readings.map { "\($0.disposition) \($0.format ?? "-")" } == shape.lines)

        let report = try Self.json(try analysisReport(of: path, choice: shape.choice))
        let summary = try #require(report["summary"] as? [String: Any])
        #expect(summary["events"] as? Int == shape.events)
        let perInput = try #require((summary["perInput"] as? [[String: Any]])?.first)
        #expect(perInput["format"] as? String == shape.format)
        let sessions = try #require(report["sessions"] as? [[String: Any]])
        #expect(sessions.count == 1)
        let session = try #require(sessions.first)
        #expect(session["process"] as? String == shape.process)
        #expect(session["pid"] as? Int == shape.pid)
        let controllers = try #require(session["controllers"] as? [[String: Any]])
        let classes = controllers.compactMap { $0["class"] as? String }
        let events = controllers.flatMap { ($0["events"] as? [[String: Any]]) ?? [] }
        let times = events.map { event -> String in
            let offset = (event["offsetMs"] as? Double).map { "+" + Self.milliseconds($0) } ?? "-"
            return "\(event["line"] as? Int ?? -1) \(event["time"] as? String ?? "-") \(offset)"
        }
        #expect(times == shape.times)

        // The message handed on is what the message parser reads: the same class and callback as the message alone.
        let alone = try Self.readings(try Fixtures.temporaryFile(readings.map { ($0.message ?? $0.text) + "\n" }.joined()))
        #expect(readings.map { "\($0.className ?? "-") \($0.callback?.rawValue ?? "-")" }
                == alone.map { "\($0.className ?? "-") \($0.callback?.rawValue ?? "-")" })
        if let expected = shape.controllers {
            #expect(classes == expected)
        } else {
            // XCGLogger's `[File.swift:34] function > message` is read by the message shapes: the file's class, or
            // the anonymous controller until a shape reads it.
            #expect(classes == ["ViewController"] || classes == [MessageParser.anonymousClass], "\(classes)")
        }
        // No escape byte is left in a header field or a message.
        for reading in readings {
            for field in [reading.message, reading.time, reading.process, reading.pid, reading.tid] {
                #expect(field?.contains("\u{1B}") != true, "line \(reading.line): \(field ?? "")")
            }
        }
    }

    static func milliseconds(_ value: Double) -> String {
        value == value.rounded() ? String(Int(value)) : String(value)
    }

    /// The process and ids each header carries, and where the message starts: after the `(Library)` suffix, the
    /// level and the colour, before XCGLogger's source bracket and SwiftyBeaver's `File.function():line`.
    @Test func headerFieldsAndMessages() throws {
        func first(_ fixture: String, line: Int = 2, choice: LineFormatChoice = .automatic) throws -> LineReading {
            try #require(try Self.readings(Self.path(fixture), choice: choice).first { $0.line == line })
        }
        let idevice = try first("idevicesyslog.log")
        #expect([idevice.time, idevice.process, idevice.pid, idevice.tid, idevice.message]
                == ["Feb  9 09:14:02", "ShopApp", "4410", nil, "main()"])
        let springBoard = try first("idevicesyslog.log", line: 1)
        #expect([springBoard.process, springBoard.pid] == ["SpringBoard", "58"])
        let named = try first("idevicesyslog-device-name.log", line: 4)
        #expect([named.process, named.pid, named.message] == ["backboardd", "67", "Lux changed to 112.0"])
        let syslogStyle = try first("log-syslog.log", line: 5)
        #expect([syslogStyle.process, syslogStyle.pid, syslogStyle.message] == ["ShopApp", "4410", "ViewController viewWillAppear(_:)"])
        let console = try first("device-console.log", line: 3)
        #expect([console.time, console.process, console.pid, console.message] == [nil, "ShopApp", "372", "-[ViewController viewDidLoad]"])
        let tty = try first("lumberjack-tty.log", line: 3)
        #expect([tty.time, tty.process, tty.pid, tty.tid, tty.message]
                == ["2024-02-09 09:14:03:119", "ShopApp", "4410", "19822011", "ViewController viewWillAppear(_:)"])
        let file = try first("lumberjack-file.log")
        #expect([file.time, file.process, file.message] == ["2024/02/09 08:14:03:118", nil, "ViewController viewDidLoad()"])
        let xcg = try first("xcglogger.log")
        #expect([xcg.time, xcg.tid, xcg.message] == ["2024-02-09 09:14:03.118", nil, "[ViewController.swift:34] viewDidLoad() > loading feed"])
        let queue = try first("xcglogger.log", line: 4)
        #expect(queue.message == "[FeedService.swift:88] load() > GET /feed -> 200")
        let xcgColoured = try first("xcglogger-ansi.log", line: 3)
        #expect(xcgColoured.message == "[ViewController.swift:47] viewDidAppear(_:) > ")
        let beaver = try first("swiftybeaver.log")
        #expect([beaver.time, beaver.message] == ["09:14:03.118", "ViewController.viewDidLoad():34 - loading feed"])
        let beaverColoured = try first("swiftybeaver-colored.log", line: 1)
        #expect(beaverColoured.message == "ViewController.viewDidLoad():34 - loading feed")
        let custom = try first("time-format.log", choice: Self.shapes.last!.choice)
        #expect([custom.time, custom.process, custom.pid] == ["09.02.2024 09:14:03,118", "ShopApp", "4410"])
    }

    /// A time `--time-format` cannot read (31 February) is counted, and the event kept without one.
    @Test func anUnreadableTimeIsCounted() throws {
        let shape = try #require(Self.shapes.first { $0.fixture == "time-format.log" })
        let sink = RecordingSink()
        var options = AnalysisOptions()
        options.lineFormat = shape.choice
        let analyzer = try Analyzer(options: options, reporter: sink)
        try analyzer.analyze(.file(Self.path(shape.fixture)))
        analyzer.finish()
        #expect(sink.inputs.first?.unreadTimes == 1)
        // Without --time-format the same pattern reads none of these times.
        options.lineFormat = .fixed(.custom(Self.customPattern))
        let plain = RecordingSink()
        let again = try Analyzer(options: options, reporter: plain)
        try again.analyze(.file(Self.path(shape.fixture)))
        again.finish()
        #expect(plain.inputs.first?.unreadTimes == 5)
    }

    // MARK: - The table of formats

    static let newFormats: [LineFormat] = [.idevicesyslog, .logSyslog, .lumberjackTTY, .lumberjackFile, .xcglogger, .swiftyBeaver,
                                           .deviceConsole]

    /// A complete header never matches another format's samples when one of the two is new, so the format of the
    /// line before (tried first) cannot change what a line is read as; a partial one comes after every complete one.
    @Test func newFormatsAndTheOthersMatchOnlyTheirOwnSamples() throws {
        let complete = LineFormat.builtIn.filter { $0.pattern != nil && !$0.isPartial }
        let isNew = Set(Self.newFormats.map(\.name))
        for format in complete {
            let parser = try LineHeaderParser(format: format, fastPath: false)
            for other in complete where other.name != format.name && (isNew.contains(format.name) || isNew.contains(other.name)) {
                for sample in other.samples {
                    let bytes = Array(sample.utf8)
                    #expect(try bytes.withUnsafeBytes { try parser.parse($0) } == nil, "\(format.name) matches \(other.name)'s \(sample)")
                }
            }
        }
        let order = LineFormat.builtIn.map(\.name)
        let firstPartial = try #require(LineFormat.builtIn.firstIndex { $0.isPartial })
        #expect(LineFormat.builtIn[firstPartial...].allSatisfy { $0.isPartial || $0.pattern == nil }, "\(order)")
        #expect(LineFormat.deviceConsole.isPartial)
    }

    /// Lines of the fixtures and every format's samples, and seeded mutations of them.
    static func corpus() throws -> [[UInt8]] {
        var lines: [[UInt8]] = []
        let fixtures = try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { $0.hasSuffix(".log") }.sorted()
        for name in fixtures {
            lines += try Data(contentsOf: directory.appendingPathComponent(name)).split(separator: 0x0A).map(Array.init)
        }
        lines += LineFormat.builtIn.flatMap(\.samples).map { Array($0.utf8) }
        let tricky = ["Feb  9 09:14:03 My App[4410] <Notice>: x", "Feb  9 09:14:03 ShopApp (Beta)[4410] <Notice>: x",
                      "Feb  9 09:14:03 ShopApp(Foundation)[4410]: x", "Feb  9 09:14:03 ShopApp()[4410] x",
                      "Feb  9 09:14:03 iPhone ShopApp(Foundation)(x)[4410] <Notice>: x[12]: y",
                      "2024-02-09 09:14:03.118204+0100 localhost ShopApp[4410]: x", "2024-02-09 09:14:03.118204+0100   localhost ShopApp[4410]:x",
                      "2024-02-09 09:14:03.118  [Debug] x", "2024-02-09 09:14:03.118 [Debug] [a] [b] [c] x",
                      "2024-02-09 09:14:03.118 [Debug] [34] x", "2024-02-09 09:14:03.118 [Debug] [a.swift] x",
                      "09:14:03.118 DEBUGGER x", "09:14:03.118 \u{1B}[38;5;35mINFO x", "09:14:03.1182 DEBUG x",
                      "2024/02/09 09:14:03:118x", "2024/02/09 09:14:03.118  x", "2024-02-09 09:14:03:118 ShopApp[4410] x",
                      "ShopApp[372] <Warning>:", "ShopApp[372]<Warning>: x", "[372] <Warning>: x"]
        lines += tricky.map { Array($0.utf8) }
        lines += MutationRandom.mutations(of: lines, count: 4000, seed: 17, specials: Array("[]()<>:/ .-+0xT9Z\t_a\u{1B};m".utf8))
        return lines
    }

    static func describe(_ header: LineHeader?, _ format: String) -> String {
        guard let header else { return "none" }
        return "\(format) \(String(describing: header.time)) \(String(describing: header.process)) \(String(describing: header.pid)) "
            + "\(String(describing: header.tid)) \(header.message)"
    }

    /// The hand-written matchers and PCRE2 alone read every line of the corpus alike, one after another (the format
    /// of the line before tried first), with every format automatic and each forced.
    @Test func theFastPathReadsTheNewShapesAsPCRE2Does() throws {
        let lines = try Self.corpus()
        for choice in [LineFormatChoice.automatic] + LineFormat.builtIn.filter({ $0.pattern != nil }).map(LineFormatChoice.fixed) {
            let fast = try LineHeaderRecognizer(choice)
            let plain = try LineHeaderRecognizer(choice, fastPath: false)
            for line in lines {
                try line.withUnsafeBytes { bytes in
                    let expected = Self.describe(try plain.parse(bytes), plain.lastFormat.name)
                    #expect(Self.describe(try fast.parse(bytes), fast.lastFormat.name) == expected, "\(String(decoding: line, as: UTF8.self))")
                }
            }
        }
    }

    /// A format is left untried for a line whose first byte cannot start its header (`LineFormat.startBytes`): no
    /// line of the corpus, nor of the sample logs, that its pattern matches starts with another byte.
    @Test func startBytesLeaveOutNoMatch() throws {
        var lines = try Self.corpus()
        for name in try FileManager.default.contentsOfDirectory(atPath: Fixtures.sampleLogs.path) where name.hasSuffix(".log") {
            lines += try Data(contentsOf: URL(fileURLWithPath: Fixtures.sample(name))).split(separator: 0x0A).map(Array.init)
        }
        var matched = 0
        for format in LineFormat.builtIn where format.pattern != nil {
            let parser = try LineHeaderParser(format: format, fastPath: false)
            #expect(parser.startBytes != .all, "\(format.name)")
            for line in lines {
                try line.withUnsafeBytes { bytes in
                    let from = LineBytes.skipSpaces(bytes, from: 0)
                    guard try parser.parse(bytes, from: from) != nil else { return }
                    matched += 1
                    #expect(from < bytes.count && parser.startBytes.contains(bytes[from]), "\(format.name): \(String(decoding: line, as: UTF8.self))")
                }
            }
        }
        #expect(matched > 2000)
        #expect(LineFormat.startBytes["custom"] == nil)
        #expect(try LineHeaderParser(format: .custom("(?<message>.*)")).startBytes == .all)
    }

    /// Every fixture gives the same report, byte for byte, with PCRE2 alone as with the hand-written matchers.
    @Test(arguments: Self.shapes)
    func theFastPathChangesNoReport(_ shape: Shape) throws {
        let path = Self.path(shape.fixture)
        #expect(try analysisReport(of: path, choice: shape.choice) == (try analysisReport(of: path, choice: shape.choice, handParsers: false)))
    }

    /// A line is read as it is alone whatever format the line before it had: the hint never decides.
    @Test func theLineBeforeNeverDecides() throws {
        let lines = try Self.corpus()
        let previous = LineFormat.builtIn.flatMap(\.samples).map { Array($0.utf8) }
        let alone = try LineHeaderRecognizer(.automatic)
        let after = try LineHeaderRecognizer(.automatic)
        for line in lines {
            try line.withUnsafeBytes { bytes in
                alone.reset()
                let expected = Self.describe(try alone.parse(bytes), alone.lastFormat.name)
                for before in previous {
                    after.reset()
                    _ = try before.withUnsafeBytes { try after.parse($0) }
                    #expect(Self.describe(try after.parse(bytes), after.lastFormat.name) == expected,
                            "\(String(decoding: line, as: UTF8.self)) after \(String(decoding: before, as: UTF8.self))")
                }
            }
        }
    }

    // MARK: - Colour escapes

    static let colours: [(String, String)] = [
        ("\u{1B}[31m", "\u{1B}[0m"), ("\u{1B}[0;37m", "\u{1B}[m"), ("\u{1B}[38;5;166m", ""), ("\u{1B}[0m\u{1B}[30;49m", "\u{1B}[m"),
        ("\u{1B}[fg255,0,0;", "\u{1B}[;"), ("\u{1B}[fg214,57,30;\u{1B}[bg0,0,0;", "\u{1B}[fg;\u{1B}[bg;"), ("\u{1B}[;", ""),
        ("  \u{1B}[1;36m", "\u{1B}[0m"),
    ]

    /// Colour sequences before a line (and closing it) hide no header, for every format, automatic or forced, a
    /// user's pattern anchored at the line's start too, with the hand-written matchers as with PCRE2: the line reads
    /// as without them, its ranges moved by the opening sequences, its message ending before the closing ones.
    @Test func colourEscapesHideNoHeader() throws {
        let samples = LineFormat.builtIn.flatMap(\.samples) + ["2016-03-17 16:02:37.277 LifeCycle[2148:117099] x", "ViewController viewDidLoad()"]
        let custom = LineFormat.custom(#"^(?<time>\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d+)\S* (?<process>[^\[]+)\["#)
        let choices = [LineFormatChoice.automatic, .fixed(custom)] + LineFormat.builtIn.filter { $0.pattern != nil }.map(LineFormatChoice.fixed)
        var read = 0
        for choice in choices {
            for fastPath in [true, false] {
                let plain = try LineHeaderRecognizer(choice, fastPath: fastPath)
                let coloured = try LineHeaderRecognizer(choice, fastPath: fastPath)
                for sample in samples {
                    let bytes = Array(sample.utf8)
                    let expected = try bytes.withUnsafeBytes { try plain.parse($0) }
                    let format = plain.lastFormat.name
                    // A user's pattern is matched where the line starts: its indent is not skipped.
                    for (open, close) in Self.colours where !(choice.isCustom && open.hasPrefix(" ")) {
                        let line = Array((open + sample + close).utf8)
                        let shift = open.utf8.count
                        let header = try line.withUnsafeBytes { try coloured.parse($0) }
                        let moved = expected.map { expected in
                            var header = expected.shifted(by: shift)
                            header.message = header.message.lowerBound..<(shift + bytes.count)
                            return header
                        }
                        #expect(Self.describe(header, coloured.lastFormat.name) == Self.describe(moved, format),
                                "\(choice) \(open.debugDescription) \(sample)")
                        if header != nil { read += 1 }
                    }
                }
            }
        }
        #expect(read > 1000)
    }

    /// The colour sequences a line may start and end with, and ESC bytes that start none.
    @Test func colourSequences() {
        func ends(_ text: String) -> Int? {
            let bytes = Array(text.utf8)
            return bytes.withUnsafeBytes { ColourEscapes.sequenceEnd($0, at: 0, limit: bytes.count) }
        }
        #expect(ends("\u{1B}[31mx") == 5)
        #expect(ends("\u{1B}[mx") == 3)
        #expect(ends("\u{1B}[38;5;166mx") == 11)
        #expect(ends("\u{1B}[fg255,0,0;x") == 12)
        #expect(ends("\u{1B}[bg;x") == 5)
        #expect(ends("\u{1B}[;x") == 3)
        #expect(ends("\u{1B}[;1mx") == 5)
        for text in ["\u{1B}[2Kx", "\u{1B}[fg255,0;x", "\u{1B}[fg1234,0,0;x", "\u{1B}]0;title\u{07}", "\u{1B}x", "\u{1B}[", "\u{1B}[31",
                     "\u{1B}[" + String(repeating: "1;", count: 20) + "m"] {
            #expect(ends(text) == nil, "\(text.debugDescription)")
        }
        let line = Array("\u{1B}[1;31m\u{1B}[fg1,2,3;text\u{1B}[0m\u{1B}[;".utf8)
        line.withUnsafeBytes { bytes in
            #expect(ColourEscapes.skip(bytes, from: 0) == 17)
            #expect(ColourEscapes.trailingStart(bytes, from: 17, to: bytes.count) == 21)
        }
    }

    // MARK: - Times

    @Test func newTimeShapes() {
        let utc = Timestamp.microseconds("2024-02-09 09:14:03.118")!
        #expect(Timestamp.microseconds("2024/02/09 09:14:03:118") == utc)
        #expect(Timestamp.microseconds("2024-02-09 09:14:03:118") == utc)
        #expect(Timestamp.microseconds("2024/02/09 09:14:03.118") == utc)
        #expect(Timestamp.microseconds("2024/02-09 09:14:03.118") == nil)
        #expect(Timestamp.microseconds("2024/02/30 09:14:03:118") == nil)
        let syslog = Timestamp.microseconds("Feb  9 09:14:03")!
        #expect(Timestamp.microseconds("Feb  9 09:14:03.118204") == syslog + 118_204)
        #expect(Timestamp.microseconds("09:14:03.118")! == (9 * 3600 + 14 * 60 + 3) * 1_000_000 + 118_000)
        var reader = TimestampReader()
        let texts = ["2024/02/09 09:14:03:118", "2024/02/09 09:14:03:119", "2024-02-09 09:14:03:118", "2024/02/10 00:00:00:000",
                     "2024/02/09 09:14:03:11x", "2024/13/09 09:14:03:118", "2024/02/09T09:14:03:118", "Feb  9 09:14:03.118204",
                     "2024-02-09 09:14:03.118204+0100", "2024/02/09 09:14:03:118"]
        for text in texts + texts.reversed() {
            var copy = text
            #expect(copy.withUTF8 { reader.microseconds(UnsafeRawBufferPointer($0)) } == Timestamp.microseconds(text), "\(text)")
        }
    }

    @Test func timeFormatsReadWhatTheySay() throws {
        func micros(_ format: String, _ text: String) throws -> Int64? { try TimeFormat(format).microseconds(text) }
        let reference = Timestamp.microseconds("2024-02-09 09:14:03.118")!
        #expect(try micros("%d.%m.%Y %H:%M:%S,%f", "09.02.2024 09:14:03,118") == reference)
        #expect(try micros("%Y/%m/%d %H:%M:%S:%L", "2024/02/09 09:14:03:118") == reference)
        #expect(try micros("%F %T.%f", "2024-02-09 09:14:03.118") == reference)
        #expect(try micros("%F %T.%f", "2024-2-9 9:14:03.118") == reference)
        #expect(try micros("%F %T.%f%z", "2024-02-09 10:14:03.118+0100") == reference)
        #expect(try micros("%F %T.%f%z", "2024-02-09 10:14:03.118+01:00") == reference)
        #expect(try micros("%F %T.%f%z", "2024-02-09 04:14:03.118-05") == reference)
        #expect(try micros("%F %T.%f%z", "2024-02-09 09:14:03.118Z") == reference)
        #expect(try micros("%d %b %Y %H:%M:%S.%L", "09 feb 2024 09:14:03.118") == reference)
        #expect(try micros("%d %B %Y %H:%M:%S.%L", "09 February 2024 09:14:03.118") == reference)
        #expect(try micros("%y%m%d %H%M%S.%L", "240209 091403.118") == reference)
        #expect(try micros("%s.%f", "1707470043.118") == Timestamp.microseconds("2024-02-09 09:14:03.118Z"))
        #expect(try micros("%s", "1707470043") == Timestamp.microseconds("2024-02-09 09:14:03Z"))
        // No year: 2000, as syslog's times; no date: a time of day.
        #expect(try micros("%b %e %H:%M:%S", "Feb  9 09:14:03") == Timestamp.microseconds("Feb  9 09:14:03"))
        #expect(try micros("%b %e %H:%M:%S", "Feb 19 09:14:03") == Timestamp.microseconds("Feb 19 09:14:03"))
        #expect(try micros("%H:%M:%S.%f", "09:14:03.118204") == Timestamp.microseconds("09:14:03.118204"))
        #expect(try micros("[%H:%M:%S%%]", "[09:14:03%]") == Timestamp.microseconds("09:14:03"))
        // A 12-hour clock, the day of the year, weekday names (ctime's `Fri Feb  9 09:14:03 2024`).
        #expect(try micros("%m/%d/%Y %I:%M:%S.%L %p", "02/09/2024 09:14:03.118 AM") == reference)
        #expect(try micros("%m/%d/%Y %I:%M:%S.%L %p", "02/09/2024 9:14:03.118 a.m.") == reference)
        #expect(try micros("%m/%d/%Y %I:%M:%S %p", "02/09/2024 12:14:03 am") == Timestamp.microseconds("2024-02-09 00:14:03"))
        #expect(try micros("%m/%d/%Y %I:%M:%S %p", "02/09/2024 12:14:03 PM") == Timestamp.microseconds("2024-02-09 12:14:03"))
        #expect(try micros("%m/%d/%Y %I:%M:%S %p", "02/09/2024 09:14:03 pm") == Timestamp.microseconds("2024-02-09 21:14:03"))
        #expect(try micros("%Y.%j %T.%L", "2024.040 09:14:03.118") == reference)
        #expect(try micros("%Y.%j %T", "2024.366 09:14:03") == Timestamp.microseconds("2024-12-31 09:14:03"))
        #expect(try micros("%a %b %e %T %Y", "Fri Feb  9 09:14:03 2024") == Timestamp.microseconds("2024-02-09 09:14:03"))
        #expect(try micros("%A, %d %B %Y %T", "friday, 09 February 2024 09:14:03") == Timestamp.microseconds("2024-02-09 09:14:03"))
        for (format, text) in [("%I:%M %p", "13:14 PM"), ("%I:%M %p", "00:14 AM"), ("%I:%M %p", "09:14 XM"), ("%I:%M %p", "09:14 a.m"),
                               ("%Y.%j", "2023.366"), ("%Y.%j", "2024.000"), ("%a %T", "Fry 09:14:03")] {
            #expect(try micros(format, text) == nil, "\(format) \(text)")
        }
        // Digits below a microsecond are dropped; a fraction of more than nine digits is not read.
        #expect(try micros("%T.%f", "09:14:03.123456789") == Timestamp.microseconds("09:14:03.123456"))
        for (format, text) in [("%F %T", "2024-02-30 09:14:03"), ("%F %T", "2024-02-09 24:00:00"), ("%F %T", "2024-02-09 09:60:00"),
                               ("%F %T", "2024-02-09 09:14:03 "), ("%F %T", "2024-02-09"), ("%F %T", "2024-02-09  09:14:03x"),
                               ("%T.%L", "09:14:03.11"), ("%T.%f", "09:14:03.1234567890"), ("%b %e %T", "Fev  9 09:14:03"),
                               ("%F %T%z", "2024-02-09 09:14:03+25:00"), ("%Y", "24"), ("%s", "")] {
            #expect(try micros(format, text) == nil, "\(format) \(text)")
        }
        for bad in ["%q", "%", "plain", "%H %H", "%d %e", "%f %L", "%s %H", "%s %z", "%I:%M", "%H:%M %p", "%H %I %p", "%Y %j %m",
                    "%j %d"] {
            #expect(throws: TimeFormatError.self, "\(bad)") { _ = try TimeFormat(bad) }
        }
    }

    /// `--time-format` on the command line, through `--pattern`'s choice, and refused without a pattern with a time
    /// group to read.
    @Test func timeFormatOnTheCommandLine() throws {
        let run = try lctrace(["--format", "json", "--pattern", Self.customPattern, "--time-format", "%d.%m.%Y %H:%M:%S,%f",
                               Self.path("time-format.log")])
        #expect(run.status == 0, "\(run.stderr)")
        let report = try Self.json(run.stdout)
        let events = ((report["sessions"] as? [[String: Any]])?.first?["controllers"] as? [[String: Any]])?.first?["events"] as? [[String: Any]]
        #expect(events?.map { $0["offsetMs"] as? Double } == [307, 308, nil, 349])
        let perInput = ((report["summary"] as? [String: Any])?["perInput"] as? [[String: Any]])?.first
        #expect(perInput?["unreadTimes"] as? Int == 1)

        let lines = try lctrace(["lines", "--format", "json", "--pattern", Self.customPattern, "--time-format", "%d.%m.%Y %H:%M:%S,%f",
                                 Self.path("time-format.log")])
        #expect(lines.status == 0)
        #expect(lines.stdout.split(separator: "\n").count == 5)

        for (arguments, message) in [(["--time-format", "%H"], "--time-format reads the time group of a --pattern"),
                                     (["--pattern", "(?<process>x)", "--time-format", "%H"], "the pattern has no time group"),
                                     (["--pattern", Self.customPattern, "--time-format", "%Q"], "%Q in %Q is not a directive")] {
            let refused = try lctrace(arguments + [Self.path("time-format.log")])
            #expect(refused.status != 0 && refused.status != 1, "\(arguments)")
            #expect(refused.stderr.contains(message), "\(refused.stderr)")
        }
    }

    // MARK: - Sections and jobs

    /// A generated log rewritten as CocoaLumberjack's file logger writes it (`2016/03/17 16:02:37:277  message`):
    /// no process, a new time shape.
    static func lumberjackLog(bytes: String, seed: Int) throws -> String {
        let classic = try String(contentsOfFile: try generatedLog(bytes: bytes, seed: seed, format: "nslog-classic"), encoding: .utf8)
        var text = ""
        for line in classic.split(separator: "\n", omittingEmptySubsequences: false) where !line.isEmpty {
            let bytes = Array(line.utf8)
            guard bytes.count > 24, let close = bytes.firstIndex(of: UInt8(ascii: "]")) else {
                text += line + "\n"
                continue
            }
            var time = Array(bytes[0..<23])
            time[4] = UInt8(ascii: "/")
            time[7] = UInt8(ascii: "/")
            time[19] = UInt8(ascii: ":")
            let message = bytes[(close + 1)...].drop { $0 == 0x20 }
            text += String(decoding: time, as: UTF8.self) + "  " + String(decoding: message, as: UTF8.self) + "\n"
        }
        return try Fixtures.temporaryFile(text, name: "lumberjack-\(seed).log")
    }

    /// One file in a new shape, cut into sections at its launches and read on two threads: the same report, byte
    /// for byte, in every format, as on one; and through the command line with `--jobs 1` and `--jobs 2`.
    @Test func jobsDoNotChangeTheReportOfANewShape() throws {
        let small = try Self.lumberjackLog(bytes: "300K", seed: 51)
        let formats = try Self.readings(small).compactMap(\.format)
        #expect(Set(formats) == ["lumberjack-file"])
        for format in ["text", "json", "ndjson"] {
            let one = try analysisReport(of: small, jobs: 1, format: format)
            #expect(one == (try analysisReport(of: small, jobs: 2, format: format)), "\(format)")
            #expect(one.count > 50_000)
        }
        let large = try Self.lumberjackLog(bytes: "1500K", seed: 52)
        for format in ["text", "json"] {
            let one = try lctrace(["--format", format, "--jobs", "1", large])
            let two = try lctrace(["--format", format, "--jobs", "2", large])
            #expect(one.status == 0, "\(one.stderr)")
            #expect(one.stdout == two.stdout, "\(format)")
            #expect(one.stdout.count > 100_000)
        }
        let report = try Self.json(try lctrace(["--format", "json", "--no-events", large]).stdout)
        let summary = try #require(report["summary"] as? [String: Any])
        #expect((summary["perInput"] as? [[String: Any]])?.first?["unreadTimes"] as? Int == 0)
        #expect((summary["sessions"] as? Int ?? 0) > 10)
    }
}

extension LineFormatChoice {
    var isCustom: Bool {
        if case .fixed(let format) = self { return !format.isAnchoredBuiltIn }
        return false
    }
}
