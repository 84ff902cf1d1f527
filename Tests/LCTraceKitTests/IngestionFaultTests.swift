import Foundation
import Testing
@testable import LCTraceKit

/// Inputs damaged or changed while they are read: a `log show --style json` entry longer than the line-length cap,
/// gzip data padded with zero bytes or followed by other bytes, a followed file truncated and written anew.
@Suite struct IngestionFaultTests {
    // MARK: log show --style json

    /// One pretty-printed entry of `log show --style json` (without the `[{`, `},{` or `}]` around it), its message
    /// given as JSON string text (escapes written out).
    static func jsonEntry(messageText: String, second: Int) -> String {
        """
          "traceID" : 41735490584461316,
          "eventMessage" : "\(messageText)",
          "eventType" : "logEvent",
          "processImagePath" : "/private/var/containers/Bundle/Application/ShopApp.app/ShopApp",
          "processID" : 4410,
          "threadID" : 7823,
          "timestamp" : "2024-02-09 09:14:\(second + 10).118204+0100"

        """
    }

    /// The entries as `log show --style json` prints them: `[{`, an entry, `},{`, …, `}]`.
    static func jsonArray(_ entries: [String]) -> String {
        "[{\n" + entries.joined(separator: "},{\n") + "}]\n"
    }

    /// Lifecycle messages around the long entry, one event each.
    static let messages = [
        "HomeViewController viewDidLoad()", "HomeViewController viewWillAppear(_:)", "HomeViewController viewDidAppear(_:)",
        "HomeViewController pushViewController(_:animated:)", "HomeViewController viewWillDisappear(_:)",
        "DetailViewController viewDidLoad()", "DetailViewController viewWillAppear(_:)", "HomeViewController viewDidDisappear(_:)",
        "DetailViewController viewDidAppear(_:)",
    ]

    /// Checks that every entry of `text` was read (the long one with its line cut), `lifecycleEntries` of them as
    /// lifecycle events, and that every line is read or counted as skipped.
    static func expectEveryEntryRead(_ text: String, entries: Int, lifecycleEntries: Int, cutLines: Int = 1,
                                     comment: Comment? = nil) throws {
        let result = try analyze(text: text)
        let input = try #require(result.inputs.first)
        #expect(input.format == "log-json", comment)
        #expect(input.truncatedLines == cutLines, comment)
        // Each entry is read at the line that closes it; its other lines are JSON structure.
        #expect(input.parsedLines == entries, comment)
        #expect(input.skipped[.jsonStructure] == input.lines - entries, comment)
        #expect(input.lines == input.parsedLines + input.skippedLines, comment)
        #expect(input.lines == text.split(separator: "\n").count, comment)
        #expect(input.lifecycleLines == lifecycleEntries, comment)
        #expect(input.unreadLines == 0, comment)
        #expect(result.summary?.events == lifecycleEntries, comment)
        let sessions = result.sessions
        #expect(sessions.count == 1, comment)
        #expect(sessions.first?.pid == 4410, comment)
        #expect(sessions.first?.controllers.map(\.className) == ["HomeViewController", "DetailViewController"], comment)
        #expect(sessions.first?.transitions.map(\.kind.rawValue) == ["appear", "push"], comment)
    }

    /// Entry 2's message is 100 KiB: its line is cut at 64 KiB and counted as cut, the entry is read with its message
    /// cut short, and every later entry is read.
    @Test func aJSONEntryLongerThanTheLineCapLosesNoLaterEntry() throws {
        let long = "Payload: " + String(repeating: "x", count: 100 << 10)
        var entries = Self.messages.enumerated().map { Self.jsonEntry(messageText: $1, second: $0) }
        entries.insert(Self.jsonEntry(messageText: long, second: 0), at: 1)
        try Self.expectEveryEntryRead(Self.jsonArray(entries), entries: entries.count, lifecycleEntries: Self.messages.count)
    }

