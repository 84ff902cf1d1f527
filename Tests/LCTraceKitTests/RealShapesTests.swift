import Foundation
import Testing
import PCRE2
@testable import LCTraceKit
@testable import lctrace_loggen

/// Console output shaped like what developers publish (`Fixtures/real-shapes`): every line must be read as its
/// `.expect` file says, with its disposition, controller class and callback.
@Suite struct RealShapesTests {
    static let directory = Fixtures.repositoryRoot.appendingPathComponent("Tests/LCTraceKitTests/Fixtures/real-shapes")

    static var fixtures: [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? [])
            .filter { $0.hasSuffix(".log") }.map { String($0.dropLast(4)) }.sorted()
    }

    /// A row of an `.expect` file: `LINE<TAB>DISPOSITION<TAB>CLASS<TAB>CALLBACK`, `-` for none.
    struct Expected: Equatable, CustomStringConvertible {
        var line: Int, disposition: String, className: String, callback: String
        var description: String { "\(line) \(disposition) \(className) \(callback)" }
    }

    static func expected(_ name: String) throws -> [Expected] {
        let text = try String(contentsOf: directory.appendingPathComponent(name + ".expect"), encoding: .utf8)
        return text.split(separator: "\n").filter { !$0.hasPrefix("#") }.map { row in
            let cells = row.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            return Expected(line: Int(cells[0]) ?? -1, disposition: cells[1], className: cells[2], callback: cells[3])
        }
    }

    /// What lctrace read, in the `.expect` shape: the anonymous class is `-`, UIKit's notices by their short names.
    static func read(_ name: String, jobs: Int = 1) throws -> [Expected] {
        var readings: [Expected] = []
        let analyzer = try Analyzer(options: AnalysisOptions(), reporter: RecordingSink())
        analyzer.lineObserver = { reading in
            var className = reading.className ?? "-"
            if className == MessageParser.anonymousClass { className = "-" }
            var callback = reading.callback?.rawValue ?? "-"
            if reading.disposition != "lifecycle", reading.disposition != "notice" { (className, callback) = ("-", "-") }
            if let notice = reading.callback?.noticeName { callback = notice }
            if reading.callback?.family == .marker { className = "-" }
            readings.append(Expected(line: reading.line, disposition: reading.disposition, className: className, callback: callback))
        }
        try analyzer.analyze(.file(directory.appendingPathComponent(name + ".log").path))
        analyzer.finish()
        return readings
    }

    /// Every fixture gives the same report with the plain PCRE2 path as with the hand-written matchers.
    @Test(arguments: Self.fixtures)
    func theFastPathChangesNothing(_ name: String) throws {
        let path = Self.directory.appendingPathComponent(name + ".log").path
        #expect(try analysisReport(of: path) == (try analysisReport(of: path, handParsers: false)))
    }

    /// All the fixtures in one file, each opened by a launch so that the file is cut into sections there: the same
    /// report, byte for byte, on one thread as in sections on two.
    @Test func sectionsOfTheFixturesChangeNothing() throws {
        var text = ""
        for (index, name) in Self.fixtures.enumerated() {
            text += "2024-02-09 08:00:00.000 Fixture\(index)[\(100 + index):1] main()\n"
            text += try String(contentsOf: Self.directory.appendingPathComponent(name + ".log"), encoding: .utf8)
        }
        let path = try Fixtures.temporaryFile(text + text)
        let one = try analysisReport(of: path)
        let two = try analysisReport(of: path, jobs: 2)
        #expect(one == two)
        if one != two, let dir = ProcessInfo.processInfo.environment["LCTRACE_DIFF_DIR"] {
            try one.write(toFile: dir + "/one.json", atomically: true, encoding: .utf8)
            try two.write(toFile: dir + "/two.json", atomically: true, encoding: .utf8)
        }
        #expect(one.count > 100_000)
    }

    @Test func thereAreFixtures() {
        #expect(Self.fixtures.count >= 15)
    }

    @Test(arguments: Self.fixtures)
    func everyLineIsReadAsExpected(_ name: String) throws {
        let expected = try Self.expected(name)
        let read = try Self.read(name)
        #expect(read.count == expected.count, "\(name): \(read.count) lines read, \(expected.count) expected")
        for (got, want) in zip(read, expected) where got != want {
            Issue.record("\(name).log:\(want.line): read \(got), expected \(want)")
        }
    }
}

