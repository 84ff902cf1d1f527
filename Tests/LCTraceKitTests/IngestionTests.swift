import Foundation
import Testing
import PCRE2
@testable import LCTraceKit

@Suite struct LineFormatTests {
    @Test(arguments: LineFormat.builtIn.filter { $0.pattern != nil })
    func samplesMatchTheirFormatAndDetectAsIt(_ format: LineFormat) throws {
        let parser = try LineHeaderParser(format: format)
        for sample in format.samples {
            let bytes = Array(sample.utf8)
            let header = try bytes.withUnsafeBytes { try parser.parse($0) }
            #expect(header != nil, "\(format.name) does not match its sample \(sample)")
            let recognizer = try LineHeaderRecognizer(.automatic)
            _ = try bytes.withUnsafeBytes { try recognizer.parse($0) }
            #expect(recognizer.lastFormat.name == format.name, "\(sample) is read as \(recognizer.lastFormat.name)")
        }
    }

    @Test func classicHeaderFields() throws {
        let line = Array("2016-03-17 16:02:37.329 LifeCycle[2148:117099]  ViewController    >>>>    viewDidLoad".utf8)
        let parser = try LineHeaderParser(format: .nslogClassic)
        try line.withUnsafeBytes { raw in
            let header = try #require(try parser.parse(raw))
            #expect(String(decoding: raw[header.time!], as: UTF8.self) == "2016-03-17 16:02:37.329")
            #expect(String(decoding: raw[header.process!], as: UTF8.self) == "LifeCycle")
            #expect(String(decoding: raw[header.pid!], as: UTF8.self) == "2148")
            #expect(String(decoding: raw[header.tid!], as: UTF8.self) == "117099")
            #expect(String(decoding: raw[header.message], as: UTF8.self) == " ViewController    >>>>    viewDidLoad")
        }
    }

    @Test func modernAndClassicDoNotOverlap() throws {
        let modern = Array("2024-02-09 09:14:03.118204+0100 ShopApp[4410:1982201] x".utf8)
        let classic = try LineHeaderParser(format: .nslogClassic)
        #expect(try modern.withUnsafeBytes { try classic.parse($0) } == nil)
    }

