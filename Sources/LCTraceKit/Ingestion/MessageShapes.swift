import PCRE2

/// What a message that is not a lifecycle event was taken for, and why.
public enum OtherReason: String, Sendable, CaseIterable {
    /// No lifecycle callback, intent or marker is named in it.
    case noCallback = "no lifecycle callback named"
    /// `+[Class selector]`: a class method, not a callback of an instance.
    case classMethod = "a class method (+[…]), not an instance's callback"
    /// A block inside a method (`__39-[C viewDidLoad]_block_invoke`), not the callback itself.
    case blockInvoke = "a block inside the method (_block_invoke), not the callback"
    /// init, dealloc or deinit of a class that is not a view controller (see `ControllerClassFilter`).
    case notAController = "init/dealloc of a class not named like a view controller and not seen with a view-controller callback in this launch"
    /// init, dealloc or deinit with no class named.
    case sharedCallbackWithoutClass = "init/dealloc with no class named"
    /// A logger's function field (`[ViewController.swift:36] viewDidLoad() > …`) on a line logged from inside a call
    /// an earlier line began (`InvocationTracker`): context of that call, not a new one. `lctrace lines` names the call.
    case insideCall = "logged from inside a call an earlier line of the same source file began, not a new call"
}

/// Why a message that names a lifecycle callback could not be read as one.
public enum UnreadReason: String, Sendable, CaseIterable {
    /// The text before the callback is a sentence, not a controller's name or a tag.
    case noControllerBefore = "the text before the callback names no controller"
    /// The run has met more distinct names of one kind (class names, callback spellings, instance ids, notices) than it
    /// keeps (`NameTable.limit`).
    case tooManyNames = "more distinct class names, spellings, instance ids or notices than lctrace keeps (65536 of each)"
    /// os_log printed `<private>` (or `<mask.hash: '…'>`) where the class or the callback would be
    /// (`RedactionShape`): the name was not logged.
    case redacted = "os_log redacted it; log the name with `privacy: .public`"
}

/// A loose reading of a message: a lifecycle callback found anywhere in it, and the controller named around it.
struct LooseReading {
    var selector: Range<Int>
    /// The class as logged (with its module, or a Swift mangled name); nil when the message names none.
    var className: Range<Int>?
    /// An instance address (`0x…`) or id (a UUID) logged with it.
    var address: Range<Int>?
    /// The source file and line a logger printed with the function (`[ViewController.swift:34] viewDidLoad()`); nil
    /// when the shape has no line.
    var source: (file: Range<Int>, line: Range<Int>)?
}

/// One way a message names its controller around the callback: a row of `IdentityShape.all`.
///
/// Before-shapes are matched against the text before the callback's name (they end where it starts), after-shapes
/// against the text after it. Groups: `class`, and optionally `address` (`0x…`) or `id` (a UUID) and `sign` (`+`
/// for a class method); a logger's source position as `file` and `line` (the line may be in `followedBy`).
struct IdentityShape {
    enum Side { case before, after }
    /// What a match means.
    enum Meaning {
        /// The class (and address) of the controller.
        case controller
        /// The class must also look like a controller's (`ControllerClassFilter.isNamedLikeController`) or start with
        /// an upper-case letter: a plain word before a callback is otherwise the end of a sentence.
        case plausibleController
        /// Only tags before the callback: the message names no controller here.
        case tagsOnly
    }

    let name: String
    let side: Side
    let meaning: Meaning
    let pattern: String
    /// A before-shape that also needs the text right after the callback's name to match this (from `\G`, where the
    /// name ends): SwiftyBeaver's `$N.$F:$l` puts the source line there. Nil when any text may follow.
    var followedBy: String? = nil
    /// Messages this shape reads, with the class and address it reads in them (checked by tests).
    let samples: [(message: String, className: String?, address: String?)]

    /// A class as logged: a Swift module path or a mangled name is allowed, and a generic class's arguments
    /// (`MessageParser.genericArguments`).
    static let name = #"[A-Za-z_$][\w.$]*"# + MessageParser.genericArguments
    /// What may stand before a message: spaces, bracketed or parenthesised tags (`[INFO]`), digits, punctuation,
    /// arrows, emoji and non-ASCII labels (`方法:`), anything but an ASCII letter or the start of an object.
    static let tags = #"(?:\s|\[[^\]\n]*\]|\([^)\n]*\)|[^\sA-Za-z_\[(<])*"#
    /// `tags`, at most 64 of them: for lines that need not name a callback (os_log's redaction), so that a long run of
    /// punctuation is given up at once rather than tried to the depth of PCRE2's stack.
    static let boundedTags = #"(?:\s|\[[^\]\n]*\]|\([^)\n]*\)|[^\sA-Za-z_\[(<]){0,64}"#
    static let address = #"0x[0-9A-Fa-f]+"#
    /// A source file's name as loggers print it, as `file`, with the class the file is named after as `class` (an
    /// extension's file, `ViewController+Setup.swift`, is named after its class before the `+`).
    static let sourceFileName = #"(?<file>(?<class>[A-Za-z_$][\w$]*)(?:\+[\w$+]*)?\.(?:swift|mm?))"#
    /// Directories before a source file's name (`#file`, `#fileID`): inside brackets, any but brackets; elsewhere,
    /// words from a letter on (so that no tag before them can be read as a directory, and a long run of punctuation
    /// is not tried at every place).
    static let bracketedDirectories = #"(?:[^\[\]\n/]*/)*"#
    static let directories = #"(?:[A-Za-z_~][^\s\[\]/]*+/)*"#
    static let uuid = #"[0-9A-Fa-f]{8}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{12}"#