extension Callback {
    /// The short names the fixtures give UIKit's notices.
    var noticeName: String? {
        switch self {
        case .unbalancedAppearanceNotice: return "unbalanced-appearance"
        case .appearanceCalledDirectlyNotice: return "appearance-called-directly"
        case .presentNotInWindowNotice: return "present-not-in-window"
        case .presentWhilePresentingNotice: return "present-while-presenting"
        case .presentWhileTransitioningNotice: return "present-while-transitioning"
        case .dismissWhileTransitioningNotice: return "dismiss-while-transitioning"
        case .presentOnDetachedNotice: return "present-on-detached"
        case .presentAlreadyPresentedNotice: return "present-already-presented"
        default: return nil
        }
    }
}

@Suite struct MessageShapeTests {
    /// Each identity shape reads its own samples as it says, through the whole message parser.
    @Test func shapesReadTheirSamples() throws {
        let parser = MessageParser()
        for shape in IdentityShape.all {
            for sample in shape.samples {
                let bytes = Array(sample.message.utf8)
                let message = try bytes.withUnsafeBytes { try parser.parse($0, message: 0..<$0.count) }
                let read = try #require(message, "\(shape.name): \(sample.message) is not read")
                let expectedClass = sample.className.map { name in Array(name.utf8).withUnsafeBytes { ReportedClassName.of($0[...]) } }
                    ?? MessageParser.anonymousClass
                #expect(read.className == expectedClass, "\(shape.name): \(sample.message)")
                #expect(read.address == sample.address?.lowercased(), "\(shape.name): \(sample.message)")
            }
        }
    }

    @Test func sentencesAndNoiseAreNotEvents() throws {
        let parser = MessageParser()
        for text in ["Failed to call viewDidLoad on reload", "Skipping applicationDidBecomeActive work: no session yet",
                     "+[CartViewController initialize]", "__39-[ViewController viewDidLoad]_block_invoke",
                     "presented BlueViewController", "-[FirstView layoutSubviews]", "self.viewDidLoad()", "deinit"] {
            let bytes = Array(text.utf8)
            #expect(try bytes.withUnsafeBytes { try parser.parse($0, message: 0..<$0.count) } == nil, "\(text)")
        }
    }

