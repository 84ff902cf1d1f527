import Foundation
import Testing
@testable import LCTraceKit

/// The hand-written matchers (the fast path) must decide every line exactly as the PCRE2 patterns do.
@Suite struct HandParserTests {
    /// Lines of every sample log, of generated logs in four formats, tricky messages, and seeded mutations of them.
    static func corpus() throws -> [[UInt8]] {
        var lines: [[UInt8]] = []
        let samples = try FileManager.default.contentsOfDirectory(atPath: Fixtures.sampleLogs.path).filter { $0.hasSuffix(".log") }
        for name in samples.sorted() {
            lines += try Data(contentsOf: URL(fileURLWithPath: Fixtures.sample(name))).split(separator: 0x0A).map(Array.init)
        }
        for (seed, format) in [(31, "nslog-classic"), (32, "nslog-modern"), (33, "log-compact"), (34, "bare")] {
            let log = try generatedLog(bytes: "40K", seed: seed, format: format)
            lines += try Data(contentsOf: URL(fileURLWithPath: log)).split(separator: 0x0A).map(Array.init)
        }
        let tricky = [
            "A >>>> viewWillAppear:animated", "A >> viewDidLoad()x", "A >>>> viewDidLoad(", "A >>>> view2(x y)",
            "A >>>> viewDidLoad()5", "A.B.C >>>> dealloc", "A] >>>> viewDidLoad", "A > viewDidLoad", "A >>>>",
            "A viewWillAppear(_:)", "A viewWillAppear(_: x)", "A viewWillAppear:", "A viewWillAppear: ", "A viewWillAppear:x",
            "A application:didFinishLaunchingWithOptions:", "A application:didFinishLaunchingWithOptions:x:", "A\tviewDidLoad\t",
            "  A viewDidLoad", "_A viewDidLoad", "9A viewDidLoad", "A. viewDidLoad", "A viewDidLoad more words",
            "-[A viewDidLoad]", "[A viewDidLoad()](38)", "<M.A: 0x7fab> viewDidLoad()", "A\u{0B}viewDidLoad",
            "A >>>>\u{0C}viewDidLoad", "Networking: GET /x -> 200", "A>>viewDidLoad", "A >>>> viewDidLoad:(", "A viewDidLoad()()",
            "UIHostingController<DetailView> viewDidLoad()", "UIHostingController<A<B>> >>>> viewDidAppear:", "A<B viewDidLoad()",
            "A<> viewDidLoad", "A<B>x viewDidLoad()", "A<B> viewWillAppear:", "A<B, C<D>>] >>>> viewDidLoad", "A<B<C<D<E<F<G>>>>>> viewDidLoad()",
            "<SwiftUI.UIHostingController<ModifiedContent<D, M<Optional<S>>>>: 0x7f> viewDidAppear(_:)", "-[A<B> viewDidLoad]",
        ]
        let header = "2016-03-17 16:02:37.277 LifeCycle[2148:117099] "
        let modern = "2024-02-09 09:14:03.118204+0100 ShopApp[4410:1e4a1x] "
        for message in tricky { lines += [Array(message.utf8), Array((header + message).utf8), Array((modern + message).utf8)] }
        let headers = ["2016-03-17 16:02:37 P[1:2]x", "2016-03-17 16:02:37.1234 P[1:2] x", "2016-03-17T16:02:37.277 P[1:2] x",
                       "2024-02-09 09:14:03.1182+01:00 P[1:2] x", "2024-02-09T09:14:03.118204Z P[1:2]", "2024-02-09 09:14:03.1182041234+0100 P[1:2] x",
                       "2016-03-17 16:02:37.277 P]x[1:2] x", "2016-03-17 16:02:37.277 [1:2] x", "2016-03-17 16:02:37.277 P[1:X] x",
                       "2016-03-17 16:02:37.277 P[1:0x1F]", "2016-03-17 16:02:37.277 P[:2] x", "2016-03-17 16:02:37.277 P[1:2 x"]
        lines += headers.map { Array($0.utf8) }
        // log's compact style: each type code, its spaces, the library and subsystem groups whole, broken or absent.
        let compact = ["2024-02-09 09:14:03.118 Df ShopApp[4410:1e4a1] [com.example.shop:lifecycle] A viewDidLoad()",
                       "2024-02-09 09:14:03.118 I  ShopApp[4410:1e4a1] (UIKitCore) A viewDidLoad()",
                       "2024-02-09 09:14:03.118 Fa ShopApp[4410:1e4a1] (UIKitCore) [s:c] A viewDidLoad()",
                       "2024-02-09 09:14:03.118 Fault ShopApp[4410:1e4a1] x", "2024-02-09 09:14:03.118 F ShopApp[4410:1e4a1] x",
                       "2024-02-09 09:14:03.118 Db  [4410:1e4a1] x", "2024-02-09 09:14:03.118 Db [4410:1e4a1] x",
                       "2024-02-09 09:14:03.118 D ShopApp[4410:1e4a1] x", "2024-02-09 09:14:03.118 Df ShopApp[4410:1e4a1]x",
                       "2024-02-09 09:14:03.118 Df ShopApp[4410:1e4a1] (UIKitCore)x", "2024-02-09 09:14:03.118 Df ShopApp[4410:1e4a1] (Lib [s:c] x",
                       "2024-02-09 09:14:03.118 Df ShopApp[4410:1e4a1] [s:c]", "2024-02-09 09:14:03.118 Df ShopApp[4410:1e4a1] [s:c] ",
                       "2024-02-09 09:14:03.118 Df ShopApp[4410:1e4a1] () [] x", "2024-02-09 09:14:03.11 Df ShopApp[4410:1e4a1] x",
                       "2024-02-09 09:14:03.1180 Df ShopApp[4410:1e4a1] x", "2024-02-09 09:14:03.118 A Shop App[4410:1e4a1] x",
                       "2024-02-09 09:14:03.118 E   ShopApp[4410:1e4a1] [s:c] (L) x", "2024-02-09 09:14:03.118 Df kernel[0:2] (x) (y) z"]
        lines += compact.map { Array($0.utf8) }
        // Bytes of 0x80 and more in every field read eight at a time, and a newline inside a compact group.
        let wide = ["2016-03-17 16:02:37.277 Lîfe Cycle Àpp[2148:117099] Contrôleur >>>> viewDidLoad",
                    "2016-03-17 16:02:37.277 LifeCycleApplication[2148:117099] ViewControllerÄÖÜ >>>> viewDidLoad",
                    "2016-03-17 16:02:37.277 LifeCycleApplication[21481234567:1170991234abcdef\u{e9}] A viewDidLoad()",
                    "2024-02-09 09:14:03.118 Df ShopApplication[4410:1e4a1] [com.example.shöp:lifecycle] A viewDidLoad()",
                    "2024-02-09 09:14:03.118 Df ShopApplication[4410:1e4a1] (UIKitCore\nmore) A viewDidLoad()",
                    "2024-02-09 09:14:03.118 Df ShopApplication[4410:1e4a1] [com.example.shop:life\ncycle] A viewDidLoad()",
                    "2024-02-09 09:14:03.118 Df ShopApplication[4410:1e4a1] (UIKitCore) [com.example.shop:lifecycle]"]
        lines += wide.map { Array($0.utf8) }
        let device = try generatedLog(bytes: "40K", seed: 35, format: "log-compact", options: ["--app-share", "0.1"])
        lines += try Data(contentsOf: URL(fileURLWithPath: device)).split(separator: 0x0A).map(Array.init)

        // Seeded mutations: bytes replaced by the characters the patterns care about, and truncations.
        lines += MutationRandom.mutations(of: lines, count: 6000, seed: 7, specials: Array("[]>:() .xX0Z+-T<\t\u{0B}_a9".utf8))
        return lines
    }

