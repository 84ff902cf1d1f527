import Dispatch
import Foundation
import Testing
@testable import LCTraceKit

/// How lines are cut out of the bytes: line breaks (`\n`, `\r\n`, a lone `\r`), the cut of over-long lines, and
/// that neither depends on where the reads happen to end.
@Suite struct LineBreakTests {
    /// The lines of `bytes` as a reader of the whole text in one piece sees them: `\r\n`, `\n` and a lone `\r` each
    /// end a line, the last line may lack its break, and a line over `maxLineBytes` keeps its first `maxLineBytes`.
    static func referenceLines(_ bytes: [UInt8], maxLineBytes: Int) -> [(String, Bool)] {
        var result: [(String, Bool)] = []
        var line: [UInt8] = []
        func end() {
            let truncated = line.count > maxLineBytes
            result.append((String(decoding: truncated ? Array(line.prefix(maxLineBytes)) : line, as: UTF8.self), truncated))
            line = []
        }
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            if byte == 0x0A || byte == 0x0D {
                end()
                if byte == 0x0D, index + 1 < bytes.count, bytes[index + 1] == 0x0A { index += 1 }
            } else {
                line.append(byte)
            }
            index += 1
        }
        if !line.isEmpty { end() }
        return result
    }

    static func lines(of path: String, maxLineBytes: Int, chunkBytes: Int) throws -> [(String, Bool)] {
        let fd = try InputSource.file(path).openDescriptor()
        defer { _ = close(fd) }
        var result: [(String, Bool)] = []
        try LineReader(fileDescriptor: fd, maxLineBytes: maxLineBytes, chunkBytes: chunkBytes).forEachLine { line, truncated in
            result.append((String(decoding: line, as: UTF8.self), truncated))
        }
        return result
    }

    /// Where two lists of lines first differ, and how; nil when they are the same.
    static func firstDifference(_ read: [(String, Bool)], _ expected: [(String, Bool)]) -> String? {
        for index in 0..<max(read.count, expected.count) {
            let got: (String, Bool)? = index < read.count ? read[index] : nil
            let wanted: (String, Bool)? = index < expected.count ? expected[index] : nil
            if got?.0 != wanted?.0 || got?.1 != wanted?.1 {
                return "line \(index + 1) is \(String(describing: got)), expected \(String(describing: wanted))"
            }
        }
        return nil
    }

    /// Texts of short and over-long lines ended every way, drawn from a fixed seed.
    static func mixedTexts() -> [[UInt8]] {
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        func next(_ bound: Int) -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((state >> 33) % UInt64(bound))
        }
        let breaks: [[UInt8]] = [[0x0A], [0x0D, 0x0A], [0x0D], [0x0D, 0x0D, 0x0A], [0x0A, 0x0D]]
        return (0..<6).map { _ in
            var bytes: [UInt8] = []
            while bytes.count < 3000 {
                let length = next(4) == 0 ? next(200) : next(12)
                bytes += (0..<length).map { UInt8(ascii: "a") + UInt8($0 % 26) }
                bytes += breaks[next(breaks.count)]
            }
            if next(2) == 0 { bytes += Array("last".utf8) }
            return bytes
        }
    }

    /// Every line is cut the same way wherever the reads end: with the line's end already read or not, and whatever
    /// the buffer size.
    @Test func linesAreTheSameWhateverTheReadSizes() throws {
        for (number, text) in Self.mixedTexts().enumerated() {
            let path = try Fixtures.temporaryFile(text)
            for maxLineBytes in [3, 8, 64] {
                let expected = Self.referenceLines(text, maxLineBytes: maxLineBytes)
                for chunkBytes in [1, 2, 3, 5, 8, 13, 64, 1000, 1 << 20] {
                    let read = try Self.lines(of: path, maxLineBytes: maxLineBytes, chunkBytes: chunkBytes)
                    let differing = Self.firstDifference(read, expected)
                    #expect(differing == nil, "text \(number), max \(maxLineBytes), chunk \(chunkBytes): \(differing ?? "")")
                }
            }
        }
    }

    /// Lines read from bytes already in memory (a section a worker read) are the lines read from the file, and
    /// their count is the count of line breaks a worker numbers the next section by.
    @Test func linesInMemoryAreTheLinesOfTheFile() throws {
        var texts = Self.mixedTexts()
        texts += [[], Array("\r".utf8), Array("\r\n".utf8), Array("no break".utf8), Array("a\r\rb\r".utf8)]
        for (number, text) in texts.enumerated() {
            for maxLineBytes in [3, 64] {
                let expected = Self.referenceLines(text, maxLineBytes: maxLineBytes)
                var read: [(String, Bool)] = []
                var offsets: [Int] = []
                try text.withUnsafeBytes { bytes in
                    let reader = LineReader(.memory(bytes, offset: 1000), maxLineBytes: maxLineBytes)
                    try reader.forEachLine { line, truncated in
                        read.append((String(decoding: line, as: UTF8.self), truncated))
                        offsets.append(reader.lineOffset)
                    }
                    #expect(reader.bytesRead == text.count)
                }
                let differing = Self.firstDifference(read, expected)
                #expect(differing == nil, "text \(number), max \(maxLineBytes): \(differing ?? "")")
                // Each line's offset is where it starts in the text, counted from the offset given.
                #expect(offsets == Self.lineStarts(text).map { $0 + 1000 }, "text \(number)")
            }
            // Every line of a text ending in a break ends in one: as many lines as breaks; otherwise one more.
            let lines = Self.referenceLines(text, maxLineBytes: 64).count
            let endsInBreak = text.last == 0x0A || text.last == 0x0D
            let counted = text.withUnsafeBytes { NewlineCounter.lineBreakCount(in: $0) }
            #expect(counted == (endsInBreak || text.isEmpty ? lines : lines - 1), "text \(number)")
        }
    }

    /// No bytes at all, not even an address: no line.
    @Test func noBytesInMemoryAreNoLines() throws {
        let reader = LineReader(.memory(UnsafeRawBufferPointer(start: nil, count: 0), offset: 0))
        var lines = 0
        try reader.forEachLine { _, _ in lines += 1 }
        #expect(lines == 0 && reader.bytesRead == 0)
        #expect(NewlineCounter.lineBreakCount(in: UnsafeRawBufferPointer(start: nil, count: 0)) == 0)
    }

    /// Where each line of `bytes` starts, as `referenceLines` cuts them.
    static func lineStarts(_ bytes: [UInt8]) -> [Int] {
        var starts: [Int] = []
        var start = 0
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            if byte == 0x0A || byte == 0x0D {
                starts.append(start)
                if byte == 0x0D, index + 1 < bytes.count, bytes[index + 1] == 0x0A { index += 1 }
                start = index + 1
            }
            index += 1
        }
        if start < bytes.count { starts.append(start) }
        return starts
    }

    /// A line over the limit whose newline is in the same read is cut too, exactly as one whose newline comes later.
    @Test func anOverlongLineIsCutWhenItsNewlineIsInTheBuffer() throws {
        let long = String(repeating: "x", count: 100)
        let exact = String(repeating: "y", count: 64)
        let path = try Fixtures.temporaryFile("a\n\(long)\n\(exact)\n\(exact)z\r\nb\n")
        let read = try Self.lines(of: path, maxLineBytes: 64, chunkBytes: 1 << 20)
        #expect(read.map(\.0) == ["a", String(repeating: "x", count: 64), exact, exact, "b"])
        #expect(read.map(\.1) == [false, true, false, true, false])
    }

    @Test func aLoneCarriageReturnEndsALine() throws {
        let path = try Fixtures.temporaryFile("one\rtwo\r\rthree\r\nfour\nfive\r")
        let read = try Self.lines(of: path, maxLineBytes: 64, chunkBytes: 1 << 20)
        #expect(read.map(\.0) == ["one", "two", "", "three", "four", "five"])
        #expect(read.allSatisfy { !$0.1 })
    }

    /// A `\r\n` split between two reads of a pipe is one line break, not a line break and a blank line.
    @Test func aCRLFSplitBetweenReadsIsOneBreak() throws {
        var ends: [Int32] = [0, 0]
        #expect(pipe(&ends) == 0)
        let (readEnd, writeEnd) = (ends[0], ends[1])
        let writer = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            for piece in ["one\r", "\ntwo\r", "\r\nthree"] {
                _ = piece.utf8CString.withUnsafeBufferPointer { write(writeEnd, $0.baseAddress, $0.count - 1) }
                Thread.sleep(forTimeInterval: 0.1)
            }
            close(writeEnd)
            writer.signal()
        }
        var read: [String] = []
        try LineReader(fileDescriptor: readEnd).forEachLine { line, _ in read.append(String(decoding: line, as: UTF8.self)) }
        writer.wait()
        close(readEnd)
        #expect(read == ["one", "two", "", "three"])
    }

    /// Sections are cut, and their lines numbered, as the line reader reads the lines, whatever their line breaks.
    @Test func sectionsCutWhereTheLineReaderCuts() throws {
        let launch = "2016-03-17 16:02:37.277 LifeCycle[2148:117099] main()"
        let callback = "2016-03-17 16:02:37.300 LifeCycle[2148:117099] ViewController    >>>>    viewDidLoad"
        for ending in ["\r", "\r\n", "mixed"] {
            var text = ""
            for index in 0..<300 {
                let line = index % 17 == 0 ? launch : index % 29 == 0 ? "" : callback
                let lineEnd = ending != "mixed" ? ending : ["\n", "\r", "\r\n"][index % 3]
                text += line + lineEnd
            }
            let path = try Fixtures.temporaryFile(text)
            for sectionBytes in [100, 700, 2048] {
                for chunkBytes in [64, 1000, 1 << 20] {
                    let expected = try referenceSections(of: path, sectionBytes: sectionBytes)
                    #expect(expected.count > 2, "\(ending.debugDescription), sections of \(sectionBytes) bytes")
                    #expect(workersSections(of: path, sectionBytes: sectionBytes, chunkBytes: chunkBytes) == expected,
                            "\(ending.debugDescription), sections of \(sectionBytes) bytes, read \(chunkBytes) at a time")
                }
            }
        }
    }

    // The walk over every line and the workers' sections, as `SectionEndFinderTests` makes them.
    private func referenceSections(of path: String, sectionBytes: Int) throws -> [String] {
        try SectionEndFinderTests().referenceSections(of: path, sectionBytes: sectionBytes, maxLineBytes: 120)
    }

    private func workersSections(of path: String, sectionBytes: Int, chunkBytes: Int) -> [String] {
        SectionEndFinderTests().workersSections(of: path, sectionBytes: sectionBytes, maxLineBytes: 120, chunkBytes: chunkBytes)
    }
}