    /// In the order they are tried.
    static let all: [IdentityShape] = [
        IdentityShape(
            name: "objc-method-after-source", side: .before, meaning: .controller,
            // `File.m (41): `, `File.m (line: 41) `, `File.m:41 `, `[File.m:41] ` before `__PRETTY_FUNCTION__`.
            pattern: #"(?<![\w$+])(?<file>[A-Za-z_$][\w$+]*\.(?:mm?|swift))(?|\s*\((?:line:?\s*)?(?<line>\d+)\)|:(?<line>\d+)\]?)\s*:?\s*(?<sign>[-+])\[(?<class>\#(name))(?:\s*\([^)\n]*\))?\s+\z"#,
            samples: [("INFO: CheckoutVC.m (41): -[CheckoutVC viewDidLoad]: start", "CheckoutVC", nil),
                      ("CheckoutVC.m:47 -[CheckoutVC viewWillAppear:] items: 3", "CheckoutVC", nil),
                      ("[CartVC.m:88] -[CartVC viewDidAppear:]", "CartVC", nil)]),
        IdentityShape(
            name: "objc-method", side: .before, meaning: .controller,
            pattern: #"(?<sign>[-+])\[(?<class>\#(name))(?:\s*\([^)\n]*\))?\s+\z"#,
            samples: [("111-[ViewController viewDidLoad]", "ViewController", nil),
                      ("方法:-[ViewController loadView]", "ViewController", nil),
                      ("[INFO] (-[CartVC viewWillDisappear:]) - Called for object <CartVC: 0x8b37770>, animated = YES", "CartVC", "0x8b37770")]),
        IdentityShape(
            name: "object", side: .before, meaning: .controller,
            // Not a generic class's arguments (`UIHostingController<DetailView>`): no name right before the `<`.
            pattern: #"(?<![\w$.])<(?<class>\#(name))(?::\s*(?<address>\#(address)))?>[^\w<(\[]*\z"#,
            samples: [("<App.DetailViewController: 0x7fd3e1c0a600>    >>>>    viewDidLoad", "App.DetailViewController", "0x7fd3e1c0a600"),
                      ("--> <_TtCV14__lldb_expr_9010SampleView11Coordinator: 0x600003f0c000> viewDidLoad()", "_TtCV14__lldb_expr_9010SampleView11Coordinator", "0x600003f0c000")]),
        IdentityShape(
            name: "source-bracket", side: .before, meaning: .controller,
            pattern: #"\G\#(tags)\[\#(bracketedDirectories)\#(sourceFileName):(?<line>\d+)\]\s*\z"#,
            samples: [("[ViewController.swift:34] viewDidLoad()", "ViewController", nil),
                      ("2024-02-09 09:14:03.118 [Debug] [main] [FeedViewController.swift:34] viewDidLoad() > loading feed", "FeedViewController", nil),
                      ("[Info] [ShopApp/Checkout/CartViewController+Layout.swift:12] viewWillLayoutSubviews() > sizing", "CartViewController", nil)]),
        IdentityShape(
            name: "source-dotted-line", side: .before, meaning: .controller,
            pattern: #"\G\#(tags)(?:[A-Z]{3,}:?\s+)?(?<file>(?<class>[A-Za-z_$][\w$]*)(?:\+[\w$+]*)?)\.\z"#,
            followedBy: #"\G:(?<line>\d+)"#,
            samples: [("ProfileViewController.viewDidLoad():34 - loading", "ProfileViewController", nil),
                      ("💚 DEBUG SettingsViewController.viewWillAppear(_:):52 - showing", "SettingsViewController", nil)]),
        IdentityShape(
            name: "dotted", side: .before, meaning: .plausibleController,
            pattern: #"\G\#(tags)(?<class>\#(name))\.\z"#,
            samples: [("ProfileViewController.viewDidAppear(_:)", "ProfileViewController", nil)]),
        IdentityShape(
            name: "arrow", side: .before, meaning: .controller,
            pattern: #"\G\#(tags)\[?(?<class>\#(name))\]?\s*(?:>{2,}|-+>|=+>|→)\s*\z"#,
            samples: [("12: HomeViewController >>>> viewWillAppear:", "HomeViewController", nil),
                      ("🚀 HomeViewController -> viewDidLoad", "HomeViewController", nil)]),
        IdentityShape(
            name: "label", side: .before, meaning: .controller,
            pattern: #"\G\#(tags)(?<class>\#(name))\s*(?:[:|]|-{1,2}|–|—)\s*\z"#,
            samples: [("vc1: viewDidLoad", "vc1", nil), ("vc1 – viewDidLoad", "vc1", nil),
                      ("[Lifecycle] SettingsVC - viewWillAppear(_:)", "SettingsVC", nil)]),
        IdentityShape(
            name: "phrase", side: .before, meaning: .controller,
            pattern: #"\G\#(tags)(?<class>(?:[A-Za-z]\w*\s+){0,3}(?i:controller))\s+\z"#,
            samples: [("Table view controller viewWillAppear called", "Table view controller", nil)]),
        IdentityShape(
            name: "source-file", side: .before, meaning: .controller,
            pattern: #"\G\#(tags)(?<file>(?<class>[A-Za-z_$][\w$]*)\.(?:swift|mm?))\b(?:\s*\((?:line:?\s*)?(?<line>\d+)\))?[^\n]*?(?:::|[:|\-–])\s*\z"#,
            samples: [("DetailViewController.swift (line: 88) :: deinit :: has deinitialized", "DetailViewController", nil)]),
        IdentityShape(
            name: "source-file-backtick", side: .before, meaning: .controller,
            pattern: #"\G\#(tags)\#(directories)\#(sourceFileName)\s*(?:::|[:|\-–—])?\s*`\z"#,
            samples: [("NavigationViewController.swift - `viewWillAppear`", "NavigationViewController", nil),
                      ("📱 Screens/OrderViewController.swift: `viewDidAppear(_:)` called", "OrderViewController", nil)]),
        IdentityShape(
            name: "word", side: .before, meaning: .plausibleController,
            pattern: #"\G\#(tags)(?<class>\#(name))\s+\z"#,
            samples: [("14: A_ViewController viewWillDisappear:", "A_ViewController", nil),
                      ("VC1 viewWillAppear Called", "VC1", nil)]),
        IdentityShape(
            name: "tags-only", side: .before, meaning: .tagsOnly,
            pattern: #"\G\#(tags)\z"#,
            samples: [("--> viewDidLoad", nil, nil), ("viewWillAppear(_:)", nil, nil)]),
        IdentityShape(
            name: "object-after", side: .after, meaning: .controller,
            pattern: #"<(?<class>\#(name)):\s*(?<address>\#(address))>"#,
            samples: [("viewWillAppear <DetailViewController: 0x7fd1e6042310>", "DetailViewController", "0x7fd1e6042310")]),
        IdentityShape(
            name: "id-after", side: .after, meaning: .tagsOnly,
            pattern: #"\G[^\w]*(?<id>\#(uuid))"#,
            samples: [("viewDidLoad() 3F2504E0-4F89-41D3-9A0C-0305E82C3301", nil, "3F2504E0-4F89-41D3-9A0C-0305E82C3301")]),
        IdentityShape(
            name: "controller-after", side: .after, meaning: .plausibleController,
            pattern: #"\G[\s:\-–]*(?<class>\#(name))"#,
            samples: [("viewDidAppear: CheckoutViewController", "CheckoutViewController", nil)]),
    ]
}

