import Foundation
import Testing
import PCRE2
@testable import LCTraceKit

/// Each event carries the process, pid and thread of its own header, though the reader reuses what it read for the
/// event before when the header's tail is the same (`IDReader`, `HeaderTail.stamp`).
@Suite struct EventIDTests {
    /// The events of a log, with the ids the reader gave them.
    final class Collector: EventReceiver {
        let names = NameTable()
        var events: [(line: Int, process: String?, pid: Int?, thread: String?)] = []

        func take(_ event: consuming Event) -> Bool {
            events.append((event.line, event.process.map { names[$0] }, event.pid, event.thread?.description))
            return true
        }

        static func read(_ text: String, fastPath: Bool = true) throws -> [(line: Int, process: String?, pid: Int?, thread: String?)] {
            let collector = Collector()
            let matchers = MatcherChoice(fastPath: fastPath)
            let reader = EventReader(name: "ids.log", recognizer: try LineHeaderRecognizer(.automatic, limits: PCRE2Limits(), matchers: matchers),
                                     messageParser: MessageParser(limits: PCRE2Limits(), matchers: matchers, names: collector.names),
                                     forcedFormat: nil, firstLine: 1, observer: nil, receiver: collector)
            let fd = try InputSource.file(try Fixtures.temporaryFile(text)).openDescriptor()
            defer { close(fd) }
            try reader.read(.descriptor(fd, range: nil), maxLineBytes: LineReader.defaultMaxLineBytes, progress: nil)
            return collector.events
        }
    }

    static func expectSameAsExact(_ text: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let fast = try Collector.read(text)
        let exact = try Collector.read(text, fastPath: false)
        #expect(fast.map { "\($0)" } == exact.map { "\($0)" }, sourceLocation: sourceLocation)
    }

    @Test func eachEventHasItsOwnHeadersIDs() throws {
        let time = "2024-02-09 08:14:39.160"
        let lines = [
            "\(time) ShopApp[1001:37048] Home >>>> viewDidLoad",
            "\(time) ShopApp[1001:37048] Home >>>> viewWillAppear:",
            "\(time) Other[2002:5] ordinary logging in between",
            "\(time) ShopApp[1001:37048] Home >>>> viewDidAppear:",
            "\(time) ShopApp[1001:99] Home >>>> viewWillDisappear:",
            // Two records on one line (a lost newline): the second's header is read before the first is handed on.
            "\(time) ShopApp[1001:37048] A >>>> viewWillAppear:\(time) Extension[3003:7] B >>>> viewDidLoad",
            "\(time) Extension[3003:7] B >>>> viewWillAppear:",
            "\(time) ShopApp[1001:37048] C >>>> viewDidLoad",
        ]
        let events = try Collector.read(lines.joined(separator: "\n") + "\n")
        #expect(events.map(\.line) == [1, 2, 4, 5, 6, 6, 7, 8])
        #expect(events.map(\.process) == ["ShopApp", "ShopApp", "ShopApp", "ShopApp", "ShopApp", "Extension", "Extension", "ShopApp"])
        #expect(events.map(\.pid) == [1001, 1001, 1001, 1001, 1001, 3003, 3003, 1001])
        #expect(events.map(\.thread) == ["37048", "37048", "37048", "99", "37048", "7", "7", "37048"])
        try EventIDTests.expectSameAsExact(lines.joined(separator: "\n") + "\n")
    }

    /// Two processes whose ids are written the same: the tail differs, the bytes from the pid to the tid do not, and
    /// the process is read again.
    @Test func theSameIDsInAnotherProcess() throws {
        let time = "2024-02-09 08:14:39.160"
        let text = ["\(time) ShopApp[1:2] A >>>> viewDidLoad", "\(time) Widget[1:2] B >>>> viewDidLoad",
                    "\(time) Widget[1:2] B >>>> viewWillAppear:", "\(time) ShopApp[1:2] A >>>> viewWillAppear:"]
            .joined(separator: "\n") + "\n"
        let events = try Collector.read(text)
        #expect(events.map(\.process) == ["ShopApp", "Widget", "Widget", "ShopApp"])
        #expect(events.map(\.pid) == [1, 1, 1, 1])
        #expect(events.map(\.thread) == ["2", "2", "2", "2"])
        try EventIDTests.expectSameAsExact(text)
    }

    /// A whole-device log: processes take turns line by line, so that the remembered tail rests (and has no stamp) for
    /// lines at a time, between runs of one process's lines.
    @Test func idsThroughTailsThatRest() throws {
        var lines: [String] = []
        for n in 0..<400 {
            let time = String(format: "2024-02-09 08:14:%02d.%03d", n / 1000, n % 1000)
            if n % 50 < 20 {
                lines.append("\(time) Df ShopApp[1001:\(n % 3 == 0 ? "1e4a1" : "37048")] [s:c] V\(n % 3) >>>> viewDidLoad")
            } else {
                lines.append("\(time) Df daemon\(n % 7)[\(200 + n % 7):\(n % 5)] [s:c] V\(n % 2) >>>> viewDidLoad")
            }
        }
        let text = lines.joined(separator: "\n") + "\n"
        let events = try Collector.read(text)
        #expect(events.count == 400)
        for (n, event) in events.enumerated() {
            if n % 50 < 20 {
                #expect(event.pid == 1001 && event.process == "ShopApp" && event.thread == (n % 3 == 0 ? "0x1e4a1" : "37048"), "line \(n + 1)")
            } else {
                #expect(event.pid == 200 + n % 7 && event.process == "daemon\(n % 7)" && event.thread == "\(n % 5)", "line \(n + 1)")
            }
        }
        try EventIDTests.expectSameAsExact(text)
    }
}