    @Test func customPatternUsesNamedGroups() throws {
        let parser = try LineHeaderParser(format: .custom(#"^\[(?<time>[^\]]+)\] (?<process>\w+) pid=(?<pid>\d+): (?<message>.*)$"#))
        let line = Array("[2024-01-01 10:00:00.5] Shop pid=77: HomeViewController viewDidLoad()".utf8)
        try line.withUnsafeBytes { raw in
            let header = try #require(try parser.parse(raw))
            #expect(String(decoding: raw[header.pid!], as: UTF8.self) == "77")
            #expect(String(decoding: raw[header.message], as: UTF8.self) == "HomeViewController viewDidLoad()")
        }
    }
}

@Suite struct TimestampTests {
    /// The reader that remembers the last date, and the last second of a classic NSLog time, gives what parsing each
    /// timestamp afresh gives, through date changes, a second read again and each of its first 19 bytes changed,
    /// zones, `T` separators, other shapes and garbage.
    @Test func readerRemembersDatesWithoutChangingResults() {
        let texts = ["2016-03-17 16:02:37.277", "2016-03-17 16:02:38.001", "2016-03-17T16:02:39", "2016-03-18 00:00:00.5",
                     "2016-03-18 23:59:59.999999+0100", "2016-03-18 23:59:59.999999-05:00", "2016-03-18 23:59:59Z",
                     "2016-03-18 xx:59:59", "2016-03-18", "2016-03-18 ", "2016-0x-18 10:00:00", "2016-03-18_10:00:00",
                     "09:14:03.118204+0100", "Mar 17 16:34:24", "Mar  7 09:01:02", "2017-01-01 10:00:00.1", "2016-03-18 10:00:00.1",
                     "2016-03-18+10:00:00", "abcd-ef-gh 10:00:00", "",
                     // The 23-byte classic shape and its near misses.
                     "2016-03-17T16:02:39.123", "2016-03-17 16:02:37.27x", "2016-03-17 16:02:37,277", "2016-03-17 16:02:3x.277",
                     "2016-13-17 16:02:37.277", "2016-03-17 16:02:37.2771", "2016-03-17_16:02:37.277", "2016-03-17 16:02:37 277",
                     "2016-03-17 16:02:37.999", "2016-03-18 00:00:00.000",
                     // One second read again (only its milliseconds differ), then a byte of its first 19 changed.
                     "2016-03-18 00:00:00.001", "2016-03-18 00:00:00.00x", "2016-03-18 00:00:00,001", "2016-03-18T00:00:00.002",
                     "2016-03-18 00:00:01.002", "2016-03-19 00:00:00.002", "2017-03-18 00:00:00.002", "2016-03-18 10:00:00.002",
                     "2016-03-18 00:00:00.002", "2016-03-18 00:00:0x.002", "2016-03-18 00:00:00.002"]
        var reader = TimestampReader()
        for text in texts + texts.reversed() + texts {
            var copy = text
            let fromReader = copy.withUTF8 { reader.microseconds(UnsafeRawBufferPointer($0)) }
            #expect(fromReader == Timestamp.microseconds(text), "\(text)")
        }
    }

    @Test func classicMilliseconds() {
        let a = Timestamp.microseconds("2016-03-17 16:02:37.277")!
        let b = Timestamp.microseconds("2016-03-17 16:02:37.329")!
        #expect(b - a == 52_000)
        #expect(Timestamp.microseconds("2016-03-17 00:00:00.000")! == 1_458_172_800_000_000)
        // Fractions of any length: digits below a microsecond are dropped, short ones are scaled.
        let midnight: Int64 = 1_458_172_800_000_000
        #expect(Timestamp.microseconds("2016-03-17 00:00:00.5") == midnight + 500_000)
        #expect(Timestamp.microseconds("2016-03-17 00:00:00.123456789") == midnight + 123_456)
        #expect(Timestamp.microseconds("2016-03-17 00:00:00") == midnight)
        #expect(Timestamp.microseconds("2016-03-17 00:0a:00.000") == nil)
    }

    @Test func zonesAreApplied() {
        let utc = Timestamp.microseconds("2024-02-09 08:14:03.118204Z")!
        #expect(Timestamp.microseconds("2024-02-09 09:14:03.118204+0100") == utc)
        #expect(Timestamp.microseconds("2024-02-09 03:14:03.118204-05:00") == utc)
    }

    @Test func syslogHasNoYear() {
        let a = Timestamp.microseconds("Mar 17 16:34:24")!
        let b = Timestamp.microseconds("Mar 17 16:34:25")!
        #expect(b - a == 1_000_000)
        #expect(Timestamp.microseconds("Mar  7 09:01:02") != nil)
        #expect(Timestamp.microseconds("Foo 17 16:34:24") == nil)
    }
}

@Suite struct MessageFormTests {
    func parse(_ message: String) throws -> LifecycleMessage? {
        let bytes = Array(message.utf8)
        return try bytes.withUnsafeBytes { try MessageParser().parse($0, message: 0..<bytes.count) }
    }

    /// A message met again is recognised from its text alone, at any place in its line: the same result as the
    /// first time, its end counted from where it starts in this line, and a second record glued after it left alone.
    @Test func aMessageMetAgainReadsAsTheFirstTime() throws {
        let parser = MessageParser()
        let messages = ["  HomeViewController    >>>>    viewDidLoad", "main()", "ShopApp.CartViewController viewWillAppear(_:)",
                        "<ShopApp.CartViewController: 0x7F8A> viewDidAppear(_:)", "Realtime: socket reconnected",
                        "HomeViewController >>>> viewDidAppear:2024-02-09 08:14:39.160 ShopApp[1:2] x", "-[HomeViewController dealloc]"]
        for text in messages {
            var results: [LifecycleMessage?] = []
            for prefix in ["", "0123456789 ", "a much longer prefix before the message: "] {
                let bytes = Array((prefix + text + "   ").utf8)
                let range = prefix.utf8.count..<(bytes.count - 3)
                var result = try bytes.withUnsafeBytes { try parser.parse($0, message: range) }
                result?.end -= prefix.utf8.count
                results.append(result)
            }
            let fresh = try parse(text)
            #expect(results.allSatisfy { $0 == fresh }, "\(text): \(results)")
        }
    }

    /// Ordinary logging met again is known by its text, with the same reason as when it was first read.
    @Test func otherLoggingMetAgainKeepsItsReason() throws {
        let parser = MessageParser()
        let cases: [(String, OtherReason)] = [("Realtime: socket reconnected", .noCallback), ("+[CartViewController initialize]", .classMethod),
                                              ("__39-[CartViewController viewDidLoad]_block_invoke", .blockInvoke)]
        for (text, reason) in cases {
            let bytes = Array(text.utf8)
            for _ in 0..<3 {
                guard case .other(let read) = try bytes.withUnsafeBytes({ try parser.read($0, message: 0..<bytes.count) }) else {
                    Issue.record("\(text) is not read as other logging")
                    continue
                }
                #expect(read == reason, "\(text)")
            }
        }
    }

    /// A hand-written matcher's "undecided" goes to the exact matcher behind it; its other answers stand.
    @Test func undecidedGoesToTheExactMatcher() throws {
        let exact = PCRE2MessageFormMatcher(limits: PCRE2Limits())
        let fast = FastPathMatcher(HandMessageFormMatcher(), before: exact)
        for text in ["<ShopApp.CartViewController: 0x7f8a> viewDidAppear(_:)", "-[CartViewController viewDidLoad]",
                     "CartViewController >>>> viewDidLoad", "Realtime: socket reconnected"] {
            let bytes = Array(text.utf8)
            try bytes.withUnsafeBytes { line in
                let expected = try exact.firstMatch(line, in: 0..<line.count)
                let matched = try fast.firstMatch(line, in: 0..<line.count)
                #expect(matched?.className == expected?.className && matched?.selector == expected?.selector
                        && matched?.address == expected?.address && matched?.end == expected?.end, "\(text)")
            }
        }
        let addressed = Array("<ShopApp.CartViewController: 0x7f8a> viewDidAppear(_:)".utf8)
        let answer = addressed.withUnsafeBytes { HandMessageFormMatcher().match($0, in: 0..<$0.count) }
        guard case .undecided = answer else {
            Issue.record("the hand-written matcher decides an addressed form")
            return
        }
    }

    /// Addresses read as logged, lower-cased: leading zeros kept, longer than 64 bits or not hexadecimal kept as text.
    @Test func addressesReadAsLoggedLowerCased() throws {
        let cases = [("<ShopApp.CartViewController: 0x7F8A> viewDidAppear(_:)", "0x7f8a"),
                     ("<CartViewController: 0x00007f8a12c0> viewDidLoad()", "0x00007f8a12c0"),
                     ("<CartViewController: 0x1234567890ABCDEF12> viewDidLoad()", "0x1234567890abcdef12"),
                     ("<CartViewController: 0x0> viewDidLoad()", "0x0"),
                     ("Unbalanced calls to begin/end appearance transitions for <CartViewController: 0xABC>.", "0xabc"),
                     ("Unbalanced calls to begin/end appearance transitions for <CartViewController: Instance-7>.", "instance-7")]
        for (message, address) in cases {
            #expect(try parse(message)?.address == address, "\(message)")
        }
        #expect(try parse("CartViewController >>>> viewDidLoad")?.address == nil)
    }

    @Test func theNameTableKeepsAClassOnceWithoutItsModule() throws {
        let parser = MessageParser()
        func className(_ message: String) throws -> ClassName? {
            let bytes = Array(message.utf8)
            guard case .message(let read, _) = try bytes.withUnsafeBytes({ try parser.read($0, message: 0..<bytes.count) }) else { return nil }
            return read.className
        }
        let home = try #require(try className("HomeViewController >>>> viewDidLoad"))
        #expect(parser.names[home] == "HomeViewController")
        #expect(try className("ShopApp.HomeViewController viewWillAppear(_:)") == home)
        #expect(try className("-[HomeViewController viewDidAppear:]") == home)
        #expect(try className("Unbalanced calls to begin/end appearance transitions for <ShopApp.HomeViewController: 0x1>.") == home)
        let cart = try #require(try className("CartViewController >>>> viewDidLoad"))
        #expect(cart != home)
        #expect(parser.names[cart] == "CartViewController")
        #expect(try className("main()") == nil)
    }

    @Test func aFullNameTableLeavesNewNamesUnreadAndKeepsTheOldOnes() throws {
        let names = NameTable()
        for number in 0..<NameTable.limit - 1 { _ = names.className("Class\(number)") }
        let parser = MessageParser(limits: PCRE2Limits(), matchers: .fastPath, names: names)
        func read(_ message: String) throws -> MessageReading {
            let bytes = Array(message.utf8)
            return try bytes.withUnsafeBytes { try parser.read($0, message: 0..<bytes.count) }
        }
        // The anonymous class took the last room.
        guard case .unread(.tooManyNames) = try read("NewViewController viewDidLoad()") else {
            Issue.record("a class past the table's limit is read")
            return
        }
        guard case .message(let message, _) = try read("Class7 viewDidLoad()") else {
            Issue.record("a class already in the table is not read")
            return
        }
        #expect(message.className.map { names[$0] } == "Class7")
    }

    @Test func arrowForm() throws {
        let message = try #require(try parse("  ViewController    >>>>    viewWillAppear:"))
        #expect(message.className == "ViewController")
        #expect(message.callback == .viewWillAppear)
        #expect(message.spelled == "viewWillAppear:")
        #expect(try parse("AppDelegate>>application:didFinishLaunchingWithOptions:")?.callback == .didFinishLaunching)
    }

    @Test func prettyFunctionForm() throws {
        let message = try #require(try parse("-[VCParentViewController viewWillAppear:]"))
        #expect(message.className == "VCParentViewController")
        #expect(message.callback == .viewWillAppear)
        #expect(try parse("-[ShopApp.CartViewController(Logging) viewDidLoad]")?.className == "CartViewController")
        #expect(try parse("-[CartViewController viewDidLoad]_block_invoke") == nil)
    }

    @Test func swiftFunctionForm() throws {
        #expect(try parse("ViewController viewWillAppear(_:)")?.callback == .viewWillAppear)
        #expect(try parse("BlueViewController viewDidLoad()")?.callback == .viewDidLoad)
        #expect(try parse("[LMLifeListViewController viewWillAppear(_:)](38): c")?.className == "LMLifeListViewController")
        #expect(try parse("ChildViewController willMove(toParent:)")?.callback == .willMoveToParentViewController)
    }

    @Test func addressedForm() throws {
        let message = try #require(try parse("<ShopApp.ModalViewController: 0x7FB1C8E0A200> viewDidDisappear(_:)"))
        #expect(message.className == "ModalViewController")
        #expect(message.address == "0x7fb1c8e0a200")
        #expect(message.callback == .viewDidDisappear)
    }

    @Test func markersAndIntents() throws {
        #expect(try parse(" main()")?.callback == .main)
        #expect(try parse("Received memory warning.")?.callback == .receivedMemoryWarning)
        #expect(try parse("NavController >>>> pushViewController:animated:")?.callback == .pushViewController)
        #expect(try parse("HomeViewController present(_:animated:completion:)")?.callback == .presentViewController)
        #expect(try parse("-[HomeViewController dismissViewControllerAnimated:completion:]")?.callback == .dismissViewController)
    }

    @Test func ordinaryLoggingIsNotLifecycle() throws {
        #expect(try parse("AppDelegate    >>>>    UIApplicaton Class: MyApplication") == nil)
        #expect(try parse("Fetched 20 items") == nil)
        #expect(try parse("User tapped checkout") == nil)
        #expect(try parse("CartViewController reloadData()") == nil)
        #expect(try parse("") == nil)
    }
}

@Suite struct CallbackNameTests {
    @Test func bothSpellingsNormaliseToTheCanonicalName() {
        let pairs: [(String, Callback)] = [
            ("viewWillAppear:", .viewWillAppear), ("viewWillAppear(_:)", .viewWillAppear),
            ("willMoveToParentViewController:", .willMoveToParentViewController),
            ("willMove(toParentViewController:)", .willMoveToParentViewController),
            ("scene(_:willConnectTo:options:)", .sceneWillConnect),
            ("scene:willConnectToSession:options:", .sceneWillConnect),
            ("deinit", .dealloc), ("dealloc", .dealloc),
            ("application(_:didFinishLaunchingWithOptions:)", .didFinishLaunching),
            ("popViewController(animated:)", .popViewController),
        ]
        for (spelled, callback) in pairs {
            #expect(CallbackNames.callback(forSelector: spelled) == callback, "\(spelled)")
        }
    }