/// Finds a lifecycle callback's name anywhere in a message, then reads the controller around it through
/// `IdentityShape.all`: the shapes that the anchored message forms do not cover (tags glued before the message,
/// numbering and labels, the object after the callback, no class at all).
final class LooseMessageReader {
    /// The name of a callback, intent or delegate method with its arguments, not inside a longer identifier.
    static let vocabularyPattern = #"(?<![\w$])\#(trie(Array(baseNames)))(?:\([\w:]*\)|:(?:[A-Za-z_]\w*:)*)?(?![\w(])"#

    /// Every callback's name up to its first `(` or `:` (`viewWillAppear`, `application`, `scene`, `init`).
    static let baseNames: Set<String> = {
        var bases = Set<String>()
        // A SwiftUI view's names (`onAppear`, `task`, `appeared`) are read only as a whole message (`MessageParser`):
        // found anywhere, they would be ordinary words of ordinary logging.
        for (callback, spellings) in CallbackNames.spellings where callback.family != .marker && callback.family != .view {
            for spelling in spellings + [callback.rawValue] {
                let base = spelling.prefix { $0 != "(" && $0 != ":" }
                if !base.isEmpty { bases.insert(String(base)) }
            }
        }
        return bases
    }()

    /// The first four bytes of every base name, as little-endian words: the cheap test a message must pass before
    /// the vocabulary is searched (every base name is at least four bytes long; a test checks it).
    private static let baseNamePrefixes: [UInt32] = Set(baseNames.map { name in
        name.utf8.prefix(4).reversed().reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
    }).sorted()

    /// An alternation of `words` factored by their common prefixes (`view(?:Did(?:Load|Appear)|…)`), so that a place
    /// where no name starts is given up after a letter or two, instead of after trying every name. Longer names come
    /// before the names they start with; the look-ahead after the name rejects a name cut short.
    static func trie(_ words: [String]) -> String {
        let sorted = Set(words.filter { !$0.isEmpty }).map { Array($0.utf8) }.sorted { $0.lexicographicallyPrecedes($1) }
        var pattern: [UInt8] = []
        trie(sorted[...], depth: 0, into: &pattern)
        return String(decoding: pattern, as: UTF8.self)
    }

    /// Writes the trie of `words`, sorted, which share their first `depth` bytes and are all longer than that, into
    /// one buffer: made of a list per branch joined at every level, the vocabulary's pattern took about a million
    /// instructions more, paid by the first line the loose reader reads.
    private static func trie(_ words: ArraySlice<[UInt8]>, depth: Int, into pattern: inout [UInt8]) {
        // The words in groups by their byte at `depth`: one branch each.
        func groupEnd(from start: Int) -> Int {
            var end = start + 1
            while end < words.endIndex, words[end][depth] == words[start][depth] { end += 1 }
            return end
        }
        let hasSeveralBranches = groupEnd(from: words.startIndex) < words.endIndex
        if hasSeveralBranches { pattern += "(?:".utf8 }
        var start = words.startIndex
        while start < words.endIndex {
            let end = groupEnd(from: start)
            if start > words.startIndex { pattern.append(UInt8(ascii: "|")) }
            pattern.append(words[start][depth])
            // Sorted, so a word ending here comes first in its group.
            let endsHere = words[start].count == depth + 1
            let longer = words[(endsHere ? start + 1 : start)..<end]
            if !longer.isEmpty {
                if endsHere { pattern += "(?:".utf8 }
                trie(longer, depth: depth + 1, into: &pattern)
                if endsHere { pattern += ")?".utf8 }
            }
            start = end
        }
        if hasSeveralBranches { pattern.append(UInt8(ascii: ")")) }
    }

    /// A 256-bit filter of the base-name prefixes, by `prefixHash`: a place whose bit is clear starts no base name.
    private static let prefixFilter: (UInt64, UInt64, UInt64, UInt64) = {
        var words: [UInt64] = [0, 0, 0, 0]
        for prefix in baseNamePrefixes {
            let bit = prefixHash(prefix)
            words[Int(bit >> 6)] |= 1 << UInt64(bit & 63)
        }
        return (words[0], words[1], words[2], words[3])
    }()