    @Test func headersMatchThePatterns() throws {
        let lines = try HandParserTests.corpus()
        for format in LineFormat.builtIn where format.handHeader != nil {
            let fast = try LineHeaderParser(format: format)
            let plain = try LineHeaderParser(format: format, fastPath: false)
            var matched = 0
            for line in lines {
                try line.withUnsafeBytes { bytes in
                    let expected = try plain.parse(bytes)
                    #expect(try fast.parse(bytes) == expected, "\(format.name): \(String(decoding: line, as: UTF8.self))")
                    if expected != nil { matched += 1 }
                }
            }
            #expect(matched > 1000, "\(format.name)")
        }
    }

    /// Consecutive headers that share their process and ids, or nearly do: a space more or less after the `]`, an id
    /// one digit longer, a tail past the remembered length, one byte changed. Each reads as the pattern reads it alone.
    @Test func headersAfterALikeHeaderReadAsAlone() throws {
        let time = "2016-03-17 16:02:37.277"
        let tails = [" ShopApp[1001:37048] A", " ShopApp[1001:37048] A", " ShopApp[1001:37048]A", " ShopApp[1001:37048]  A",
                     " ShopApp[1001:37048] ", " ShopApp[1001:37048]", " ShopApp[1001:370489] A", " ShopApp[10012:37048] A",
                     " ShopApp[1001:37048] A", " ShopApq[1001:37048] A", " AVeryLongProcessNameIndeed[1001:37048] A",
                     " AVeryLongProcessNameIndeed[1001:37048] A", " P[1:2] A", " P[1:2] A", " P[1:2]A", " ShopApp[1001:37048] A"]
        // Each line in turn, through one parser of each path, so that the fast one remembers the line before.
        func expectSameInTurn(_ lines: [String], format: LineFormat) throws {
            let fast = try LineHeaderParser(format: format)
            let plain = try LineHeaderParser(format: format, fastPath: false)
            for text in lines {
                try Array(text.utf8).withUnsafeBytes { bytes in
                    let expected = try plain.parse(bytes)
                    #expect(try fast.parse(bytes) == expected, "\(format.name): \(text)")
                }
            }
        }
        try expectSameInTurn(tails.flatMap { tail in ["", ".2"].map { time + $0 + tail } }, format: .nslogClassic)
        // Compact: the tail is remembered to its space; the library and subsystem after it are read on every line.
        let compactTails = [" Df ShopApp[1001:37048] [s:c] A", " Df ShopApp[1001:37048] (L) A", " Df ShopApp[1001:37048] A",
                            " Df ShopApp[1001:37048]A", " Df ShopApp[1001:37048] [s:c]A", " Df ShopApp[1001:37048] [s:c] A",
                            " I  ShopApp[1001:37048] A", " I ShopApp[1001:37048] A", " Df ShopApp[1001:37048] (L) [s:c] A",
                            " Df  [1001:37048] A", " Df  [1001:37048] A", " Df [1001:37048] A"]
        try expectSameInTurn(compactTails.map { time + $0 }, format: .logCompact)
        // Tails that change on every line long enough for the remembered one to rest, then the like tails above while
        // it rests and after, and changing ones again: each still reads as alone.
        let changing = (0..<(HeaderTail.missesBeforeRest + 5)).map { " Df P\($0)[\($0):a\($0)] [s:c] A" }
        let rested = changing + Array(repeating: compactTails, count: 2 * HeaderTail.restLines / compactTails.count + 1).flatMap { $0 }
            + changing + compactTails
        try expectSameInTurn(rested.map { time + $0 }, format: .logCompact)
        try expectSameInTurn(rested.map { time + $0.replacingOccurrences(of: " Df ", with: " ") }, format: .nslogClassic)
        // The rest itself: it begins with the `missesBeforeRest`th changing tail in a row and ends `restLines` later.
        var tail = HeaderTail()
        func parse(_ text: String) {
            _ = Array((time + text).utf8).withUnsafeBytes { HandHeader.logCompact.parse($0, from: 0, tail: &tail) }
        }
        for text in changing.prefix(HeaderTail.missesBeforeRest - 1) { parse(text) }
        #expect(!tail.isResting)
        parse(changing[HeaderTail.missesBeforeRest - 1])
        #expect(tail.isResting)
        for _ in 0..<HeaderTail.restLines { parse(compactTails[0]) }
        #expect(!tail.isResting)
    }