    @Test func fallbackStripsArgumentsAndColons() {
        #expect(CallbackNames.callback(forSelector: "viewDidAppear(animated:)") == .viewDidAppear)
        #expect(CallbackNames.callback(forSelector: "viewDidLoad:") == .viewDidLoad)
        #expect(CallbackNames.callback(forSelector: "reloadData()") == nil)
    }

    @Test func everyCanonicalNameIsKnown() {
        for callback in Callback.allCases where callback.family != .marker && callback.noticeRule == nil {
            #expect(CallbackNames.callback(forSelector: callback.rawValue) == callback)
        }
    }
}

@Suite struct LineReaderTests {
    func lines(of bytes: [UInt8], maxLineBytes: Int = 64, chunkBytes: Int = 16) throws -> [(String, Bool)] {
        try LineBreakTests.lines(of: try Fixtures.temporaryFile(bytes), maxLineBytes: maxLineBytes, chunkBytes: chunkBytes)
    }

    @Test func crlfAndMissingFinalNewline() throws {
        let result = try lines(of: Array("one\r\ntwo\n\nthree".utf8))
        #expect(result.map(\.0) == ["one", "two", "", "three"])
    }

    @Test func linesSpanningChunksAreWhole() throws {
        let text = (1...50).map { "line number \($0) with some padding" }.joined(separator: "\n")
        let result = try lines(of: Array(text.utf8), maxLineBytes: 100, chunkBytes: 7)
        #expect(result.count == 50)
        #expect(result[49].0 == "line number 50 with some padding")
    }