    @inline(__always)
    private static func prefixHash(_ word: UInt32) -> UInt32 { (word &* 0x9E37_79B1) >> 24 }

    /// Where a base name may start in `bytes`: the first place that does not follow a word byte (`\w` or `$`) and
    /// whose next four bytes are a base name's first four. Nil means the vocabulary pattern cannot match; a place means
    /// it may match there or later. Most lines of ordinary logging are turned away here, at a few instructions a byte.
    static func firstPossibleCallback(in bytes: UnsafeRawBufferPointer.SubSequence) -> Int? {
        guard bytes.count >= 4, let base = bytes.base.baseAddress else { return nil }
        let filter = prefixFilter
        return byteClasses.withUnsafeBufferPointer { classes -> Int? in
            let start = (base + bytes.startIndex).assumingMemoryBound(to: UInt8.self)
            let lastStart = bytes.count - 4
            var index = 0
            while index <= lastStart {
                let byteClass = classes[Int(start[index])]
                if byteClass == 0 {
                    index += 1
                    continue
                }
                // A word starts here: test it, then skip to its end.
                if byteClass == lowerCaseLetter {
                    let word = UInt32(littleEndian: UnsafeRawPointer(start + index).loadUnaligned(as: UInt32.self))
                    let bit = prefixHash(word)
                    let filterWord = bit < 128 ? (bit < 64 ? filter.0 : filter.1) : (bit < 192 ? filter.2 : filter.3)
                    if filterWord & (1 << UInt64(bit & 63)) != 0, baseNamePrefixes.contains(word) { return bytes.startIndex + index }
                }
                index += 1
                while index <= lastStart, classes[Int(start[index])] != 0 { index += 1 }
            }
            return nil
        }
    }

    private static let lowerCaseLetter: UInt8 = 2
    /// Per byte: 0 not a word byte, 1 a word byte (`\w` or `$`), 2 a lower-case letter.
    private static let byteClasses: [UInt8] = (0..<256).map { byte in
        switch UInt8(byte) {
        case UInt8(ascii: "a")...UInt8(ascii: "z"): return lowerCaseLetter
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "_"), UInt8(ascii: "$"): return 1
        default: return 0
        }
    }

    private let limits: PCRE2Limits
    // The patterns are compiled when first needed: many inputs never reach this reader (every lifecycle line is in an
    // anchored form), and compiling them is a good part of a run's start-up. Fixed patterns, covered by tests:
    // compiling them cannot fail.
    private lazy var vocabulary = PCRE2Matcher(try! CompiledPatterns.pattern(LooseMessageReader.vocabularyPattern), limits: limits)
    private lazy var shapes: [CompiledShape] = IdentityShape.all.map { CompiledShape($0, limits: limits) }

    /// A shape's matchers and the numbers of its groups.
    private struct CompiledShape {
        let shape: IdentityShape
        let matcher: PCRE2Matcher
        let groups: (className: Int?, address: Int?, id: Int?, sign: Int?, file: Int?, line: Int?)
        /// `shape.followedBy`, and its `line` group.
        let followedBy: (matcher: PCRE2Matcher, line: Int?)?

        init(_ shape: IdentityShape, limits: PCRE2Limits) {
            let pattern = try! CompiledPatterns.pattern(shape.pattern)
            self.shape = shape
            matcher = PCRE2Matcher(pattern, limits: limits)
            groups = (pattern.groupNumber(named: "class"), pattern.groupNumber(named: "address"), pattern.groupNumber(named: "id"),
                      pattern.groupNumber(named: "sign"), pattern.groupNumber(named: "file"), pattern.groupNumber(named: "line"))
            followedBy = shape.followedBy.map { text in
                let pattern = try! CompiledPatterns.pattern(text)
                return (PCRE2Matcher(pattern, limits: limits), pattern.groupNumber(named: "line"))
            }
        }
    }

    init(limits: PCRE2Limits) {
        self.limits = limits
    }

    static let blockInvoke: StaticString = "_block_invoke"

    /// What reading a message gave.
    enum Outcome {
        case callback(LooseReading)
        case other(OtherReason)
        case unread(UnreadReason)
    }

    /// Reads `line[range]` (a message the anchored forms did not read): the first known callback named in it and the
    /// controller around it.
    func read(_ line: UnsafeRawBufferPointer, message range: Range<Int>) throws(PCRE2MatchError) -> Outcome {
        guard let candidate = LooseMessageReader.firstPossibleCallback(in: line[range]) else { return .other(.noCallback) }
        let message = UnsafeRawBufferPointer(rebasing: line[..<range.upperBound])
        var from = candidate
        while try vocabulary.matches(message, from: from), let selector = vocabulary.matchedRange {
            from = selector.upperBound
            guard let callback = CallbackNames.callback(forSelector: String(decoding: line[selector], as: UTF8.self)) else { continue }
            if LineBytes.find(LooseMessageReader.blockInvoke, in: line[range]) != nil { return .other(.blockInvoke) }
            return try identify(line, message: range, selector: selector, callback: callback)
        }
        return .other(.noCallback)
    }

    /// The controller named around the callback at `selector`.
    private func identify(_ line: UnsafeRawBufferPointer, message range: Range<Int>, selector: Range<Int>,
                          callback: Callback) throws(PCRE2MatchError) -> Outcome {
        let before = UnsafeRawBufferPointer(rebasing: line[..<selector.lowerBound])
        let after = UnsafeRawBufferPointer(rebasing: line[..<range.upperBound])
        var reading: LooseReading?
        for entry in shapes where entry.shape.side == .before {
            guard try entry.matcher.matches(before, from: range.lowerBound) else { continue }
            if entry.shape.meaning == .tagsOnly {
                reading = LooseReading(selector: selector)
                break
            }
            guard let className = entry.groups.className.flatMap(entry.matcher.range(ofGroup:)) else { continue }
            if entry.shape.meaning == .plausibleController, !LooseMessageReader.isPlausibleClass(line[className], for: callback) { continue }
            var sourceLine = entry.groups.line.flatMap(entry.matcher.range(ofGroup:))
            if let followedBy = entry.followedBy {
                guard try followedBy.matcher.matches(after, from: selector.upperBound) else { continue }
                sourceLine = followedBy.line.flatMap(followedBy.matcher.range(ofGroup:)) ?? sourceLine
            }
            if let sign = entry.groups.sign.flatMap(entry.matcher.range(ofGroup:)), line[sign.lowerBound] == UInt8(ascii: "+") {
                return .other(.classMethod)
            }
            reading = LooseReading(selector: selector, className: className,
                                   address: entry.groups.address.flatMap(entry.matcher.range(ofGroup:)))
            if let sourceLine, let file = entry.groups.file.flatMap(entry.matcher.range(ofGroup:)) {
                reading?.source = (file, sourceLine)
            }
            break
        }
        guard var reading else { return .unread(.noControllerBefore) }
        // After the callback: the object it was called on, or an instance id, when the text before named none.
        for entry in shapes where entry.shape.side == .after {
            guard try entry.matcher.matches(after, from: selector.upperBound) else { continue }
            let className = entry.groups.className.flatMap(entry.matcher.range(ofGroup:))
            let address = (entry.groups.address ?? entry.groups.id).flatMap(entry.matcher.range(ofGroup:))
            if let named = reading.className {
                // The same class named again with its address: take the address.
                if reading.address == nil, let className, let address,
                   ReportedClassName.of(line[className]) == ReportedClassName.of(line[named]) {
                    reading.address = address
                }
                break
            }
            if entry.shape.meaning == .plausibleController, let className, !LooseMessageReader.isControllerName(line[className]) { continue }
            reading.className = className
            reading.address = address
            break
        }
        return .callback(reading)
    }

    /// A word before a controller callback is taken for a class when it starts with an upper-case letter or is named
    /// like a controller (`vc1`); otherwise it ends a sentence ("Failed to call viewDidLoad"). Before an app or scene
    /// delegate callback, it must be named like a delegate (`AppDelegate`, `SceneDelegate`): "Skipping
    /// applicationDidBecomeActive work" is a sentence.
    static func isPlausibleClass(_ bytes: UnsafeRawBufferPointer.SubSequence, for callback: Callback) -> Bool {
        guard let first = bytes.first else { return false }
        if callback.family == .application || callback.family == .scene {
            return ReportedClassName.base(ReportedClassName.of(bytes)).lowercased().hasSuffix("delegate")
        }
        return (first >= UInt8(ascii: "A") && first <= UInt8(ascii: "Z")) || first == UInt8(ascii: "_") || isControllerName(bytes)
    }

    /// Named like a view controller: the name (without its module) ends in `Controller` or `VC`, in any case, with
    /// digits after it allowed (`DetailViewController`, `SettingsVC`, `vc1`, `Table view controller`).
    static func isControllerName(_ bytes: UnsafeRawBufferPointer.SubSequence) -> Bool {
        isControllerName(ReportedClassName.of(bytes))
    }

    /// `isControllerName` for a class name without its module (a generic class judged without its arguments:
    /// `UIHostingController<DetailView>`).
    static func isControllerName(_ className: String) -> Bool {
        let stem = ReportedClassName.base(className).lowercased().reversed().drop { $0.isNumber }
        let word = String(stem.reversed())
        return word.hasSuffix("controller") || word.hasSuffix("vc")
    }
}

