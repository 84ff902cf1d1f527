import Foundation
import Testing
@testable import LCTraceKit
@testable import lctrace_loggen

/// Golden files: the exact text and JSON reports for two sample logs. `make update-golden` rewrites the ones that
/// differ (and fails); read the diff before committing.
@Suite struct RenderingTests {
    static let goldenDirectory = Fixtures.repositoryRoot.appendingPathComponent("Tests/LCTraceKitTests/Golden")

    func render(_ sample: String, json: Bool, events: Bool = true) throws -> String {
        let output = Output()
        let sink: any Reporter = json
            ? JSONReporter(output: output, includeEvents: events)
            : TextReporter(output: output, style: TextStyle(enabled: false), includeEvents: events)
        var options = AnalysisOptions()
        options.keepEvents = events
        let analyzer = try Analyzer(options: options, reporter: sink)
        // Named relative to the repository so the golden files do not depend on where it is checked out.
        let fd = try InputSource.file(Fixtures.sample(sample)).openDescriptor()
        defer { _ = close(fd) }
        try analyzer.analyze(fileDescriptor: fd, name: "SampleLogs/\(sample)")
        analyzer.finish()
        return output.text
    }

    /// Holds `actual` against the golden file `name`. With LCTRACE_UPDATE_GOLDEN=1 (`make update-golden`) a golden
    /// file that differs is rewritten instead, and the test fails all the same: an update is never a passing run,
    /// and the diff is there to be read before the next run compares again.
    func assertGolden(_ actual: String, _ name: String) throws {
        let url = Self.goldenDirectory.appendingPathComponent(name)
        let expected = try? String(contentsOf: url, encoding: .utf8)
        if ProcessInfo.processInfo.environment["LCTRACE_UPDATE_GOLDEN"] == "1" {
            if actual != expected {
                try actual.write(to: url, atomically: true, encoding: .utf8)
                Issue.record("rewrote \(name): read `git diff` of it, then run the tests without LCTRACE_UPDATE_GOLDEN")
            }
            return
        }
        #expect(expected != nil, "no golden file \(name) (make update-golden writes it)")
        #expect(actual == expected, "\(name) differs from its golden file")
    }

    @Test func jsonNumbers() {
        let value = JSONValue.array([.int(0), .int(-42), .int(Int.max), .double(510), .double(-1.5), .double(41.4306), .double(.nan)])
        #expect(value.compact() == "[0,-42,9223372036854775807,510,-1.5,41.431,null]")
    }

    @Test func textReport() throws {
        try assertGolden(try render("seed-push-pop.log", json: false), "seed-push-pop.txt")
        try assertGolden(try render("transition-order.log", json: false), "transition-order.txt")
    }

    @Test func jsonReport() throws {
        try assertGolden(try render("seed-push-pop.log", json: true), "seed-push-pop.json")
        try assertGolden(try render("transition-order.log", json: true, events: false), "transition-order.no-events.json")
    }

    @Test func jsonIsValidAndHasTheDocumentedShape() throws {
        let text = try render("transition-order.log", json: true)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        #expect(object["schemaVersion"] as? Int == 1)
        let summary = try #require(object["summary"] as? [String: Any])
        #expect((summary["findings"] as? [String: Int])?["warning"] == 1)
        let finding = try #require((object["findings"] as? [[String: Any]])?.first)
        #expect(finding["rule"] as? String == "transition-order")
        #expect(finding["line"] as? Int == 8)
        let session = try #require((object["sessions"] as? [[String: Any]])?.first)
        let transitions = try #require(session["transitions"] as? [[String: Any]])
        #expect(transitions.map { $0["kind"] as? String } == ["appear", "push"])
        #expect(transitions[1]["declared"] as? String == "push")
        let controllers = try #require(session["controllers"] as? [[String: Any]])
        #expect((controllers[0]["events"] as? [[String: Any]])?.first?["callback"] as? String == "viewDidLoad")
    }