    /// A tail's stamp stays while lines repeat it, is new for every tail remembered (the tail before it too, when it
    /// comes back) and is 0 while the tail rests.
    @Test func tailStampNamesTheTailOfLinesInARow() {
        let time = "2024-02-09 09:14:03.118"
        var tail = HeaderTail()
        func stamp(_ text: String, _ header: HandHeader = .nslogClassic) -> UInt64 {
            let read = Array((time + text).utf8).withUnsafeBytes { header.parse($0, from: 0, tail: &tail) }
            #expect(read != nil, "\(text)")
            return tail.stamp
        }
        let first = stamp(" ShopApp[1001:37048] A >>>> viewDidLoad")
        #expect(first != 0)
        #expect(stamp(" ShopApp[1001:37048] other logging") == first)
        let other = stamp(" ShopApp[1001:99] A >>>> viewDidLoad")
        #expect(other != first && other != 0)
        let again = stamp(" ShopApp[1001:37048] A >>>> viewWillAppear:")
        #expect(again != first && again != other)
        #expect(stamp(" ShopApp[1001:37048]  a message starting with a space") == again)
        // Changing tails until the tail rests: every line while it does has no stamp.
        for n in 0..<HeaderTail.missesBeforeRest { _ = stamp(" Df P\(n)[\(n):a\(n)] [s:c] A", .logCompact) }
        #expect(tail.isResting)
        for _ in 0..<HeaderTail.restLines { #expect(stamp(" Df ShopApp[1001:37048] A", .logCompact) == 0) }
        #expect(stamp(" Df ShopApp[1001:37048] A", .logCompact) != 0)
    }

    /// Remembered bytes compare equal to exactly the same bytes: every length it keeps, a change at every position,
    /// and one byte more or less.
    @Test func rememberedBytesEqualOnlyTheSameBytes() {
        let source = (0..<40).map { UInt8(0x41 + $0 % 26) }
        for count in 1...RememberedBytes.capacity {
            var remembered = RememberedBytes()
            source.withUnsafeBytes { remembered.remember($0.baseAddress!, count: count) }
            source.withUnsafeBytes { bytes in
                #expect(remembered.equals(bytes.baseAddress!, count: count), "length \(count)")
                #expect(!remembered.equals(bytes.baseAddress!, count: count - 1), "length \(count), one less")
                #expect(!remembered.equals(bytes.baseAddress!, count: count + 1), "length \(count), one more")
            }
            for position in 0..<count {
                var changed = source
                changed[position] ^= 0x20
                changed.withUnsafeBytes { bytes in
                    #expect(!remembered.equals(bytes.baseAddress!, count: count), "length \(count), changed at \(position)")
                }
            }
        }
        var beyond = RememberedBytes()
        source.withUnsafeBytes { beyond.remember($0.baseAddress!, count: RememberedBytes.capacity + 1) }
        source.withUnsafeBytes { #expect(!beyond.equals($0.baseAddress!, count: RememberedBytes.capacity + 1)) }
    }

    /// Skipping a byte class eight bytes at a time stops where the table says, for every class, every byte and every
    /// place in a word: the byte in question sits at each place of a run of the class long enough to be read by
    /// words, with and without a byte of 0x80 or more after it (which sends the scan back to the table).
    @Test func skippingByWordsStopsWhereTheTableSays() {
        let classes: [(String, HandParsers.ByteClass, UInt8)] = [
            ("digit", .digit, 0x37), ("nameStart", .nameStart, 0x61), ("word", .word, 0x5F), ("space", .space, 0x20),
            ("hexOrX", .hexOrX, 0x78), ("nameBody", .nameBody, 0x2E), ("wordOrColon", .wordOrColon, 0x3A),
            ("processName", .processName, 0x50),
        ]
        for (name, byteClass, filler) in classes {
            for byte in 0...255 {
                func inClass(_ byte: UInt8) -> Bool { HandParsers.byteClasses[Int(byte)] & byteClass.rawValue != 0 }
                #expect(inClass(filler), "\(name): filler")
                for place in 0..<20 {
                    for tail: [UInt8] in [[], [0xC3, 0xA9]] {
                        let line = [UInt8](repeating: filler, count: place) + [UInt8(byte)] + [UInt8](repeating: filler, count: 9) + tail
                        let stop = line.withUnsafeBytes { ClassScanner($0).skip(byteClass, from: 0, to: $0.count) }
                        let expected = line.firstIndex { !inClass($0) } ?? line.count
                        #expect(stop == expected, "\(name): byte \(byte) at \(place), tail \(tail)")
                    }
                }
            }
        }
    }

    /// Finding the first of two bytes eight at a time finds the first, for every byte and place, past bytes of any
    /// value.
    @Test func findingEitherOfTwoBytesFindsTheFirst() {
        for byte in 0...255 {
            for place in 0..<20 {
                // Bytes before it of many values, 0x80 and above among them, none of the two looked for.
                var line: [UInt8] = (0..<place).map { (index: Int) -> UInt8 in
                    let before = UInt8((index * 37 + 0x80) % 256)
                    return before == 0x5D || before == 0x0A ? 0x41 : before
                }
                line.append(UInt8(byte))
                line += Array("abc]x\ndef".utf8)
                let found = line.withUnsafeBytes { ClassScanner($0).firstIndex(of: 0x5D, or: 0x0A, from: 0, to: $0.count) }
                let expected = byte == 0x5D || byte == 0x0A ? place : place + 4
                #expect(found == expected, "byte \(byte) at \(place)")
            }
        }
        let none = Array("no such byte here at all".utf8)
        #expect(none.withUnsafeBytes { ClassScanner($0).firstIndex(of: 0x5D, or: 0x0A, from: 3, to: $0.count) } == none.count)
    }

    /// The name cache finds every key it kept after growing its table many times over, finds no key it was not
    /// given, and keeps no more than its limit.
    @Test func byteStringCacheKeepsEveryKeyAcrossGrowthUpToItsLimit() {
        let limit = 300
        let cache = ByteStringCache<Int>(limit: limit)
        let keys = (0..<400).map { Array("Controller\($0)ViewController".utf8) }
        for (number, key) in keys.enumerated() {
            #expect(key.withUnsafeBytes { cache.store(number, for: $0) } == (number < limit), "key \(number)")
        }
        #expect(keys[0].withUnsafeBytes { cache.store(-1, for: $0) } == false, "a key already kept")
        for (number, key) in keys.enumerated() {
            let found = key.withUnsafeBytes { cache.value(for: $0) }
            #expect(found == (number < limit ? number : nil), "key \(number)")
        }
        Array("ControllerViewController".utf8).withUnsafeBytes { #expect(cache.value(for: $0) == nil) }
    }

    /// Every byte of a key reaches its hash, at every length the word-at-a-time hash reads differently (under eight
    /// bytes, eight to sixteen, and past sixteen with an overlapping last pair of words): a key and the same key with
    /// any one byte changed hash differently.
    @Test func byteHashTakesInEveryByteOfTheKey() {
        for length in 1...56 {
            let key = (0..<length).map { UInt8(0x41 + $0 % 26) }
            let hash = key.withUnsafeBytes { ByteHash.of($0) }
            for position in 0..<length {
                for change: UInt8 in [0x01, 0x20, 0x80] {
                    var changed = key
                    changed[position] ^= change
                    #expect(changed.withUnsafeBytes { ByteHash.of($0) } != hash, "length \(length), byte \(position) ^ \(change)")
                }
            }
            let longer = key + [0x41]
            #expect(longer.withUnsafeBytes { ByteHash.of($0) } != hash, "length \(length) and one more byte")
        }
    }

    /// Ordinary messages take at most half of the parser's memory of messages: a log whose ordinary lines never repeat
    /// still leaves room for the lifecycle messages that come after them, and what a message is read as does not
    /// depend on whether it was remembered.
    @Test func ordinaryMessagesCannotCrowdLifecycleMessagesOut() throws {
        let parser = MessageParser()
        func read(_ text: String) throws -> MessageReading {
            var bytes = Array(text.utf8)
            return try bytes.withUnsafeMutableBytes { try parser.read(UnsafeRawBufferPointer($0), message: 0..<$0.count) }
        }
        for number in 0..<9_000 {
            guard case .other = try read("cache hit ratio \(number) of \(number * 7) entries") else {
                Issue.record("ordinary message \(number)"); return
            }
        }
        #expect(parser.rememberedMessages.lifecycle == 0 && parser.rememberedMessages.other == 4096)
        for number in 0..<5_000 {
            for _ in 0..<2 {
                guard case .message(let message, _) = try read("Controller\(number)ViewController >>>> viewDidAppear:") else {
                    Issue.record("lifecycle message \(number)"); return
                }
                #expect(message.callback == .viewDidAppear)
            }
        }
        #expect(parser.rememberedMessages.lifecycle == 4096 && parser.rememberedMessages.other == 4096)
        guard case .other = try read("cache hit ratio 1 of 7 entries") else { Issue.record("remembered ordinary message"); return }
    }

    /// The whole report, byte for byte, with and without the hand-written matchers.
    @Test func reportsAreTheSameWithoutTheFastPath() throws {
        for (seed, format) in [(41, "nslog-classic"), (42, "nslog-modern")] {
            let log = try generatedLog(bytes: "300K", seed: seed, format: format)
            func report(handParsers: Bool) throws -> String {
                var options = AnalysisOptions()
                options.matchers = handParsers ? .fastPath : .exactOnly
                let output = Output()
                let analyzer = try Analyzer(options: options, reporter: JSONReporter(output: output, includeEvents: true))
                try analyzer.analyze(.file(log))
                analyzer.finish()
                return output.text
            }
            let fast = try report(handParsers: true)
            #expect(fast == (try report(handParsers: false)), "\(format)")
            #expect(fast.count > 100_000)
        }
    }

    @Test func messagesMatchThePattern() throws {
        let lines = try HandParserTests.corpus()
        let fast = MessageParser()
        let plain = MessageParser(fastPath: false)
        var recognised = 0
        for line in lines {
            try line.withUnsafeBytes { bytes in
                // The whole line as a message, and the message after each header the line may have.
                var starts = [0]
                for format in LineFormat.builtIn {
                    if let header = try LineHeaderParser(format: format, fastPath: false).parse(bytes) { starts.append(header.message.lowerBound) }
                }
                for start in starts {
                    let expected = try plain.parse(bytes, message: start..<bytes.count)
                    #expect(try fast.parse(bytes, message: start..<bytes.count) == expected, "\(String(decoding: line, as: UTF8.self))")
                    if expected != nil { recognised += 1 }
                }
            }
        }
        #expect(recognised > 3000)
    }
}

/// A small seeded generator (Knuth's MMIX linear congruential one, high bits), so the mutations are the same on
/// every run.
struct MutationRandom {
    private var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
        return state >> 29
    }

    /// `count` lines drawn from `base`, each with one to three bytes replaced by one of `specials` (the characters
    /// the patterns care about) and one in four cut short; the same lines for the same seed.
    static func mutations(of base: [[UInt8]], count: Int, seed: UInt64, specials: [UInt8]) -> [[UInt8]] {
        var random = MutationRandom(seed: seed)
        var lines: [[UInt8]] = []
        for _ in 0..<count {
            var line = base[Int(random.next() % UInt64(base.count))]
            guard !line.isEmpty else { continue }
            for _ in 0..<(1 + Int(random.next() % 3)) {
                line[Int(random.next() % UInt64(line.count))] = specials[Int(random.next() % UInt64(specials.count))]
            }
            if random.next() % 4 == 0 { line = Array(line.prefix(Int(random.next() % UInt64(line.count + 1)))) }
            lines.append(line)
        }
        return lines
    }
}