/// One way a line of a crash report or a backtrace is written (Apple's crash report, its `.ips` JSON form, lldb's
/// `bt`, what the runtime prints when an exception ends the app): a row of `CrashShape.all`. Their frames name UIKit's
/// and the app's methods (`-[UIViewController presentViewController:animated:completion:]`,
/// `CartViewController.viewDidLoad()`), and none of them is a call: such a line is crash context, never an event.
///
/// A pattern is matched anchored at the message's start (its spaces and tabs skipped), and only tried when the
/// message's first byte is one of `firstBytes`, it starts with one of `prefixes` and holds one of `needs` (when
/// given), and with `colonWithin` a `:` comes within that many bytes: most messages are turned away by a table
/// lookup, the rest mostly by a comparison or a search for a byte. Groups of the uncaught exception: `exception` (its
/// class) and `reason`.
struct CrashShape {
    let name: String
    /// What such a line is, as `lctrace lines` says it.
    let what: String
    let firstBytes: String
    var colonWithin: Int? = nil
    /// Every line of this shape starts with one of these.
    var prefixes: [StaticString] = []
    /// Every line of this shape holds one of these.
    var needs: [StaticString] = []
    let pattern: String
    /// Messages this shape reads (checked by tests).
    let samples: [String]

    static let hex = #"0x[0-9A-Fa-f]+"#
    static let digits = "0123456789"
    static let lowerCase = "abcdefghijklmnopqrstuvwxyz"