/// Whole reports: the same lines, however they end and however the file is cut into sections.
@Suite(.serialized) struct LineReadingReportTests {
    /// A log ending its lines with `\r` alone (or `\r\n`, or a mix) reports what the same log with `\n` reports,
    /// read in one piece or in sections on two threads: sections of 1 KiB (each a launch or more, read from the file)
    /// and of 8 KiB (read into memory, where the workers count their lines).
    @Test func lineEndingsDoNotChangeTheReport() throws {
        let log = try [UInt8](Data(contentsOf: URL(fileURLWithPath: try generatedLog(bytes: "120K", seed: 41, format: "nslog-classic"))))
        #expect(log.contains(0x0A) && !log.contains(0x0D))
        func report(_ bytes: [UInt8], jobs: Int, sectionBytes: Int = 1024) throws -> String {
            var options = AnalysisOptions()
            options.sectionBytes = sectionBytes
            let output = Output()
            let analyzer = try Analyzer(options: options, reporter: JSONReporter(output: output, includeEvents: true))
            try analyzer.analyze([InputSource(name: "input.log", path: try Fixtures.temporaryFile(bytes))], jobs: jobs)
            analyzer.finish()
            return output.text
        }
        let expected = try report(log, jobs: 1)
        #expect(expected.contains("\"events\": ["))
        var breaks = 0
        let variants: [(String, [UInt8])] = [
            ("CR", log.map { $0 == 0x0A ? 0x0D : $0 }),
            ("CRLF", log.flatMap { $0 == 0x0A ? [0x0D, 0x0A] : [$0] }),
            ("mixed", log.flatMap { byte -> [UInt8] in
                guard byte == 0x0A else { return [byte] }
                breaks += 1
                return [[0x0A], [0x0D], [0x0D, 0x0A]][breaks % 3]
            }),
        ]
        for (name, bytes) in variants {
            for (jobs, sectionBytes) in [(1, 1024), (2, 1024), (2, 8 << 10)] {
                // The byte counts differ with the line breaks; everything else is the same.
                let read = try report(bytes, jobs: jobs, sectionBytes: sectionBytes)
                    .replacingOccurrences(of: #""bytes": \d+"#, with: "", options: .regularExpression)
                let wanted = expected.replacingOccurrences(of: #""bytes": \d+"#, with: "", options: .regularExpression)
                let lines = (read.split(separator: "\n"), wanted.split(separator: "\n"))
                let differing = zip(lines.0, lines.1).enumerated().first { $0.element.0 != $0.element.1 }
                let difference: String? = read == wanted ? nil
                    : differing.map { "report line \($0.offset + 1): \($0.element.0) instead of \($0.element.1)" }
                    ?? "\(lines.0.count) report lines instead of \(lines.1.count)"
                #expect(difference == nil, "\(name), jobs \(jobs), sections of \(sectionBytes)")
            }
        }
    }

    /// Lines over 64 KiB in a file of more than 1 MiB: `--jobs 1` reads it in one piece, `--jobs 2` in sections from
    /// other offsets, so a long line ends inside one read in the one and past its end in the other; every long line
    /// is cut all the same, so the reports are the same. (With lines of 140,000 bytes, `--jobs 1` used to cut only
    /// the eighth, the one across the end of its first read, and `--jobs 2` none.)
    @Test func longLinesAreCutTheSameWithAnyNumberOfJobs() throws {
        for length in [131_000, 140_000] {
            var text = ""
            for index in 0..<10 {
                text += "2016-03-17 16:02:\(10 + index).000 LifeCycle[2148:117099] main()\n"
                text += "C\(index)" + String(repeating: "V", count: length) + " viewDidLoad()\n"
            }
            for padding in 0..<3000 {
                text += "2016-03-17 16:03:00.000 LifeCycle[2148:117099] Networking: request \(padding) done\n"
            }
            #expect(text.utf8.count > 1 << 20)
            let path = try Fixtures.temporaryFile(text)
            let one = try lctrace(["--format", "json", "--jobs", "1", path])
            let two = try lctrace(["--format", "json", "--jobs", "2", path])
            #expect(one.status == 0 && two.status == 0)
            #expect(one.stdout == two.stdout, "lines of \(length) bytes")
            let summary = (try JSONSerialization.jsonObject(with: Data(one.stdout.utf8)) as? [String: Any])?["summary"] as? [String: Any]
            #expect(summary?["truncatedLines"] as? Int == 10, "lines of \(length) bytes")
            // Cut at 64 KiB, the long lines lose their callbacks.
            #expect(summary?["events"] as? Int == 10, "lines of \(length) bytes")
        }
    }
}

/// `--follow` reads a file as `tail -F` does: on through truncation and rotation, and waiting for it to appear.
@Suite(.serialized) struct FollowTests {
    /// One app launch whose controller is named after the phase.
    static func phase(_ name: String, second: Int) -> String {
        let stamp = "2016-03-17 16:02:\(second)"
        return """
            \(stamp).100 LifeCycle[2148:117099] main()
            \(stamp).200 LifeCycle[2148:117099] \(name)ViewController viewDidLoad()
            \(stamp).300 LifeCycle[2148:117099] \(name)ViewController viewWillAppear(_:)
            \(stamp).400 LifeCycle[2148:117099] \(name)ViewController viewDidAppear(_:)

            """
    }

    /// The events a run over `text` in one piece reads.
    static func events(in text: String) throws -> Int? {
        let result = try lctrace(["--format", "json", "--no-events", try Fixtures.temporaryFile(text)])
        let summary = (try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])?["summary"] as? [String: Any]
        return summary?["events"] as? Int
    }

    static func append(_ text: String, to path: String) throws {
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        try handle.seekToEnd()
        try handle.write(contentsOf: Data(text.utf8))
        try handle.close()
    }

    @Test func followsThroughTruncationAndRotation() throws {
        let phases = [("First", 10), ("Second", 20), ("Third", 30), ("Fourth", 40), ("Fifth", 50)].map { Self.phase($0.0, second: $0.1) }
        let path = try Fixtures.temporaryFile(phases[0])
        let run = try FollowedRun(["--follow", "--format", "ndjson", path])
        defer { run.stop() }
        #expect(run.waitForOutput("FirstViewController"))
        try Self.append(phases[1], to: path)
        #expect(run.waitForOutput("SecondViewController"))
        // `: > file`, then fewer bytes than were read before.
        #expect(truncate(path, 0) == 0)
        #expect(run.waitForErrors("file truncated"))
        try Self.append(phases[2], to: path)
        #expect(run.waitForOutput("ThirdViewController"))
        // Renamed away; the writer still holds the old file and adds to it; a while later a new file appears.
        #expect(rename(path, path + ".1") == 0)
        Thread.sleep(forTimeInterval: 0.5)
        try Self.append(phases[3], to: path + ".1")
        try Data(phases[4].utf8).write(to: URL(fileURLWithPath: path))
        #expect(run.waitForOutput("FifthViewController"))
        #expect(run.waitForErrors("reading the new file"))
        let (output, errors, status) = run.interrupt()
        #expect(status == 0)
        for name in ["First", "Second", "Third", "Fourth", "Fifth"] {
            #expect(output.contains("\"subject\":\"\(name)ViewController\""), "\(name)")
        }
        let summary = output.split(separator: "\n").last.flatMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
        #expect(summary?["type"] as? String == "summary")
        #expect(summary?["events"] as? Int == (try Self.events(in: phases.joined())))
        // One notice a line.
        #expect(errors.split(separator: "\n").filter { $0.contains("truncated") }.count == 1)
        #expect(errors.split(separator: "\n").allSatisfy { $0.hasPrefix("lctrace: \(path): ") })
    }

    @Test func waitsForAFileThatDoesNotExistYet() throws {
        let directory = URL(fileURLWithPath: try Fixtures.temporaryFile("", name: "placeholder")).deletingLastPathComponent()
        let path = directory.appendingPathComponent("later.log").path
        let run = try FollowedRun(["--follow", "--format", "ndjson", path])
        defer { run.stop() }
        Thread.sleep(forTimeInterval: 0.5)
        #expect(run.isRunning)
        let text = Self.phase("Late", second: 10)
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        #expect(run.waitForOutput("LateViewController"))
        let (output, _, status) = run.interrupt()
        #expect(status == 0)
        let summary = output.split(separator: "\n").last.flatMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
        #expect(summary?["events"] as? Int == (try Self.events(in: text)))
    }

    @Test func aMissingFileIsStillAnErrorWithoutFollow() throws {
        let result = try lctrace(["/nonexistent/later.log"])
        #expect(result.status == 2)
        #expect(result.stderr == "lctrace: /nonexistent/later.log: cannot open: No such file or directory\n")
    }
}

/// A running `lctrace --follow`, its output and errors collected as they come.
final class FollowedRun: @unchecked Sendable {
    private let process = Process()
    private let lock = NSLock()
    private var output = Data()
    private var errors = Data()
    private let outputDone = DispatchSemaphore(value: 0)
    private let errorsDone = DispatchSemaphore(value: 0)