    @Test func keyOrderIsStable() throws {
        let text = try render("seed-push-pop.log", json: true, events: false)
        let keys = ["\"schemaVersion\"", "\"sessions\"", "\"findings\"", "\"summary\""]
        let positions = keys.map { text.range(of: $0)?.lowerBound }
        #expect(positions.allSatisfy { $0 != nil })
        #expect(positions.compactMap { $0 } == positions.compactMap { $0 }.sorted())
    }

    /// A session rendered ahead of time (on a parallel run's worker) and written later under another number reads
    /// exactly as the session rendered with that number, in both JSON outputs.
    @Test func sessionRenderedAheadTakesItsNumberLater() throws {
        let sink = RecordingSink()
        let analyzer = try Analyzer(options: AnalysisOptions(), reporter: sink)
        try analyzer.analyze(.file(Fixtures.sample("pop-to-root.log")))
        analyzer.finish()
        var session = try #require(sink.sessions.first)
        #expect(session.index == 1)
        // Each renderer, and the text its session shows the new number in.
        let renderers: [((Output) -> any SessionFormatting, String)] = [
            ({ JSONReporter(output: $0, includeEvents: true) }, "\"index\": 12,"),
            ({ NDJSONReporter(output: $0, includeEvents: true, flushEachLine: false) }, "\"index\":12,"),
            ({ TextReporter(output: $0, style: TextStyle(enabled: false), includeEvents: true) }, "Session 12 · "),
            ({ TextReporter(output: $0, style: TextStyle(enabled: true), includeEvents: false) }, "\u{1B}[1mSession 12 · "),
        ]
        for (makeRenderer, numbered) in renderers {
            let ahead = Output()
            let aheadSink = makeRenderer(ahead)
            let text = ByteBuffer()
            text.append("earlier items" as StaticString)
            let item = aheadSink.sessionFormatter(session, into: text)
            aheadSink.write(item, number: 12)

            session.index = 12
            let direct = Output()
            makeRenderer(direct).sessionClosed(session)
            session.index = 1
            #expect(ahead.text == direct.text)
            #expect(ahead.text.contains(numbered))
            #expect(!ahead.text.contains("earlier items"))
        }
    }

    /// A session's number may be anywhere in what a formatter writes: the digits after the first marker are cut out
    /// and written again, whatever comes before or after them.
    @Test func aSessionNumberIsPatchedWhereverTheFormatWritesIt() throws {
        var session = try #require(try analyze(paths: [Fixtures.sample("pop-to-root.log")]).sessions.first)
        session.index = 7
        let formatter = SessionFormatter(numberAfter: "session ") { session, text in
            text.append("header line, 2 inputs\nsession \(session.index) of app.log, 9 lines\n")
        }
        let text = ByteBuffer()
        text.append("earlier")
        let item = formatter(session, into: text)
        let output = Output()
        item.write(number: 1234, to: output)
        #expect(output.text == "header line, 2 inputs\nsession 1234 of app.log, 9 lines\n")
        session.index = 1234
        let direct = ByteBuffer()
        formatter.render(session, direct)
        #expect(String(decoding: direct.bytes, as: UTF8.self) == output.text)
    }

    @Test func jsonEscaping() {
        let value = JSONValue.object([("a", .string("quote\" slash/ \\ tab\t nl\n \u{01}")), ("n", .double(510.0)), ("f", .double(0.1234))])
        #expect(value.compact() == #"{"a":"quote\" slash/ \\ tab\t nl\n \u0001","n":510,"f":0.123}"#)
    }

