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
}

/// Why a message that names a lifecycle callback could not be read as one.
public enum UnreadReason: String, Sendable, CaseIterable {
    /// The text before the callback is a sentence, not a controller's name or a tag.
    case noControllerBefore = "the text before the callback names no controller"
    /// The run has met more distinct names of one kind (class names, callback spellings, instance ids, notices) than it
    /// keeps (`NameTable.limit`).
    case tooManyNames = "more distinct class names, spellings, instance ids or notices than lctrace keeps (65536 of each)"
}

/// A loose reading of a message: a lifecycle callback found anywhere in it, and the controller named around it.
struct LooseReading {
    var selector: Range<Int>
    /// The class as logged (with its module, or a Swift mangled name); nil when the message names none.
    var className: Range<Int>?
    /// An instance address (`0x…`) or id (a UUID) logged with it.
    var address: Range<Int>?
}

/// One way a message names its controller around the callback: a row of `IdentityShape.all`.
///
/// Before-shapes are matched against the text before the callback's name (they end where it starts), after-shapes
/// against the text after it. Groups: `class`, and optionally `address` (`0x…`) or `id` (a UUID) and `sign` (`+`
/// for a class method).
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
    /// Messages this shape reads, with the class and address it reads in them (checked by tests).
    let samples: [(message: String, className: String?, address: String?)]

    /// A class as logged: a Swift module path or a mangled name is allowed.
    static let name = #"[A-Za-z_$][\w.$]*"#
    /// What may stand before a message: spaces, bracketed or parenthesised tags (`[INFO]`), digits, punctuation,
    /// arrows, emoji and non-ASCII labels (`方法:`), anything but an ASCII letter or the start of an object.
    static let tags = #"(?:\s|\[[^\]\n]*\]|\([^)\n]*\)|[^\sA-Za-z_\[(<])*"#
    static let address = #"0x[0-9A-Fa-f]+"#
    static let uuid = #"[0-9A-Fa-f]{8}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{12}"#

    /// In the order they are tried.
    static let all: [IdentityShape] = [
        IdentityShape(
            name: "objc-method", side: .before, meaning: .controller,
            pattern: #"(?<sign>[-+])\[(?<class>\#(name))(?:\s*\([^)\n]*\))?\s+\z"#,
            samples: [("111-[ViewController viewDidLoad]", "ViewController", nil),
                      ("方法:-[ViewController loadView]", "ViewController", nil),
                      ("[INFO] (-[CartVC viewWillDisappear:]) - Called for object <CartVC: 0x8b37770>, animated = YES", "CartVC", "0x8b37770")]),
        IdentityShape(
            name: "object", side: .before, meaning: .controller,
            pattern: #"<(?<class>\#(name))(?::\s*(?<address>\#(address)))?>[^\w<(\[]*\z"#,
            samples: [("<App.DetailViewController: 0x7fd3e1c0a600>    >>>>    viewDidLoad", "App.DetailViewController", "0x7fd3e1c0a600"),
                      ("--> <_TtCV14__lldb_expr_9010SampleView11Coordinator: 0x600003f0c000> viewDidLoad()", "_TtCV14__lldb_expr_9010SampleView11Coordinator", "0x600003f0c000")]),
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
            pattern: #"\G\#(tags)(?<class>[A-Za-z_$][\w$]*)\.(?:swift|mm?)\b[^\n]*?(?:::|[:|\-–])\s*\z"#,
            samples: [("DetailViewController.swift (line: 88) :: deinit :: has deinitialized", "DetailViewController", nil)]),
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
        for (callback, spellings) in CallbackNames.spellings where callback.family != .marker {
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
        return String(decoding: trie(sorted[...], depth: 0), as: UTF8.self)
    }

    /// The trie of `words`, sorted, which share their first `depth` bytes and are all longer than that.
    private static func trie(_ words: ArraySlice<[UInt8]>, depth: Int) -> [UInt8] {
        var branches: [[UInt8]] = []
        var start = words.startIndex
        while start < words.endIndex {
            let first = words[start][depth]
            var end = start + 1
            while end < words.endIndex, words[end][depth] == first { end += 1 }
            // Sorted, so a word ending here comes first in its group.
            let endsHere = words[start].count == depth + 1
            let longer = words[(endsHere ? start + 1 : start)..<end]
            var branch: [UInt8] = [first]
            if !longer.isEmpty {
                let tail = trie(longer, depth: depth + 1)
                branch += endsHere ? Array("(?:".utf8) + tail + Array(")?".utf8) : tail
            }
            branches.append(branch)
            start = end
        }
        guard branches.count > 1 else { return branches[0] }
        return Array("(?:".utf8) + Array(branches.joined(separator: Array("|".utf8))) + Array(")".utf8)
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
    private lazy var vocabulary = PCRE2Matcher(try! PCRE2Pattern(LooseMessageReader.vocabularyPattern), limits: limits)
    private lazy var shapes: [(shape: IdentityShape, matcher: PCRE2Matcher, groups: (className: Int?, address: Int?, id: Int?, sign: Int?))] =
        IdentityShape.all.map { shape in
            let pattern = try! PCRE2Pattern(shape.pattern)
            return (shape, PCRE2Matcher(pattern, limits: limits),
                    (pattern.groupNumber(named: "class"), pattern.groupNumber(named: "address"),
                     pattern.groupNumber(named: "id"), pattern.groupNumber(named: "sign")))
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
        var reading: LooseReading?
        for entry in shapes where entry.shape.side == .before {
            guard try entry.matcher.matches(before, from: range.lowerBound) else { continue }
            if entry.shape.meaning == .tagsOnly {
                reading = LooseReading(selector: selector)
                break
            }
            guard let className = entry.groups.className.flatMap(entry.matcher.range(ofGroup:)) else { continue }
            if entry.shape.meaning == .plausibleController, !LooseMessageReader.isPlausibleClass(line[className], for: callback) { continue }
            if let sign = entry.groups.sign.flatMap(entry.matcher.range(ofGroup:)), line[sign.lowerBound] == UInt8(ascii: "+") {
                return .other(.classMethod)
            }
            reading = LooseReading(selector: selector, className: className,
                                   address: entry.groups.address.flatMap(entry.matcher.range(ofGroup:)))
            break
        }
        guard var reading else { return .unread(.noControllerBefore) }
        // After the callback: the object it was called on, or an instance id, when the text before named none.
        let after = UnsafeRawBufferPointer(rebasing: line[..<range.upperBound])
        for entry in shapes where entry.shape.side == .after {
            guard try entry.matcher.matches(after, from: selector.upperBound) else { continue }
            let className = entry.groups.className.flatMap(entry.matcher.range(ofGroup:))
            let address = (entry.groups.address ?? entry.groups.id).flatMap(entry.matcher.range(ofGroup:))
            if let named = reading.className {
                // The same class named again with its address: take the address.
                if reading.address == nil, let className, let address,
                   NameTable.reportedName(line[className]) == NameTable.reportedName(line[named]) {
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
            return NameTable.reportedName(bytes).lowercased().hasSuffix("delegate")
        }
        return (first >= UInt8(ascii: "A") && first <= UInt8(ascii: "Z")) || first == UInt8(ascii: "_") || isControllerName(bytes)
    }

    /// Named like a view controller: the name (without its module) ends in `Controller` or `VC`, in any case, with
    /// digits after it allowed (`DetailViewController`, `SettingsVC`, `vc1`, `Table view controller`).
    static func isControllerName(_ bytes: UnsafeRawBufferPointer.SubSequence) -> Bool {
        isControllerName(NameTable.reportedName(bytes))
    }

    /// `isControllerName` for a class name without its module.
    static func isControllerName(_ className: String) -> Bool {
        let stem = className.lowercased().reversed().drop { $0.isNumber }
        let word = String(stem.reversed())
        return word.hasSuffix("controller") || word.hasSuffix("vc")
    }
}