    init(_ arguments: [String]) throws {
        process.executableURL = URL(fileURLWithPath: try lctraceExecutable())
        process.arguments = arguments
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = FileHandle.nullDevice
        try process.run()
        collect(out.fileHandleForReading, isOutput: true, done: outputDone)
        collect(err.fileHandleForReading, isOutput: false, done: errorsDone)
    }

    private func collect(_ handle: FileHandle, isOutput: Bool, done: DispatchSemaphore) {
        Thread.detachNewThread { [self] in
            while true {
                let data = handle.availableData
                if data.isEmpty { break }
                lock.lock()
                if isOutput { output.append(data) } else { errors.append(data) }
                lock.unlock()
            }
            done.signal()
        }
    }

    var isRunning: Bool { process.isRunning }

    private func text(_ keyPath: KeyPath<FollowedRun, Data>) -> String {
        lock.lock()
        defer { lock.unlock() }
        return String(decoding: self[keyPath: keyPath], as: UTF8.self)
    }

    /// Whether `text` shows up in the output within five seconds.
    func waitForOutput(_ text: String) -> Bool { wait(for: text, in: \.output) }
    func waitForErrors(_ text: String) -> Bool { wait(for: text, in: \.errors) }

    private func wait(for text: String, in keyPath: KeyPath<FollowedRun, Data>) -> Bool {
        let deadline = Date().addingTimeInterval(5)
        while Date() < deadline {
            if self.text(keyPath).contains(text) { return true }
            Thread.sleep(forTimeInterval: 0.02)
        }
        return false
    }

    /// Sends SIGINT and returns everything printed, and the exit status.
    func interrupt() -> (String, String, Int32) {
        process.interrupt()
        outputDone.wait()
        errorsDone.wait()
        process.waitUntilExit()
        return (text(\.output), text(\.errors), process.terminationStatus)
    }

    /// Ends the run if a failed expectation left it going.
    func stop() {
        if process.isRunning { process.terminate() }
    }
}