    @Test func overlongLinesAreTruncatedAndTheRestDiscarded() throws {
        let long = String(repeating: "x", count: 1000)
        let result = try lines(of: Array("a\n\(long)\nb\n".utf8), maxLineBytes: 64, chunkBytes: 16)
        #expect(result.map(\.0) == ["a", String(repeating: "x", count: 64), "b"])
        #expect(result.map(\.1) == [false, true, false])
    }

    @Test func nulBytesStayInTheLine() throws {
        let result = try lines(of: [0x61, 0x00, 0x62, 0x0A, 0x63])
        #expect(result.count == 2)
        #expect(result[0].0.utf8.count == 3)
    }

    @Test func lineBreaksAreCountedExactly() {
        // Every byte value next to newlines, at every alignment, with the vector loop's tail of up to fifteen bytes.
        var bytes: [UInt8] = []
        for value in 0...255 { bytes += [UInt8(value), 0x0A, UInt8(value), UInt8(value ^ 0x80)] }
        for length in 0..<bytes.count where length % 37 == 0 || length < 20 {
            for start in 0..<9 where start <= length {
                let slice = Array(bytes[start..<length])
                let counted = slice.withUnsafeBytes { NewlineCounter.newlinesAndCarriageReturn(in: $0) }
                #expect(counted.newlines == slice.filter { $0 == 0x0A }.count, "bytes \(start)..<\(length)")
                #expect(counted.hasCarriageReturn == slice.contains(0x0D), "bytes \(start)..<\(length)")
            }
        }
        // Past the 255 blocks a lane counts before the lanes are added up: newlines only, and one in three.
        for length in [4079, 4080, 4081, 4096, 10_000, 70_001] {
            let all = [UInt8](repeating: 0x0A, count: length)
            #expect(all.withUnsafeBytes { NewlineCounter.newlinesAndCarriageReturn(in: $0) } == (length, false))
            let some = (0..<length).map { $0 % 3 == 0 ? UInt8(0x0A) : UInt8(0x61) }
            #expect(some.withUnsafeBytes { NewlineCounter.newlinesAndCarriageReturn(in: $0) } == ((length + 2) / 3, false))
            // One `\r` anywhere is found: in the first block, the last whole block, or the bytes after it; and many.
            for place in [0, length / 2, length - length % 16 - 1, length - 1] {
                var marked = some
                marked[place] = 0x0D
                #expect(marked.withUnsafeBytes { NewlineCounter.newlinesAndCarriageReturn(in: $0) }.hasCarriageReturn, "\\r at \(place) of \(length)")
            }
            let returns = [UInt8](repeating: 0x0D, count: length)
            #expect(returns.withUnsafeBytes { NewlineCounter.newlinesAndCarriageReturn(in: $0) } == (0, true))
        }
    }

    @Test func unreadableInputsAreNamed() {
        #expect(throws: InputError.cannotOpen(path: "/nonexistent/x.log", reason: "No such file or directory")) {
            try InputSource.file("/nonexistent/x.log").openDescriptor()
        }
        #expect(throws: InputError.isDirectory(path: "/tmp")) { try InputSource.file("/tmp").openDescriptor() }
    }
}