    /// A long message that is a lifecycle callback with a payload is read as its event, whatever the cut falls in: a
    /// character of several UTF-8 bytes, an escape sequence (`\u00e9`, `\\`), a surrogate pair (`\ud83d\ude00`).
    @Test(arguments: ["é", "\\u00e9", "\\ud83d\\ude00", "\\\\", "😀"])
    func aCutJSONStringIsClosedWhereverTheCutFalls(filler: String) throws {
        for shift in 0..<12 {
            let long = "DetailViewController viewDidLoad() " + String(repeating: "-", count: shift)
                + String(repeating: filler, count: (100 << 10) / filler.utf8.count)
            var entries = Self.messages.enumerated().map { Self.jsonEntry(messageText: $1, second: $0) }
            // In place of the DetailViewController viewDidLoad() message.
            entries[5] = Self.jsonEntry(messageText: long, second: 5)
            try Self.expectEveryEntryRead(Self.jsonArray(entries), entries: entries.count, lifecycleEntries: Self.messages.count,
                                          comment: "filler \(filler), shift \(shift)")
        }
    }

    /// An object of the array that is not read as an entry (a string broken by a lost end of line) has its lines read
    /// as ordinary lines, and the entries after it are still read: the next one starts at its `},{`.
    @Test func anObjectThatIsNotReadLosesNoLaterEntry() throws {
        var entries = Self.messages.enumerated().map { Self.jsonEntry(messageText: $1, second: $0) }
        entries.insert(Self.jsonEntry(messageText: "a message cut short by a lost end of line\n", second: 0), at: 1)
        let text = Self.jsonArray(entries)
        let result = try analyze(text: text)
        let input = try #require(result.inputs.first)
        #expect(result.summary?.events == Self.messages.count)
        #expect(result.sessions.first?.controllers.map(\.className) == ["HomeViewController", "DetailViewController"])
        #expect(input.lines == input.parsedLines + input.skippedLines)
        #expect(input.lines == text.split(separator: "\n", omittingEmptySubsequences: false).count - 1)
    }

    // MARK: gzip

    /// `path` compressed by the `gzip` tool.
    static func gzip(_ path: String) throws -> [UInt8] {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["gzip", "-c", "-n", path]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        try #require(process.terminationStatus == 0)
        return [UInt8](data)
    }

    /// The lines a line reader hands out from `path`, read in small chunks.
    static func lines(of path: String) throws -> [String] {
        let fd = try InputSource.file(path).openDescriptor()
        defer { FileDescriptorIO.close(fd) }
        var lines: [String] = []
        try LineReader(fileDescriptor: fd, chunkBytes: 16).forEachLine { line, _ in lines.append(String(decoding: line, as: UTF8.self)) }
        return lines
    }

    /// `lctrace` on `bytes`, written to a file of the same name in a folder of its own and named relative to it, so
    /// that reports of different bytes can be compared.
    static func lctraceReport(_ bytes: [UInt8]) throws -> CommandResult {
        let path = try Fixtures.temporaryFile(bytes, name: "app.log.gz")
        return try lctrace(["app.log.gz"], directory: URL(fileURLWithPath: path).deletingLastPathComponent())
    }

    /// Zero bytes after the last member (the padding some tools write to fill a block) are ignored: the report is the
    /// same as without them.
    @Test func zeroPaddingAfterTheLastGzipMemberIsIgnored() throws {
        let member = try Self.gzip(Fixtures.sample("seed-push-pop.log"))
        let padding = [UInt8](repeating: 0, count: 512)
        let plain = try Self.lctraceReport(member)
        let padded = try Self.lctraceReport(member + padding)
        #expect(plain.status == 0)
        #expect(plain.stdout.contains("Summary: 17 lines"))
        #expect(padded.status == 0)
        #expect(padded.stderr == plain.stderr)
        #expect(padded.stdout == plain.stdout)
        // Zero bytes between members too.
        let once = try Self.lines(of: Fixtures.sample("seed-push-pop.log"))
        #expect(try Self.lines(of: Fixtures.temporaryFile(member + padding + member + padding, name: "two.log.gz")) == once + once)
    }