    /// In the order they are tried.
    static let all: [CrashShape] = [
        CrashShape(
            name: "frame", what: "a stack frame", firstBytes: digits, needs: ["0x"],
            // Number, image (names may have spaces), address, then the symbol or another address.
            pattern: #"\d+[ \t]+(?:\S+ )*?\S+[ \t]+0x[0-9A-Fa-f]{6,}[ \t]+\S"#,
            samples: ["6   UIKitCore                     0x00000001a2b3c4d8 -[UIViewController presentViewController:animated:completion:] + 92",
                      "3   ShopApp                       \t0x0000000100a4c5d8 CartViewController.viewDidLoad() + 120 (CartViewController.swift:42)",
                      "4   Crashy                        \t0x100052d10 0x10004c000 + 27920",
                      "12  My Shop                       \t       0x104f2a1c8 @objc CartViewController.viewWillAppear(_:) + 64"]),
        CrashShape(
            name: "binary-image", what: "a binary image", firstBytes: "0", prefixes: ["0x"],
            pattern: #"\#(hex)\s*-\s*(?:\#(hex)|\?\?\?)[ \t]+\S"#,
            samples: ["0x100000000 - 0x100ffffff ShopApp arm64 <8f3e2b1a9c7d4e5fa1b2c3d4e5f6a7b8> /var/containers/Bundle/Application/ShopApp.app/ShopApp",
                      "0x1a3b00000 -        0x1a4f3bfff UIKitCore arm64e  <1e3c5a7b9d2f4e6a8c0b1d3f5a7c9e2b> /System/Library/PrivateFrameworks/UIKitCore.framework/UIKitCore"]),
        CrashShape(
            name: "thread", what: "a thread's heading", firstBytes: "T", prefixes: ["Thread "],
            pattern: #"Thread \d+(?::|[ \t]+(?:Crashed:|name:|crashed with ))"#,
            samples: ["Thread 0 Crashed:: Dispatch queue: com.apple.main-thread", "Thread 0 name:  Dispatch queue: com.apple.main-thread",
                      "Thread 0 Crashed:", "Thread 4:", "Thread 0 crashed with ARM Thread State (64-bit):"]),
        CrashShape(
            name: "report-field", what: "a field of the crash report's header", firstBytes: "ABCEHIKLRT", colonWithin: 36,
            prefixes: ["Incident ", "CrashReporter ", "Hardware ", "Code ", "Report ", "Exception ", "Termination ", "Terminating ",
                       "Triggered ", "Crashed ", "Kernel ", "Application ", "Last ", "Binary "],
            pattern: #"(?:Incident Identifier|CrashReporter Key|Hardware Model|Code Type|Report Version|Exception (?:Type|Codes|Subtype|Message|Note|Reason)|Termination (?:Reason|Description|Signal)|Terminating Process|Triggered by Thread|Crashed Thread|Kernel Triage|Application Specific Information|Last Exception Backtrace|Binary Images):"#,
            samples: ["Exception Type:  EXC_CRASH (SIGABRT)", "Exception Codes: 0x0000000000000000, 0x0000000000000000",
                      "Termination Reason: SIGNAL 6 Abort trap: 6", "Last Exception Backtrace:", "Binary Images:",
                      "Triggered by Thread:  0", "Incident Identifier: 7E3D5E8E-1B2C-4D5E-8F90-A1B2C3D4E5F6"]),
        CrashShape(
            name: "registers", what: "the crashed thread's registers", firstBytes: lowerCase, colonWithin: 6, needs: [": 0x"],
            pattern: #"[a-z]{1,4}\d{0,2}:[ \t]+\#(hex)(?:[ \t]+[a-z]{1,4}\d{0,2}:[ \t]+\#(hex))+|(?:esr|far|cpsr):[ \t]+\#(hex)"#,
            samples: ["x0: 0x0000000000000000   x1: 0x0000000000000000   x2: 0x0000000000000000   x3: 0x000000016d5a6b20",
                      "fp: 0x000000016d5a6ad0   lr: 0x00000001e2b3c4d8", "esr: 0x56000080  Address size fault"]),
        CrashShape(
            name: "lldb-frame", what: "a frame of lldb's backtrace", firstBytes: "*f", needs: ["frame #"],
            pattern: #"(?:\*[ \t]+)?frame #\d+:[ \t]+\#(hex)"#,
            samples: ["frame #3: 0x00000001a3b4c5d6 UIKitCore`-[UIViewController _presentViewController:withAnimationController:completion:] + 120",
                      "* frame #0: 0x0000000100a4c5d8 ShopApp`CartViewController.viewDidLoad(self=0x000000010380a200) at CartViewController.swift:42:9"]),
        CrashShape(
            name: "lldb-thread", what: "a thread of lldb's backtrace", firstBytes: "*t", needs: ["thread #"],
            pattern: #"(?:\*[ \t]+)?thread #\d+(?:,|\s*\z)"#,
            samples: ["* thread #1, queue = 'com.apple.main-thread', stop reason = signal SIGABRT", "thread #2"]),
        CrashShape(
            name: "lldb-command", what: "lldb's backtrace command", firstBytes: "(", prefixes: ["(lldb)"],
            pattern: #"\(lldb\)[ \t]+(?:bt|thread backtrace)\b"#,
            samples: ["(lldb) bt", "(lldb) thread backtrace all"]),
        CrashShape(
            name: "uncaught-exception", what: "the uncaught exception that ended the app", firstBytes: "*",
            prefixes: ["*** Terminating app "],
            // The reason runs to the line's end (its closing quote is dropped when read): it may hold quotes.
            pattern: #"\*\*\* Terminating app due to uncaught exception '(?<exception>[^'\n]*)'(?:, reason: '(?<reason>[^\n]*))?"#,
            samples: ["*** Terminating app due to uncaught exception 'NSRangeException', reason: '*** -[__NSArrayM objectAtIndexedSubscript:]: index 5 beyond bounds [0 .. 2]'"]),
        CrashShape(
            name: "throw-stack", what: "the stack the exception was thrown from", firstBytes: "*(",
            prefixes: ["*** First throw call stack:", "("],
            pattern: #"\*\*\* First throw call stack:|\((?:[ \t]*\#(hex))+"#,
            samples: ["*** First throw call stack:", "(0x1a1b2c3d4 0x19a2b3c4d 0x1a3b4c5d6)"]),
        CrashShape(
            name: "terminating", what: "the C++ runtime ending the app", firstBytes: "l", prefixes: ["libc++abi"],
            pattern: #"libc\+\+abi(?:\.dylib)?: terminat"#,
            samples: ["libc++abi: terminating due to uncaught exception of type NSException",
                      "libc++abi.dylib: terminating with uncaught exception of type NSException"]),
        CrashShape(
            name: "ips", what: "a line of an .ips crash report", firstBytes: "{[\"", needs: ["imageOffset", "bug_type", "\"symbol\""],
            // The header line, frames (one a line, or a thread's or backtrace's all on one line), and a frame's symbol
            // alone on its line.
            pattern: #"[{\["][^\n]*?"(?:imageOffset|bug_type)"\s*:|"symbol"\s*:\s*"(?:[-+]\[|[^"\n]*\()"#,
            samples: [#"{"app_name":"ShopApp","timestamp":"2024-02-09 09:14:05.00 +0100","app_version":"1.0","bug_type":"309","os_version":"iPhone OS 17.2.1 (21C66)","name":"ShopApp"}"#,
                      #"{"imageOffset":4812,"symbol":"-[UIViewController presentViewController:animated:completion:]","symbolLocation":92,"imageIndex":3},"#,
                      #""threads" : [{"triggered":true,"id":3452719,"queue":"com.apple.main-thread","frames":[{"imageOffset":38004,"symbol":"__pthread_kill","symbolLocation":8,"imageIndex":10}]}],"#,
                      #""symbol" : "CartViewController.viewDidLoad()","#]),
    ]
}

/// A line of a crash report or backtrace: its shape, and for the uncaught exception, its class and reason.
struct CrashLine {
    /// The index of its row in `CrashShape.all`.
    let shape: Int
    var exception: Range<Int>?
    var reason: Range<Int>?

    var what: String { CrashShape.all[shape].what }

    /// What `lctrace lines` says of the line: what it is, and for the exception its class and reason.
    func description(_ line: UnsafeRawBufferPointer) -> String {
        var text = "part of a crash report or backtrace (\(what)), never a call"
        if let exception {
            text = "\(what): " + String(decoding: line[exception], as: UTF8.self)
            if let reason { text += ", reason: '" + String(decoding: line[reason], as: UTF8.self) + "'" }
        }
        return text
    }
}

/// Finds the lines of crash reports and backtraces (`CrashShape.all`).
final class CrashLineReader {
    /// Per first byte, a bit for each row that may match a message starting with it.
    private static let rowsByFirstByte: [UInt32] = {
        precondition(CrashShape.all.count <= 32)
        var rows = [UInt32](repeating: 0, count: 256)
        for (index, shape) in CrashShape.all.enumerated() {
            for byte in shape.firstBytes.utf8 { rows[Int(byte)] |= 1 << UInt32(index) }
        }
        return rows
    }()

    /// Each row's `colonWithin` (`Int.max` for none), `prefixes` and `needs`: read on every line a row may match, so
    /// kept here rather than in the table.
    private let colonWithin = CrashShape.all.map { $0.colonWithin ?? Int.max }
    private let prefixes = CrashShape.all.map(\.prefixes)
    private let needs = CrashShape.all.map(\.needs)
    private let limits: PCRE2Limits
    // Compiled when first needed; fixed patterns, covered by tests.
    private lazy var matchers: [(matcher: PCRE2Matcher, exception: Int?, reason: Int?)] = CrashShape.all.map { shape in
        let pattern = try! CompiledPatterns.pattern(shape.pattern, options: [.anchored])
        return (PCRE2Matcher(pattern, limits: limits), pattern.groupNumber(named: "exception"), pattern.groupNumber(named: "reason"))
    }

    init(limits: PCRE2Limits) {
        self.limits = limits
    }

    /// The crash line `line[range]` is (`range` without its spaces and tabs), or nil when it is none.
    @inline(__always)
    func read(_ line: UnsafeRawBufferPointer, message range: Range<Int>) throws(PCRE2MatchError) -> CrashLine? {
        guard !range.isEmpty else { return nil }
        let rows = CrashLineReader.rowsByFirstByte[Int(line[range.lowerBound])]
        guard rows != 0 else { return nil }
        return try read(line, message: range, rows: rows)
    }

    private func read(_ line: UnsafeRawBufferPointer, message range: Range<Int>, rows: UInt32) throws(PCRE2MatchError) -> CrashLine? {
        let message = UnsafeRawBufferPointer(rebasing: line[..<range.upperBound])
        let first = line[range.lowerBound]
        var remaining = rows
        while remaining != 0 {
            let index = remaining.trailingZeroBitCount
            remaining &= remaining - 1
            if !prefixes[index].isEmpty, !CrashLineReader.startsWithOne(of: prefixes[index], line[range], first: first) { continue }
            if !needs[index].isEmpty, !CrashLineReader.holdsOne(of: needs[index], line[range]) { continue }
            if colonWithin[index] != Int.max,
               !LineBytes.contains(UInt8(ascii: ":"), in: line[range.lowerBound..<min(range.upperBound, range.lowerBound + colonWithin[index])]) {
                continue
            }
            let entry = matchers[index]
            guard try entry.matcher.matches(message, from: range.lowerBound) else { continue }
            var reason = entry.reason.flatMap(entry.matcher.range(ofGroup:))
            if var quoted = reason, quoted.upperBound <= range.upperBound {
                quoted = LineBytes.trimmed(line, quoted)
                if quoted.upperBound > quoted.lowerBound, line[quoted.upperBound - 1] == UInt8(ascii: "'") { quoted = quoted.dropLast() }
                reason = quoted
            }
            return CrashLine(shape: index, exception: entry.exception.flatMap(entry.matcher.range(ofGroup:)), reason: reason)
        }
        return nil
    }

    /// Whether `text`, whose first byte is `first`, starts with one of `prefixes`.
    @inline(__always)
    private static func startsWithOne(of prefixes: [StaticString], _ text: UnsafeRawBufferPointer.SubSequence, first: UInt8) -> Bool {
        for prefix in prefixes where prefix.utf8Start.pointee == first && LineBytes.has(text, prefix: prefix) { return true }
        return false
    }

    /// Whether `text` holds one of `needs`.
    @inline(__always)
    private static func holdsOne(of needs: [StaticString], _ text: UnsafeRawBufferPointer.SubSequence) -> Bool {
        for need in needs where LineBytes.find(need, in: text) != nil { return true }
        return false
    }
}

/// Where os_log's redaction stands in a message: a row of `RedactionShape.all`. `Logger` prints `<private>` for an
/// interpolated value logged with the default privacy (`os_log`'s `%@`), and `<mask.hash: '…'>` for one logged with
/// `privacy: .private(mask: .hash)`. Such a marker where the class or the callback would be is not a name: the line
/// is unread (`UnreadReason.redacted`), and counted as redacted. A marker among other words (`Loaded <private> items`)
/// is an ordinary value.
///
/// Matched from the message's start (`\G`); `class` must be named like a controller, or be an object with its address.
struct RedactionShape {
    let name: String
    let pattern: String
    /// Messages this shape reads as redacted (checked by tests).
    let samples: [String]

    static let marker = #"(?:<private>|<mask\.hash: '[^'\n]*'>)"#

    /// In the order they are tried.
    static let all: [RedactionShape] = [
        RedactionShape(
            name: "class-redacted",
            // The marker, then only punctuation before a name, which must be a callback's.
            pattern: #"\G\#(IdentityShape.boundedTags)(?:[-+]\[)?\#(marker)[^\w<(\[\n]*(?<selector>[A-Za-z_]\w*(?:\([\w:]*\)|:(?:[A-Za-z_]\w*:)*)?)(?![\w(])"#,
            samples: ["<private> viewDidLoad()", "-[<private> viewWillAppear:]", "[Lifecycle] <private>.viewDidAppear(_:)",
                      "<mask.hash: 'Uo7N7bFr8AtpkwJDUU2JIA=='> viewDidLoad()"]),
        RedactionShape(
            name: "callback-redacted",
            // A controller's name or object, then only a separator before the marker.
            pattern: #"\G\#(IdentityShape.boundedTags)(?:[-+]\[|<)?(?<class>\#(IdentityShape.name))(?::\s*(?<address>\#(IdentityShape.address)))?>?\s*(?:>{2,}|-+>|→|[.:|\-–—])?\s*\#(marker)"#,
            samples: ["CartViewController <private>", "<ShopApp.CartViewController: 0x7fb1c8e0a200> <private>",
                      "-[SettingsVC <private>]", "CheckoutViewController >>>> <private>", "CartViewController: <private>"]),
        RedactionShape(
            name: "only-markers",
            // Nothing but markers, tags and punctuation (the message has a marker): whatever it named is hidden.
            pattern: #"\G(?:[^\w<\[(\n]|\[[^\]\n]*\]|\([^)\n]*\)|\#(marker)){1,256}\z"#,
            samples: ["<private>", "<private> <private>", "[Lifecycle] <private>: <private>", "<private>.<private>"]),
    ]
}

/// Finds os_log's redaction where a class or callback would be (`RedactionShape.all`).
final class RedactionReader {
    private static let privateMarker: StaticString = "<private>"
    private static let maskMarker: StaticString = "<mask.hash: "

    private let limits: PCRE2Limits
    // Compiled when first needed; fixed patterns, covered by tests.
    private lazy var matchers: [(matcher: PCRE2Matcher, selector: Int?, className: Int?, address: Int?)] = RedactionShape.all.map { shape in
        let pattern = try! CompiledPatterns.pattern(shape.pattern)
        return (PCRE2Matcher(pattern, limits: limits), pattern.groupNumber(named: "selector"), pattern.groupNumber(named: "class"),
                pattern.groupNumber(named: "address"))
    }

    init(limits: PCRE2Limits) {
        self.limits = limits
    }

    /// Whether `line[range]` has a marker of redaction at all.
    static func hasMarker(_ line: UnsafeRawBufferPointer, _ range: Range<Int>) -> Bool {
        LineBytes.find(privateMarker, in: line[range]) != nil || LineBytes.find(maskMarker, in: line[range]) != nil
    }

    /// Whether redaction hides the class or callback of `line[range]` (trimmed).
    func hidesAName(_ line: UnsafeRawBufferPointer, message range: Range<Int>) throws(PCRE2MatchError) -> Bool {
        guard RedactionReader.hasMarker(line, range) else { return false }
        let message = UnsafeRawBufferPointer(rebasing: line[..<range.upperBound])
        for entry in matchers {
            guard try entry.matcher.matches(message, from: range.lowerBound) else { continue }
            if let group = entry.selector, let selector = entry.matcher.range(ofGroup: group) {
                guard let callback = CallbackNames.callback(forSelector: String(decoding: line[selector], as: UTF8.self)),
                      callback.family != .view else { continue }
            }
            if let group = entry.className, let className = entry.matcher.range(ofGroup: group) {
                let addressed = entry.address.flatMap(entry.matcher.range(ofGroup:)) != nil
                guard addressed || LooseMessageReader.isControllerName(line[className]) else { continue }
            }
            return true
        }
        return false
    }
}