/// Gzip input: `Fixtures/gzip/seed-push-pop.log.gz` is `SampleLogs/seed-push-pop.log` compressed by `gzip -n -9`.
@Suite struct GzipInputTests {
    static let compressed = Fixtures.repositoryRoot.appendingPathComponent("Tests/LCTraceKitTests/Fixtures/gzip/seed-push-pop.log.gz")
    static let plain = Fixtures.sample("seed-push-pop.log")

    func lines(of path: String, chunkBytes: Int = 16) throws -> [String] {
        let fd = try InputSource.file(path).openDescriptor()
        defer { _ = close(fd) }
        var result: [String] = []
        try LineReader(fileDescriptor: fd, chunkBytes: chunkBytes).forEachLine { line, _ in
            result.append(String(decoding: line, as: UTF8.self))
        }
        return result
    }

    @Test func aGzipFileReadsAsItsText() throws {
        let text = try String(contentsOfFile: Self.plain, encoding: .utf8)
        let expected = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init).dropLast()
        #expect(try lines(of: Self.compressed.path) == Array(expected))
        #expect(try lines(of: Self.compressed.path, chunkBytes: 1 << 20) == Array(expected))
    }

    @Test func membersOneAfterAnotherReadAsOneStream() throws {
        let member = try [UInt8](Data(contentsOf: Self.compressed))
        let path = try Fixtures.temporaryFile(member + member, name: "two.log.gz")
        let once = try lines(of: Self.compressed.path)
        #expect(try lines(of: path) == once + once)
    }

    @Test func analysisOfTheCompressedFileIsTheSame() throws {
        let compressed = try analyze(paths: [Self.compressed.path])
        let plain = try analyze(paths: [Self.plain])
        #expect(compressed.summary?.events == plain.summary?.events)
        #expect(compressed.summary?.events ?? 0 > 0)
        #expect(compressed.findings.map(\.rule) == plain.findings.map(\.rule))
        #expect(compressed.sessions.map(\.transitions.count) == plain.sessions.map(\.transitions.count))
    }

    @Test func aTruncatedGzipFileIsAnError() throws {
        let member = try [UInt8](Data(contentsOf: Self.compressed))
        let path = try Fixtures.temporaryFile(Array(member.prefix(member.count / 2)), name: "cut.log.gz")
        #expect(throws: InputError.readFailed(reason: "gzip: the compressed data ends early (a truncated file?)")) {
            _ = try lines(of: path)
        }
    }

    @Test func corruptGzipDataIsAnError() throws {
        var member = try [UInt8](Data(contentsOf: Self.compressed))
        for index in 20..<40 { member[index] ^= 0x5A }
        let path = try Fixtures.temporaryFile(member, name: "corrupt.log.gz")
        #expect(throws: InputError.self) { _ = try lines(of: path) }
    }
}

@Suite struct SectionEndFinderTests {
    /// The sections a walk over every line finds: a cut at the first `main()` line starting at or after each nominal
    /// end and before `maxOvershoot` past it (not at a line the reader cuts short); when none does, the rest of the
    /// file is one piece. The nominal length is `sectionBytes`, and a quarter of it (at least a byte) from a start with
    /// no more than `taperBytes` of the file after it.
    func referenceSections(of path: String, sectionBytes: Int, maxLineBytes: Int, taperBytes: Int = 0,
                           maxOvershoot: Int = .max / 2) throws -> [String] {
        let fd = try InputSource.file(path).openDescriptor()
        defer { _ = close(fd) }
        let fileSize = try #require(FileStatus(fileDescriptor: fd)?.regularFileSize)
        let recognizer = try LineHeaderRecognizer(.fixed(.nslogClassic))
        let reader = LineReader(fileDescriptor: fd, maxLineBytes: maxLineBytes, chunkBytes: 64)
        var sections: [String] = []
        var start = 0, firstLine = 1, lineNumber = 0
        var cutting = true
        try reader.forEachLine { line, truncated in
            lineNumber += 1
            let offset = reader.lineOffset
            let nominal = fileSize - start <= taperBytes ? max(1, sectionBytes / 4) : sectionBytes
            guard cutting else { return }
            if offset - start >= nominal + maxOvershoot {
                cutting = false
            } else if offset - start >= nominal, !truncated, SectionEndFinder.isLaunch(line, recognizer: recognizer) {
                sections.append("\(start)..<\(offset) from line \(firstLine)")
                start = offset
                firstLine = lineNumber
            }
        }
        sections.append("rest \(start)..<\(reader.bytesRead) from line \(firstLine)")
        return sections
    }

    /// The sections as the workers find them, each from where the one before ended (`SectionEndFinder.sectionEnd`), read
    /// into a memory of `memoryBytes` (a worker's, twice the nominal length, by default); `each` is handed every section
    /// cut. The rest of the file starts at `restFrom`; `restHeld` is what the memory held of it, when it says it holds
    /// it all.
    static func cutSections(of path: String, lineFormat: LineFormatChoice = .fixed(.nslogClassic), sectionBytes: Int,
                            maxLineBytes: Int, chunkBytes: Int = 16 << 10, taperBytes: Int = 0, maxOvershoot: Int? = nil,
                            memoryBytes: Int? = nil, each: (Range<Int>, SectionMemory, Int32) -> Void = { _, _, _ in })
        throws -> (sections: [Range<Int>], restFrom: Int, restHeld: [UInt8]?) {
        var finder = SectionEndFinder(sectionBytes: sectionBytes, maxLineBytes: maxLineBytes)
        finder.chunkBytes = chunkBytes
        finder.taperBytes = taperBytes
        if let maxOvershoot { finder.maxOvershoot = maxOvershoot }
        let recognizer = try LineHeaderRecognizer(lineFormat)
        let memory = SectionMemory(capacity: memoryBytes ?? 2 * sectionBytes)
        let fd = try InputSource.file(path).openDescriptor()
        defer { _ = close(fd) }
        let fileSize = try #require(FileStatus(fileDescriptor: fd)?.regularFileSize)
        var sections: [Range<Int>] = []
        var start = 0
        while true {
            switch try finder.sectionEnd(from: start, fileSize: fileSize, fileDescriptor: fd, memory: memory, recognizer: recognizer) {
            case .launch(let end):
                sections.append(start..<end)
                each(start..<end, memory, fd)
                start = end
            case .noLaunch(let heldToTheEnd):
                return (sections, start, heldToTheEnd ? Array(memory.text) : nil)
            }
        }
    }