    /// The cheap test before the vocabulary search never turns away a message the search would match.
    @Test func prefilterNeverHidesAMatch() throws {
        #expect(LooseMessageReader.baseNames.allSatisfy { $0.utf8.count >= 4 })
        let vocabulary = PCRE2Matcher(try PCRE2Pattern(LooseMessageReader.vocabularyPattern))
        var texts = try RealShapesTests.fixtures.flatMap { name in
            try String(contentsOf: RealShapesTests.directory.appendingPathComponent(name + ".log"), encoding: .utf8)
                .split(separator: "\n").map(String.init)
        }
        var random = SeededGenerator(state: 148)
        for base in LooseMessageReader.baseNames {
            texts += ["x" + base, "x " + base, base + "x", "_" + base + "()", "$" + base, "(" + base + ":", String(base.dropLast())]
            texts.append(String((0..<12).map { _ in "av iepsw-d_l(".randomElement(using: &random)! }) + base)
        }
        for text in texts {
            let bytes = Array(text.utf8)
            try bytes.withUnsafeBytes { raw in
                let matches = try vocabulary.matches(raw)
                let candidate = LooseMessageReader.firstPossibleCallback(in: raw[...])
                if matches { #expect(candidate != nil && candidate! <= vocabulary.matchedRange!.lowerBound, "\(text)") }
            }
        }
    }

    /// The eight-bytes-at-a-time scan finds exactly the place a byte-by-byte reading of its rule finds: the first
    /// lower-case letter that follows no word byte (or starts the slice) and begins a base name's first four bytes.
    @Test func prefilterIsExact() {
        let prefixes = Set(LooseMessageReader.baseNames.map { Array($0.utf8.prefix(4)) })
        func isWord(_ byte: UInt8) -> Bool {
            (0x30...0x39).contains(byte) || (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte) || byte == 0x5F || byte == 0x24
        }
        func reference(_ bytes: [UInt8], from: Int) -> Int? {
            guard bytes.count - from >= 4 else { return nil }
            for index in from...(bytes.count - 4) where (0x61...0x7A).contains(bytes[index]) {
                if index > from, isWord(bytes[index - 1]) { continue }
                if prefixes.contains(Array(bytes[index..<(index + 4)])) { return index }
            }
            return nil
        }
        let pieces: [[UInt8]] = LooseMessageReader.baseNames.map { Array($0.utf8) } + ["a", "Z", "9", "_", "$", " ", ":", "(", "-", "é", "\u{1F600}", "x", "view", "init"].map { Array($0.utf8) }
            + [[0x80], [0xFF], [0x00], [0x7F], [0x60], [0x7B], [0x40], [0x5B], [0x2F], [0x3A]]
        var random = SeededGenerator(state: 180)
        for _ in 0..<20_000 {
            var bytes: [UInt8] = []
            for _ in 0..<Int.random(in: 0...6, using: &random) { bytes += pieces.randomElement(using: &random)! }
            let from = Int.random(in: 0...min(3, bytes.count), using: &random)
            let found = bytes.withUnsafeBytes { LooseMessageReader.firstPossibleCallback(in: $0[from...]) }
            #expect(found == reference(bytes, from: from), "\(bytes) from \(from)")
        }
    }

    /// The vocabulary's trie, built by sorting bytes, is the one a plain grouping by first letter builds.
    @Test func theTrieIsThePlainGrouping() {
        func grouping(_ words: [String]) -> String {
            let groups = Dictionary(grouping: words.filter { !$0.isEmpty }) { $0.first! }
            let branches = groups.keys.sorted().map { first -> String in
                let rests = groups[first]!.map { String($0.dropFirst()) }
                let longer = rests.filter { !$0.isEmpty }
                guard !longer.isEmpty else { return String(first) }
                let tail = grouping(longer)
                return String(first) + (rests.contains("") ? "(?:\(tail))?" : tail)
            }
            return branches.count == 1 ? branches[0] : "(?:" + branches.joined(separator: "|") + ")"
        }
        let names = Array(LooseMessageReader.baseNames)
        #expect(LooseMessageReader.trie(names) == grouping(names))
        #expect(LooseMessageReader.trie(["pop", "popTo", "push", "pop"]) == "p(?:op(?:To)?|ush)")
    }

    @Test func mangledSwiftNamesGiveTheirLastName() {
        func name(_ text: String) -> String { Array(text.utf8).withUnsafeBytes { ReportedClassName.of($0[...]) } }
        #expect(name("_TtCV14__lldb_expr_9010SampleView11Coordinator") == "Coordinator")
        #expect(name("_TtC7ShopApp21ReceiptViewController") == "ReceiptViewController")
        #expect(name("__lldb_expr_90.SampleUIViewController") == "SampleUIViewController")
        #expect(name("_TtC7ShopApp99Short") == "_TtC7ShopApp99Short")
    }

    @Test func controllerNames() {
        for name in ["DetailViewController", "SettingsVC", "vc1", "VC3", "Table view controller"] {
            #expect(LooseMessageReader.isControllerName(name), "\(name)")
        }
        for name in ["FirstView", "Presenter", "Coordinator", "AppDelegate"] {
            #expect(!LooseMessageReader.isControllerName(name), "\(name)")
        }
    }
}

@Suite struct LineHeaderRecognizerTests {
    func formats(_ lines: [String]) throws -> [String] {
        let recognizer = try LineHeaderRecognizer(.automatic)
        return try lines.map { line in
            _ = try Array(line.utf8).withUnsafeBytes { try recognizer.parse($0) }
            return recognizer.lastFormat.name
        }
    }

    /// The format of the line before is only a hint: a compact line after classic ones is still compact.
    @Test func formatsMayChangeBetweenLines() throws {
        #expect(try formats([
            "2016-03-17 16:02:37.277 LifeCycle[2148:117099] ViewController >>>> viewDidLoad",
            "2024-02-09 08:50:41.002 Df ShopApp[4388:1e4a1] main()",
            "2016-03-17 16:02:37.277 LifeCycle[2148:117099] ViewController >>>> viewDidLoad",
            "    2016-03-17 16:02:37.277 LifeCycle[2148:117099] indented",
            "LifeCycle[2148:117099] no date",
            "[7397:f803] ids only",
            "16:02:37.277 time of day",
            "2016-03-17 16:02:37.277 LifeCycle[2148:117099] back to classic",
            "no header at all",
        ]) == ["nslog-classic", "log-compact", "nslog-classic", "nslog-classic", "process-header", "ids-header", "time-of-day",
               "nslog-classic", "bare"])
    }
}