    /// Members are written with their names in one write: every kind of value, escaped text, and both layouts.
    @Test func membersOfEveryKind() {
        func written(indent: Int?) -> String {
            var writer = JSONWriter(indent: indent, capacity: 16)
            writer.object { w in
                w.member("int", -1234567890123)
                w.member("zero", 0)
                w.member("none", nil as Int?)
                w.member("whole", 510.0 as Double?)
                w.member("fraction", 0.1234 as Double?)
                w.member("missing", nil as Double?)
                w.member("plain", "HomeViewController")
                w.member("escaped", "tab\there \"quoted\" back\\slash")
                w.member("short", "a\u{01}")
                w.member("empty", "")
                w.member("absent", nil as String?)
                w.member("time", Array("2024-02-09 08:14:39.160".utf8).withUnsafeBytes { TimeText($0) } as TimeText?)
                w.member("noTime", nil as TimeText?)
            }
            return String(decoding: writer.bytes, as: UTF8.self)
        }
        let members = [#""int": -1234567890123"#, #""zero": 0"#, #""none": null"#, #""whole": 510"#, #""fraction": 0.123"#,
                       #""missing": null"#, #""plain": "HomeViewController""#, #""escaped": "tab\there \"quoted\" back\\slash""#,
                       #""short": "a\u0001""#, #""empty": """#, #""absent": null"#, #""time": "2024-02-09 08:14:39.160""#,
                       #""noTime": null"#]
        #expect(written(indent: nil) == "{" + members.map { $0.replacingOccurrences(of: "\": ", with: "\":") }.joined(separator: ",") + "}")
        #expect(written(indent: 0) == "{\n" + members.map { "  " + $0 }.joined(separator: ",\n") + "\n}")
    }

    /// An event's JSON Lines tail written in one go is the JSON writer's, byte for byte; an event it does not take
    /// (text to escape, a fractional offset) leaves the text as it was.
    @Test func plainEventTailsAreTheWritersBytes() {
        let time = Array("2024-02-09 08:14:39.160".utf8).withUnsafeBytes { TimeText($0) }
        let longTime = Array(String(repeating: "2024-02-09 08:14:39.160 ", count: 3).utf8).withUnsafeBytes { TimeText($0) }
        let events = [
            (EventRecord(line: 12, time: time, offsetMs: 1234, callback: .viewDidLoad, spelled: "viewDidLoad"), "HomeViewController", "app.log"),
            (EventRecord(line: 1, time: nil, offsetMs: nil, callback: .viewWillAppear, spelled: "viewWillAppear(_:)"), "A", "-"),
            (EventRecord(line: 9_999_999, time: longTime, offsetMs: -5, callback: .dealloc, spelled: "deinit"), "B@0x7f8a#2", "<stdin>"),
            (EventRecord(line: 3, time: time, offsetMs: 0, callback: .viewDidAppear, spelled: "viewDidAppear:"), "", "x"),
            (EventRecord(line: 3, time: time, offsetMs: 0.5, callback: .viewDidAppear, spelled: "viewDidAppear:"), "A", "x"),
            (EventRecord(line: 3, time: time, offsetMs: 2, callback: .viewDidAppear, spelled: "viewDidAppear:"), "A", "a \"quoted\" name"),
            (EventRecord(line: 3, time: time, offsetMs: 2, callback: .viewDidAppear, spelled: "viewDidAppear:"), "tab\there", "x"),
        ]
        let taken = events.filter { event, subject, input in
            RenderingTests.plainTailIsTheWriters("\(event)",
                                                 writer: { LiveItemLines.eventTail(event, subject: subject, input: input, into: $0) },
                                                 plain: { text in
                                                     LiveEvent.of(event) { LiveItemLines.appendPlainEventTail($0, subject: subject, input: input, to: text) }
                                                 })
        }
        #expect(taken.count == 4)
    }

    /// Writes a tail after "before" both ways: by the JSON writer (`writer`, returning where it wrote), and in one go
    /// (`plain`, returning whether it took the item). Expects the same bytes when it did, and "before" alone when it
    /// did not; returns whether it did.
    static func plainTailIsTheWriters(_ item: String, writer: (ByteBuffer) -> Range<Int>, plain: (ByteBuffer) -> Bool,
                                      sourceLocation: SourceLocation = #_sourceLocation) -> Bool {
        let general = ByteBuffer()
        general.append("before" as StaticString)
        let range = writer(general)
        let fast = ByteBuffer(capacity: 16)
        fast.append("before" as StaticString)
        guard plain(fast) else {
            #expect(fast.array == Array("before".utf8), "\(item)", sourceLocation: sourceLocation)
            return false
        }
        #expect(fast.array == general.array, "\(item)", sourceLocation: sourceLocation)
        #expect(range.lowerBound == 6, sourceLocation: sourceLocation)
        return true
    }

    /// A transition's JSON Lines tail written in one go is the JSON writer's, byte for byte; a transition it does not
    /// take (text to escape, a fractional duration) leaves the text as it was.
    @Test func plainTransitionTailsAreTheWritersBytes() {
        let time = Array("2024-02-09 08:14:39.160".utf8).withUnsafeBytes { TimeText($0) }
        func transition(_ kind: TransitionKind, declared: TransitionKind? = nil, declaredLine: Int? = nil, from: String?, to: String?,
                        controllers: [String], time: TimeText? = time, durationMs: Double?) -> TransitionReport {
            TransitionReport(kind: kind, declared: declared, declaredLine: declaredLine, from: from, to: to, controllers: controllers,
                             startLine: 11, endLine: 1_234_567, startTime: time, durationMs: durationMs)
        }
        let transitions = [
            (transition(.push, from: "HomeViewController", to: "DetailViewController", controllers: ["HomeViewController", "DetailViewController"],
                        durationMs: 510), "app.log"),
            (transition(.appear, from: nil, to: "A", controllers: ["A"], time: nil, durationMs: nil), "-"),
            (transition(.pop, declared: .pop, declaredLine: 9, from: "B@0x7f8a#2", to: "A", controllers: ["B@0x7f8a#2", "A"],
                        durationMs: 0), "<stdin>"),
            (transition(.compound, from: nil, to: nil, controllers: [], durationMs: -3), "x"),
            (transition(.compound, from: nil, to: nil, controllers: ["A", "B", "C"], durationMs: 12), ""),
            (transition(.push, from: "A", to: "B", controllers: ["A", "B"], durationMs: 0.5), "x"),
            (transition(.push, from: "A", to: "B", controllers: ["A", "B"], durationMs: 2), "a \"quoted\" name"),
            (transition(.push, from: "A", to: "tab\there", controllers: ["A", "tab\there"], durationMs: 2), "x"),
            (transition(.push, from: "A", to: "B", controllers: ["A", "é"], durationMs: 2), "x"),
        ]
        let taken = transitions.filter { transition, input in
            RenderingTests.plainTailIsTheWriters("\(transition)",
                                                 writer: { LiveItemLines.transitionTail(transition, input: input, into: $0) },
                                                 plain: { LiveItemLines.appendPlainTransitionTail(transition, input: input, to: $0) })
        }
        #expect(taken.count == 5)
    }

    /// A run of events and transitions rendered ahead is written as each of them one by one, with its session number
    /// moved by the offset: by the protocol's default (a reporter of the library's user) and by the JSON Lines reporter.
    @Test func renderedRunsAreWrittenAsEachAlone() {
        final class Written: StreamingReporter {
            var items: [(text: String, session: Int)] = []
            func finding(_ finding: Finding) {}
            func finish(_ summary: RunSummary) {}
            func event(_ event: EventRecord, subject: String, session: Int, input: String) {}
            func transition(_ transition: TransitionReport, session: Int, input: String) {}
            var itemFormatter: LiveItemLines { LiveItemLines(includeEvents: true) }
            func write(_ item: RenderedItem, session: Int) {
                items.append((String(decoding: UnsafeRawBufferPointer(rebasing: item.text.bytes[item.after]), as: UTF8.self), session))
            }
        }
        let text = ByteBuffer()
        text.append(",\"a\":1}\n,\"b\":2}\n,\"c\":3}\n" as StaticString)
        let run = [RenderedLiveItem(item: RenderedItem(prefix: #"{"type":"event","session":"#, text: text, tail: 0..<8), session: 1),
                   RenderedLiveItem(item: RenderedItem(prefix: #"{"type":"event","session":"#, text: text, tail: 8..<16), session: 1),
                   RenderedLiveItem(item: RenderedItem(prefix: #"{"type":"transition","session":"#, text: text, tail: 16..<24), session: 2)]
        let written = Written()
        written.write(run[1...], sessionOffset: 40)
        #expect(written.items.map(\.text) == [#","b":2}"# + "\n", #","c":3}"# + "\n"])
        #expect(written.items.map(\.session) == [41, 42])

        let together = Output(), alone = Output()
        NDJSONReporter(output: together, includeEvents: true, flushEachLine: false).write(run[...], sessionOffset: 40)
        let one = NDJSONReporter(output: alone, includeEvents: true, flushEachLine: false)
        for rendered in run { one.write(rendered.item, session: rendered.session + 40) }
        together.flush()
        alone.flush()
        #expect(together.text == alone.text)
        // After the stream's first line, which the reporter writes when it is made.
        let lines: [String] = [#"{"type":"event","session":41,"a":1}"#, #"{"type":"event","session":41,"b":2}"#,
                               #"{"type":"transition","session":42,"c":3}"#]
        let expected = "}\n" + lines.joined(separator: "\n") + "\n"
        #expect(together.text.hasSuffix(expected))
    }

    /// Measures are written as integers when they round to one at three decimals: the shortcut for values that are
    /// whole already gives what the rounding gives, up to and past where it stops applying.
    @Test func wholeMillisecondsAreTheRoundedValue() {
        func rounded(_ value: Double) -> Int64? {
            guard value.isFinite else { return nil }
            let rounded = (value * 1000).rounded() / 1000
            return rounded == rounded.rounded() && abs(rounded) < 1e15 ? Int64(rounded) : nil
        }
        var values: [Double] = [0, -0.0, 1, -1, 0.5, 765, 765.432, 1234.0004, 1234.0005, 0.0004, -0.0006, 2.9999,
                                .infinity, -.infinity, .nan, 1e15, -1e15, 1e16]
        for exponent in 0...16 {
            let power = pow(10, Double(exponent))
            values += [power, power - 1, power + 1, -power, power + 0.25, power.nextUp, power.nextDown]
        }
        for value in values {
            #expect(JSONWriter.wholeNumber(value) == rounded(value), "\(value)")
        }
    }

    /// The word-at-a-time copy and escape check against a byte-by-byte check: every length up to 24, every
    /// position, every byte that needs escaping or checking (beyond ASCII: a C1 control, or not UTF-8) and a set that
    /// does not (including the bytes either side of them). Plain text is written quoted after what the buffer held;
    /// other text leaves the buffer as it was.
    @Test func plainTextIsCopiedQuotedAndEveryByteThatNeedsEscapingIsFound() {
        func written(_ text: [UInt8]) -> (plain: Bool, bytes: [UInt8]) {
            let buffer = ByteBuffer(capacity: 16)
            buffer.append("before" as StaticString)
            let plain = text.withUnsafeBytes { JSONWriter.appendQuotedIfPlain($0, to: buffer) }
            return (plain, buffer.array)
        }
        let special: [UInt8] = Array(0x00..<0x20) + [0x22, 0x5C, 0x80, 0x9B, 0xA2, 0xC2, 0xC3, 0xDC, 0xE2, 0xFF]
        let plain: [UInt8] = [0x20, 0x21, 0x23, 0x2F, 0x5B, 0x5D, 0x61, 0x7E, 0x7F]
        let before = Array("before".utf8)
        for length in 0...24 {
            for filler in plain {
                let safe = [UInt8](repeating: filler, count: length)
                let result = written(safe)
                #expect(result.plain && result.bytes == before + [0x22] + safe + [0x22], "length \(length), filler \(filler)")
                for position in 0..<length {
                    for byte in special {
                        var text = safe
                        text[position] = byte
                        let result = written(text)
                        #expect(!result.plain && result.bytes == before, "length \(length), byte \(byte) at \(position)")
                    }
                }
            }
        }
    }

    /// Decimal digits written two at a time read as Swift's own: every number below 100 000, every power of ten and
    /// its neighbours, every power of two and its neighbours (where the length guessed from the bit length changes),
    /// and the largest value.
    @Test func decimalDigitsMatchSwiftsOwn() {
        var values: [UInt64] = Array(0..<100_000) + [UInt64.max, UInt64.max - 1]
        var power: UInt64 = 1
        for _ in 0..<19 {
            power *= 10
            values += [power - 1, power, power + 1]
        }
        for shift in 1..<64 {
            let power = UInt64(1) << shift
            values += [power - 1, power, power + 1]
        }
        for value in values {
            let text = ByteBuffer()
            text.append(UInt8(ascii: "x"))
            text.write(atMost: ByteBuffer.maxDecimalDigits) { ByteBuffer.writeDecimal(value, at: $0) }
            let written = String(decoding: UnsafeRawBufferPointer(rebasing: text.bytes[1...]), as: UTF8.self)
            if written != String(value) {
                Issue.record("\(value) written as \(written)")
                return
            }
        }
    }

    /// The text report's times and durations, written as bytes, are the text of their String definition, for whole
    /// and fractional milliseconds, halves at every place, negative values and zeros, and values too large for the
    /// byte path.
    @Test func textDurationsMatchTheirStringDefinition() {
        var values: [Double] = [0, -0.0, 0.04, -0.04, 0.05, -0.05, 0.5, -0.5, 999.94, 999.95, 999.96, 999.9996, 1000,
                                -1000, 1e11, 1e12 - 1, 1e12, 1e13, 1e15 + 0.5, 1e16, 1e20, -1e20, .nan, .infinity, -.infinity,
                                .ulpOfOne, .leastNonzeroMagnitude, .greatestFiniteMagnitude]
        var generator = SeededGenerator(state: 262)
        for scale in [1.0, 10, 1000, 1e6, 1e9, 1e12, 1e15] {
            for _ in 0..<3000 {
                values.append(Double.random(in: -scale...scale, using: &generator))
                // Whole microseconds, as logged times give, and halves of the places the report rounds to.
                let micros = Double(Int64.random(in: -Int64(scale * 1000)...Int64(scale * 1000), using: &generator))
                values += [micros / 1000, (micros + 0.5) / 1000, (micros + 0.5) / 10]
            }
        }
        for ms in values {
            for (name, bytes, string) in [("seconds", { (w: TextWriter) in w.seconds(ms) }, TextFormat.seconds(ms)),
                                          ("duration", { (w: TextWriter) in w.duration(ms) }, TextFormat.duration(ms))] {
                let text = ByteBuffer()
                bytes(TextWriter(buffer: text, style: TextStyle(enabled: false)))
                let written = String(decoding: text.bytes, as: UTF8.self)
                if written != string {
                    Issue.record("\(name)(\(ms)) written as \(written), defined as \(string)")
                    return
                }
            }
        }
    }

    @Test func leftPaddingInsertsSpacesBeforeWhatWasWritten() {
        let text = ByteBuffer(capacity: 16)
        let w = TextWriter(buffer: text, style: TextStyle(enabled: false))
        w.write("ab")
        w.leftPadded(to: 10) { w.write("+1.5 s") }
        w.leftPadded(to: 3) { w.write("long") }
        w.leftPadded(to: 2) {}
        w.write("|")
        #expect(String(decoding: text.bytes, as: UTF8.self) == "ab    +1.5 slong  |")
    }
}