    /// The workers' sections, each numbered from the lines the sections before it hold, as a worker counts them in
    /// memory (`NewlineCounter.lineBreakCount`) or, for a section too long for its memory, from the file; a section or
    /// a rest the memory holds is checked against the file's bytes.
    func workersSections(of path: String, sectionBytes: Int, maxLineBytes: Int, chunkBytes: Int, taperBytes: Int = 0,
                         maxOvershoot: Int? = nil, memoryBytes: Int? = nil) -> [String] {
        guard let bytes = try? [UInt8](Data(contentsOf: URL(fileURLWithPath: path))) else { return ["unreadable"] }
        var sections: [String] = []
        var firstLine = 1
        do {
            let found = try SectionEndFinderTests.cutSections(
                of: path, sectionBytes: sectionBytes, maxLineBytes: maxLineBytes, chunkBytes: chunkBytes, taperBytes: taperBytes,
                maxOvershoot: maxOvershoot, memoryBytes: memoryBytes
            ) { range, memory, fd in
                sections.append("\(range.lowerBound)..<\(range.upperBound) from line \(firstLine)")
                if memory.holds(upTo: range.upperBound), !memory.text[..<range.count].elementsEqual(bytes[range]) {
                    sections.append("the memory holds other bytes")
                }
                let inMemory = bytes[range].withUnsafeBytes { NewlineCounter.lineBreakCount(in: $0) }
                var counter = NewlineCounter(fileDescriptor: fd, chunkBytes: chunkBytes)
                defer { counter.deallocate() }
                counter.seek(to: range.lowerBound)
                let fromFile = try? counter.count(upTo: range.upperBound)
                if fromFile != inMemory { sections.append("counted \(inMemory) lines in memory, \(fromFile ?? -1) from the file") }
                firstLine += inMemory
            }
            sections.append("rest \(found.restFrom)..<\(bytes.count) from line \(firstLine)")
            if let held = found.restHeld, held != Array(bytes[found.restFrom...]) { sections.append("the memory holds another rest") }
        } catch {
            sections.append("failed: \(error)")
        }
        return sections
    }

    @Test func cutsWhereAWalkOverEveryLineCuts() throws {
        let launch = "2016-03-17 16:02:37.277 LifeCycle[2148:117099] main()"
        let callback = "2016-03-17 16:02:37.300 LifeCycle[2148:117099] ViewController    >>>>    viewDidLoad"
        // Launches at irregular places, CRLF endings and lone CRs, blank and over-long lines, launches padded with
        // spaces and tabs, over-long lines ending in a launch and whose first bytes are one (cut short by the reader, so never a cut), messages
        // ending in `main()` that are not it, and a last line without its newline.
        var lines: [String] = []
        for index in 0..<400 {
            switch index % 23 {
            case 0, 9: lines.append(launch)
            case 5: lines.append(launch + "  \r")
            case 7: lines.append(String(repeating: "x", count: 300))
            case 11: lines.append(launch + " \t\r" + callback + "\r" + launch)
            case 13: lines.append("")
            case 16: lines.append(String(repeating: "y", count: 100) + launch)
            case 19: lines.append(callback.replacingOccurrences(of: "viewDidLoad", with: "domain()") + (index % 2 == 0 ? "" : " main()"))
            case 21: lines.append(launch + String(repeating: " ", count: 100) + "x")
            case 22: lines.append(launch + String(repeating: " ", count: 100))
            default: lines.append(callback + String(repeating: " ", count: index % 5))
            }
        }
        // Over-long lines of every length from 121 to 260 bytes ending in a launch, so that some read ends just before
        // the launch's header in one of them (a scanner that took such a place for a line's start would cut there), and
        // one line longer than the scanner's buffer (a scanner that kept it would read nothing more and stop early).
        for padding in 69..<209 { lines.append(String(repeating: "z", count: padding) + launch) }
        // Launches padded with spaces to exactly the longest line the reader hands out whole (120 bytes), and one past it.
        lines.append(contentsOf: [callback, launch + String(repeating: " ", count: 120 - launch.utf8.count), callback,
                                  launch + String(repeating: " ", count: 121 - launch.utf8.count), callback])
        lines.append(String(repeating: "w", count: 400_000))
        lines.append(contentsOf: [launch, callback, launch])
        let text = lines.joined(separator: "\n") + "\n" + launch
        let path = try Fixtures.temporaryFile(text)
        // Memories twice the nominal length (a worker's), smaller than a section (the search goes on in the file from
        // the nominal end, or from the first line past the memory), and larger than the file.
        for sectionBytes in [1, 100, 700, 2048, 40_000] {
            // A launch starting `maxOvershoot` or more past the nominal end ends no section, however the bytes are read.
            for maxOvershoot in [0, 90, 1000] {
                let expected = try referenceSections(of: path, sectionBytes: sectionBytes, maxLineBytes: 120, maxOvershoot: maxOvershoot)
                for chunkBytes in [64, 1 << 20] {
                    for memoryBytes in [nil, 50, 1 << 20] {
                        #expect(workersSections(of: path, sectionBytes: sectionBytes, maxLineBytes: 120, chunkBytes: chunkBytes,
                                                maxOvershoot: maxOvershoot, memoryBytes: memoryBytes) == expected,
                                "sections of \(sectionBytes) bytes, at most \(maxOvershoot) past, read \(chunkBytes) at a time into \(memoryBytes ?? 2 * sectionBytes)")
                    }
                }
            }
            let expected = try referenceSections(of: path, sectionBytes: sectionBytes, maxLineBytes: 120)
            #expect(expected.count > 1 || sectionBytes == 40_000)
            for chunkBytes in [64, 1000, 1 << 20] {
                for memoryBytes in [nil, 50, sectionBytes + 300, 1 << 20] {
                    #expect(workersSections(of: path, sectionBytes: sectionBytes, maxLineBytes: 120, chunkBytes: chunkBytes,
                                            memoryBytes: memoryBytes) == expected,
                            "sections of \(sectionBytes) bytes, read \(chunkBytes) at a time into \(memoryBytes ?? 2 * sectionBytes)")
                }
            }
        }
    }
}