    /// Bytes after a member that are neither zero nor another member are an input error, as before, and so are
    /// other bytes after zero padding and a member cut short before it.
    @Test func otherBytesAfterAGzipMemberAreStillAnError() throws {
        let member = try Self.gzip(Fixtures.sample("seed-push-pop.log"))
        let padding = [UInt8](repeating: 0, count: 512)
        let garbage = Array("not gzip data\n".utf8)
        for (bytes, what) in [(member + garbage, "garbage"), (member + padding + garbage, "padding, then garbage"),
                              (Array(member.prefix(member.count / 2)) + padding, "a cut member, then padding")] {
            let result = try Self.lctraceReport(bytes)
            #expect(result.status == 2, "\(what)")
            #expect(result.stderr.hasPrefix("lctrace: app.log.gz: read failed: gzip: "), "\(what): \(result.stderr)")
        }
    }

    /// An input that fails part way is reported as far as it was read, in a parallel run as in one job: the JSON Lines
    /// a worker rendered before the failure (with no end of the input after them) are written.
    @Test func anInputThatFailsPartWayIsReportedAsFarAsItWasRead() throws {
        let member = try Self.gzip(Fixtures.sample("seed-push-pop.log"))
        let bad = try Fixtures.temporaryFile(member + Array("not gzip data\n".utf8), name: "app.log.gz")
        let directory = URL(fileURLWithPath: bad).deletingLastPathComponent()
        try FileManager.default.copyItem(atPath: Fixtures.sample("seed-push-pop.log"), toPath: directory.appendingPathComponent("good.log").path)
        // The run ends at the failed input: it comes last.
        let one = try lctrace(["--format", "ndjson", "--jobs", "1", "good.log", "app.log.gz"], directory: directory)
        let two = try lctrace(["--format", "ndjson", "--jobs", "2", "good.log", "app.log.gz"], directory: directory)
        #expect(one.status == 2)
        #expect(one.stderr.hasPrefix("lctrace: app.log.gz: read failed: gzip: "), "\(one.stderr)")
        let events = one.stdout.components(separatedBy: "\n").filter { $0.contains(#""type":"event""#) }
        #expect(events.filter { $0.contains(#""input":"good.log""#) }.count == 16)
        #expect(events.filter { $0.contains(#""input":"app.log.gz""#) }.count == 16)
        #expect(two.status == one.status)
        #expect(two.stderr == one.stderr)
        #expect(two.stdout == one.stdout)
    }

    // MARK: --follow

    /// A followed file is truncated and written again, in one write, with more bytes than were read before: the new
    /// content is read from its start, and no line of either is lost.
    @Test func aFollowedFileRewrittenLongerThanBeforeIsReadFromItsStart() throws {
        func line(_ name: String, _ second: Int) -> String {
            "2016-03-17 16:02:\(second).100 LifeCycle[2148:117099] \(name)ViewController viewDidLoad()\n"
        }
        let old = ["One", "Two", "Three"].enumerated().map { line($1, 10 + $0) }.joined()
        let new = ["Four", "Five", "Six", "Seven"].enumerated().map { line($1, 20 + $0) }.joined()
        #expect(new.utf8.count > old.utf8.count)
        let path = try Fixtures.temporaryFile(old)
        let run = try FollowedRun(["--follow", "--format", "ndjson", path])
        defer { run.stop() }
        #expect(run.waitForOutput("\"subject\":\"ThreeViewController\""))
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        try handle.truncate(atOffset: 0)
        try handle.write(contentsOf: Data(new.utf8))
        try handle.close()
        #expect(run.waitForOutput("\"subject\":\"SevenViewController\""))
        #expect(run.waitForErrors("file truncated"))
        let (output, _, status) = run.interrupt()
        #expect(status == 0)
        let events = output.split(separator: "\n").compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
            .filter { $0["type"] as? String == "event" }
        #expect(events.compactMap { $0["subject"] as? String }
            == ["One", "Two", "Three", "Four", "Five", "Six", "Seven"].map { $0 + "ViewController" })
        // Line numbers go on counting across the truncation.
        #expect(events.compactMap { $0["line"] as? Int } == Array(1...7))
        let summary = output.split(separator: "\n").last.flatMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
        #expect(summary?["events"] as? Int == 7)
        #expect(summary?["lines"] as? Int == 7)
    }
}