extension SectionEndFinderTests {
    /// Over the last `taperBytes` of the file, sections are a quarter of the nominal length: the cuts there are the
    /// walk's with that length, there are more of them than without the taper, and none falls before the taper.
    @Test func sectionsAreShorterOverTheFilesEnd() throws {
        let launch = "2016-03-17 16:02:37.277 LifeCycle[2148:117099] main()"
        let callback = "2016-03-17 16:02:37.300 LifeCycle[2148:117099] ViewController    >>>>    viewDidLoad"
        var lines: [String] = []
        for index in 0..<600 { lines.append(index % 4 == 0 ? launch : callback) }
        let text = lines.joined(separator: "\n") + "\n"
        let path = try Fixtures.temporaryFile(text)
        let sectionBytes = 4000
        let taperBytes = text.utf8.count / 3
        for chunkBytes in [64, 1 << 20] {
            let plain = workersSections(of: path, sectionBytes: sectionBytes, maxLineBytes: 120, chunkBytes: chunkBytes)
            let tapered = workersSections(of: path, sectionBytes: sectionBytes, maxLineBytes: 120, chunkBytes: chunkBytes,
                                          taperBytes: taperBytes)
            #expect(tapered == (try referenceSections(of: path, sectionBytes: sectionBytes, maxLineBytes: 120, taperBytes: taperBytes)))
            #expect(plain == (try referenceSections(of: path, sectionBytes: sectionBytes, maxLineBytes: 120)))
            // Sections before the taper are as without it; the taper's third of the file holds several times as many.
            let before = plain.prefix { (Int($0.prefix { $0 != "." }) ?? .max) < text.utf8.count - taperBytes }
            #expect(Array(tapered.prefix(before.count)) == Array(before))
            #expect(tapered.count - before.count >= 2 * (plain.count - before.count), "\(plain) \(tapered)")
        }
    }
}

@Suite struct LineBreakSearchTests {
    /// The first line break ending at or after a place, as the line reader splits lines: `\n`, `\r\n` (found by its
    /// `\n`) and a lone `\r`; a `\r` that is the last byte held is a line break only at the end of the file.
    @Test func findsTheLineBreakTheReaderEndsALineWith() {
        func search(_ text: String, from start: Int, atEnd: Bool = false) -> LineBreakSearch? {
            Array(text.utf8).withUnsafeBytes { LineBytes.firstLineBreak(in: $0, from: start, atEnd: atEnd) }
        }
        #expect(search("ab\ncd\n", from: 0) == .breakEnding(2))
        #expect(search("ab\ncd\n", from: 2) == .breakEnding(2))
        #expect(search("ab\ncd\n", from: 3) == .breakEnding(5))
        #expect(search("ab\r\ncd", from: 0) == .breakEnding(3))
        #expect(search("ab\r\ncd", from: 2) == .breakEnding(3))
        #expect(search("ab\rcd\n", from: 0) == .breakEnding(2))
        #expect(search("a\r\nb\rc\n", from: 3) == .breakEnding(4))
        #expect(search("abc\r", from: 0) == .undecided(3))
        #expect(search("abc\r", from: 0, atEnd: true) == .breakEnding(3))
        #expect(search("abc", from: 0) == nil)
        #expect(search("ab\n", from: 3) == nil)
        #expect(search("", from: 0) == nil)
    }
}

@Suite struct LaunchLineScannerTests {
    /// Reads of 16, then 32 bytes leave the 48 bytes of an over-long line's start behind, and the buffer starts where
    /// `main()` does: that is no line's start. A line longer than the scanner's buffer is let go, and the search goes on
    /// past it.
    @Test func aPlaceInsideAnOverLongLineIsNoLineStart() throws {
        let text = String(repeating: "x", count: 48) + "main()\nmain()\n" + String(repeating: "w", count: 300_000)
            + "\nabc\nmain()\n"
        let path = try Fixtures.temporaryFile(text)
        let fd = open(path, O_RDONLY)
        defer { close(fd) }
        let scanner = LaunchLineScanner(fileDescriptor: fd, maxLineBytes: 40, firstReadBytes: 16)
        let isMain: (UnsafeRawBufferPointer) -> Bool = { $0.elementsEqual("main()".utf8) }
        #expect(try scanner.firstLine(from: 0, before: .max, where: isMain) == 55)
        let afterLongLine = text.utf8.count - "main()\n".utf8.count
        #expect(try scanner.firstLine(from: 62, before: .max, where: isMain) == afterLongLine)
    }
}

@Suite struct SectionWindowTests {
    /// Sections that record only counts and findings may run four times as far ahead of the replaying thread as
    /// sections that hold events or rendered session reports, whose memory the narrow window bounds; the shorter
    /// sections at a file's end cover two full sections a worker.
    @Test func sectionsOfFindingsOnlyMayRunFurtherAhead() {
        for jobs in 1...4 {
            #expect(Analyzer.sectionWindow(jobs: jobs, recordsFindingsOnly: false) == 2 * jobs + 2)
            #expect(Analyzer.sectionWindow(jobs: jobs, recordsFindingsOnly: true) == 8 * jobs + 8)
            #expect(Analyzer.sectionTaper(jobs: jobs, sectionBytes: 1 << 20) == 2 * jobs << 20)
        }
    }
}

@Suite struct LastSectionTests {
    /// The rest of a file goes to a worker only after a cut and when it is no longer than a worker's memory: a longer
    /// rest held for replay took 350 MB for JSON Lines of a 100 MB log whose launches all came first.
    @Test func onlyARestNoLongerThanASectionMayBeIsTheWorkersLastSection() {
        let section = 2 << 20
        #expect(!Analyzer.restIsLastSection(from: 0, fileSize: section, sectionBytes: section))
        #expect(Analyzer.restIsLastSection(from: 10, fileSize: 10 + 2 * section, sectionBytes: section))
        #expect(!Analyzer.restIsLastSection(from: 10, fileSize: 11 + 2 * section, sectionBytes: section))
        #expect(!Analyzer.restIsLastSection(from: 3 * section, fileSize: 100 * section, sectionBytes: section))
    }
}

@Suite struct IDReaderTests {
    /// Remembered ids are reused only for the same bytes split the same way, or the same tail stamp: a run of lines,
    /// changing one field at a time, long ids and missing ones, reads as each line read afresh, with no stamps and
    /// with stamps given as a header parser gives them (the same for a line like the one before it, new otherwise).
    @Test func idsReadAsEachLineAlone() {
        let lines = ["[1001:37048]", "[1001:37048]", "[1001:37049]", "[1002:37049]", "[100:237049]", "[1002:37049]",
                     "[12345678:0x1e4a1abc]", "[12345678:0x1e4a1abc]", "[1:2]", "[1:2]", "[9:]", "[1:2]"]
        for stamped in [false, true] {
            var reader = IDReader()
            let names = NameTable()
            var stamp: UInt64 = 0
            for (index, text) in lines.enumerated() {
                if index == 0 || text != lines[index - 1] { stamp += 1 }
                let bytes = Array(("P" + text).utf8)
                let colon = bytes.firstIndex(of: UInt8(ascii: ":"))!
                let pid = 2..<colon
                let tid = (colon + 1)..<(bytes.count - 1)
                let header = LineHeader(process: 0..<1, pid: pid, tid: tid.isEmpty ? nil : tid, message: bytes.count..<bytes.count)
                bytes.withUnsafeBytes { line in
                    let read = reader.read(line, header: header, tail: stamped ? stamp : 0, names: names)
                    #expect(read.pid == Int(decoding: line[pid]), "\(text)")
                    #expect(read.thread == (tid.isEmpty ? nil : ThreadID(line[tid])), "\(text)")
                    #expect(read.process.map { names[$0] } == "P", "\(text)")
                }
            }
        }
    }
}

@Suite struct CompiledPatternTests {
    /// A pattern is compiled once for every parser in the process: the same text and options give the same compiled
    /// pattern, other options another; one that does not compile throws each time it is asked for, and is not kept.
    @Test func aPatternIsCompiledOnceAndShared() throws {
        let text = "^(?<word>\\w+) compiled once \(UUID().uuidString)$"
        let first = try CompiledPatterns.pattern(text)
        #expect(try CompiledPatterns.pattern(text) === first)
        let anchored = try CompiledPatterns.pattern(text, options: [.anchored])
        #expect(anchored !== first)
        #expect(try CompiledPatterns.pattern(text, options: [.anchored]) === anchored)
        #expect(first.groupNumber(named: "word") == 1)
        for _ in 0..<2 {
            #expect(throws: PCRE2CompileError.self) { _ = try CompiledPatterns.pattern("(unclosed \(text)") }
        }
        // Two parsers matching with PCRE2 alone, each made on its own thread as a worker's are, share their patterns
        // and read a message the same at once.
        let line = Array("ViewController >>>> viewDidLoad".utf8)
        let results = Lock<[String]>([])
        let group = DispatchGroup()
        for _ in 0..<2 {
            DispatchQueue.global().async(group: group) {
                let parser = MessageParser(fastPath: false)
                let spelled = line.withUnsafeBytes { bytes in
                    (try? parser.parse(bytes, message: 0..<bytes.count)).map { "\($0.callback)" } ?? "none"
                }
                results.withLock { $0.append(spelled) }
            }
        }
        group.wait()
        #expect(results.withLock { $0 } == ["viewDidLoad", "viewDidLoad"])
    }
}
