import PCRE2

/// What a matcher answers for a line.
enum MatchAnswer<Match> {
    case matched(Match)
    case notMatched
    /// Only a hand-written matcher answers this: the line is of a kind it does not decide, and the exact matcher behind
    /// it (PCRE2) must.
    case undecided
}

/// Matches one kind of thing (a line header, an anchored message form) at the start of `line[range]`. The PCRE2
/// matchers are the definition; a hand-written matcher decides exactly as its PCRE2 pattern would on the lines it
/// decides, and answers `undecided` for the rest (`HandParserTests` holds the two to the same results).
///
/// One per thread: matchers own PCRE2 match data and what they remember of the line before.
protocol LineMatcher<Match>: AnyObject {
    associatedtype Match
    func match(_ line: UnsafeRawBufferPointer, in range: Range<Int>) throws(PCRE2MatchError) -> MatchAnswer<Match>
}

extension LineMatcher {
    /// The match, or nil; never undecided (a matcher that may be is asked through `FastPathMatcher`).
    @inline(__always)
    func firstMatch(_ line: UnsafeRawBufferPointer, in range: Range<Int>) throws(PCRE2MatchError) -> Match? {
        if case .matched(let match) = try self.match(line, in: range) { return match }
        return nil
    }
}

/// A hand-written matcher in front of an exact one: what the fast one cannot tell, the exact one decides.
final class FastPathMatcher<Fast: LineMatcher, Exact: LineMatcher>: LineMatcher where Fast.Match == Exact.Match {
    private let fast: Fast
    private let exact: Exact

    init(_ fast: Fast, before exact: Exact) {
        self.fast = fast
        self.exact = exact
    }

    @inline(__always)
    func match(_ line: UnsafeRawBufferPointer, in range: Range<Int>) throws(PCRE2MatchError) -> MatchAnswer<Fast.Match> {
        let answer = try fast.match(line, in: range)
        if case .undecided = answer { return try exact.match(line, in: range) }
        return answer
    }
}

/// The matcher a run chose for one kind of thing: the exact one alone, or a hand-written one in front of it. Held as
/// concrete types, so that matching a line is a direct call.
enum ChosenMatcher<Fast: LineMatcher, Exact: LineMatcher> where Fast.Match == Exact.Match {
    case exact(Exact)
    case fastPath(FastPathMatcher<Fast, Exact>)

    @inline(__always)
    func firstMatch(_ line: UnsafeRawBufferPointer, in range: Range<Int>) throws(PCRE2MatchError) -> Exact.Match? {
        switch self {
        case .exact(let matcher): try matcher.firstMatch(line, in: range)
        case .fastPath(let matcher): try matcher.firstMatch(line, in: range)
        }
    }
}

/// Which matchers a run reads with, decided once for the run: the hand-written matchers and the memo of recognised
/// messages in front of PCRE2 (the fast path, the default), or PCRE2 alone (to compare the two).
enum MatcherChoice: Sendable {
    case fastPath
    case exactOnly

    init(fastPath: Bool) {
        self = fastPath ? .fastPath : .exactOnly
    }

    /// The matcher for `format`'s header; nil for `bare`, which has none.
    func headerMatcher(for format: LineFormat, limits: PCRE2Limits) throws(PCRE2CompileError) -> ChosenMatcher<HandHeaderMatcher, PCRE2HeaderMatcher>? {
        guard let pattern = format.pattern else { return nil }
        let exact = try PCRE2HeaderMatcher(pattern, anchored: format.isAnchoredBuiltIn, limits: limits)
        guard self == .fastPath, let hand = format.handHeader else { return .exact(exact) }
        return .fastPath(FastPathMatcher(HandHeaderMatcher(hand), before: exact))
    }

    /// The matcher for the anchored message forms (`MessageParser.pattern`).
    func messageFormMatcher(limits: PCRE2Limits) -> ChosenMatcher<HandMessageFormMatcher, PCRE2MessageFormMatcher> {
        let exact = PCRE2MessageFormMatcher(limits: limits)
        guard self == .fastPath else { return .exact(exact) }
        return .fastPath(FastPathMatcher(HandMessageFormMatcher(), before: exact))
    }

    /// Whether whole messages already recognised are looked up before they are matched.
    var remembersMessages: Bool { self == .fastPath }
}

/// Patterns compiled once in a process, for every parser that matches them. Each thread has parsers of its own, whose
/// matchers hold their own match data and JIT stack; the compiled pattern they share is only read by PCRE2, so it is
/// safe to share between threads. Compiling a parser's patterns again for each worker of a parallel run took about
/// 8 M instructions a worker. A pattern is kept until the process ends: the built-in ones, and a `--pattern` a run
/// is given.
enum CompiledPatterns {
    private struct Key: Hashable {
        var text: String
        var options: UInt32
    }

    private static let compiled = Lock<[Key: PCRE2Pattern]>([:])

    /// `text` compiled with `options` (and by the JIT where there is one), compiled the first time it is asked for.
    /// A pattern that does not compile is not kept: each ask throws its error.
    static func pattern(_ text: String, options: PCRE2Pattern.Options = []) throws(PCRE2CompileError) -> PCRE2Pattern {
        let key = Key(text: text, options: options.rawValue)
        if let known = compiled.withLock({ $0[key] }) { return known }
        let made = try PCRE2Pattern(text, options: options)
        return compiled.withLock { table in
            if let known = table[key] { return known }
            table[key] = made
            return made
        }
    }
}

/// A line format's header pattern, with its named groups.
///
/// A built-in format's pattern (`anchored`) is compiled the first time a line is matched with it: most runs read
/// their lines with the hand-written matchers in front of the NSLog and `log` patterns, and try few of the other
/// formats, and compiling every built-in pattern by the JIT at start took about 4.5 M instructions, a millisecond of
/// every run. A user's pattern is compiled at once, so that an error in it is reported before anything is read.
final class PCRE2HeaderMatcher: LineMatcher {
    private struct Compiled {
        let matcher: PCRE2Matcher
        let groups: (time: Int?, process: Int?, pid: Int?, tid: Int?, message: Int?)
    }

    private let pattern: String
    private let anchored: Bool
    private let limits: PCRE2Limits
    // The built-in patterns are fixed and covered by tests: compiling them cannot fail.
    private lazy var compiled = try! PCRE2HeaderMatcher.compile(pattern, anchored: anchored, limits: limits)

    init(_ pattern: String, anchored: Bool, limits: PCRE2Limits) throws(PCRE2CompileError) {
        self.pattern = pattern
        self.anchored = anchored
        self.limits = limits
        if !anchored { compiled = try PCRE2HeaderMatcher.compile(pattern, anchored: false, limits: limits) }
    }

    private static func compile(_ pattern: String, anchored: Bool, limits: PCRE2Limits) throws(PCRE2CompileError) -> Compiled {
        let compiled = try CompiledPatterns.pattern(pattern, options: anchored ? [.anchored] : [])
        return Compiled(matcher: PCRE2Matcher(compiled, limits: limits),
                        groups: (compiled.groupNumber(named: "time"), compiled.groupNumber(named: "process"),
                                 compiled.groupNumber(named: "pid"), compiled.groupNumber(named: "tid"),
                                 compiled.groupNumber(named: "message")))
    }

    func match(_ line: UnsafeRawBufferPointer, in range: Range<Int>) throws(PCRE2MatchError) -> MatchAnswer<LineHeader> {
        let matcher = compiled.matcher, groups = compiled.groups
        guard try matcher.matches(line, from: range.lowerBound), let whole = matcher.matchedRange else { return .notMatched }
        let message = groups.message.flatMap(matcher.range(ofGroup:)) ?? whole.upperBound..<line.count
        return .matched(LineHeader(
            time: groups.time.flatMap(matcher.range(ofGroup:)),
            process: groups.process.flatMap(matcher.range(ofGroup:)),
            pid: groups.pid.flatMap(matcher.range(ofGroup:)),
            tid: groups.tid.flatMap(matcher.range(ofGroup:)),
            message: message))
    }
}

/// The hand-written NSLog header matchers (`HandHeader`); they decide every line.
final class HandHeaderMatcher: LineMatcher {
    private let header: HandHeader
    /// The last header's process and ids (`HeaderTail`), in memory of its own: changed on every line through a
    /// pointer that never changes, not through a stored property (whose exclusive access would be checked at run time,
    /// the parse being a call).
    private let tail = UnsafeMutablePointer<HeaderTail>.allocate(capacity: 1)
    private let byteClasses = HandParsers.byteClasses

    init(_ header: HandHeader) {
        self.header = header
        tail.initialize(to: HeaderTail())
    }

    deinit { tail.deallocate() }

    @inline(__always)
    func match(_ line: UnsafeRawBufferPointer, in range: Range<Int>) -> MatchAnswer<LineHeader> {
        parse(line, from: range.lowerBound).map(MatchAnswer.matched) ?? .notMatched
    }

    /// The header at `start`, or nil when the line is not in the format: the answer `match` gives, asked directly.
    @inline(__always)
    func parse(_ line: UnsafeRawBufferPointer, from start: Int) -> LineHeader? {
        header.parse(line, from: start, tail: &tail.pointee, byteClasses: byteClasses)
    }

    /// The stamp of the last header's tail (`HeaderTail.stamp`).
    var tailStamp: UInt64 { @inline(__always) get { tail.pointee.stamp } }
}

extension FastPathMatcher where Fast == HandHeaderMatcher {
    /// The hand-written matcher: as it decides every line (it never answers `undecided`), asking it is asking this
    /// matcher, and the last header read was its (`HandHeaderMatcher.tailStamp`).
    var handMatcher: HandHeaderMatcher { fast }
}

/// An anchored message form matched: the class, its address when logged, the selector, and where the form ends.
struct MessageForm {
    var className: Range<Int>
    var address: Range<Int>?
    var selector: Range<Int>
    var end: Int
    /// `+[Class selector]`: a class method, never an instance's callback.
    var isClassMethod = false
}

/// `MessageParser.pattern`, anchored at the message's start.
final class PCRE2MessageFormMatcher: LineMatcher {
    private let limits: PCRE2Limits
    // Compiled when first needed, as the hand-written matcher in front of it decides most messages; a fixed pattern,
    // covered by tests: compiling it cannot fail.
    private lazy var matcher = PCRE2Matcher(try! CompiledPatterns.pattern(MessageParser.pattern, options: [.anchored]), limits: limits)

    init(limits: PCRE2Limits) {
        self.limits = limits
    }

    func match(_ line: UnsafeRawBufferPointer, in range: Range<Int>) throws(PCRE2MatchError) -> MatchAnswer<MessageForm> {
        let message = UnsafeRawBufferPointer(rebasing: line[..<range.upperBound])
        guard try matcher.matches(message, from: range.lowerBound),
              let className = matcher.range(ofGroup: 1), let selector = matcher.range(ofGroup: 3),
              let end = matcher.matchedRange?.upperBound
        else { return .notMatched }
        let isClassMethod = className.lowerBound >= 2 && line[className.lowerBound - 1] == UInt8(ascii: "[")
            && line[className.lowerBound - 2] == UInt8(ascii: "+")
        let address = matcher.range(ofGroup: 2).flatMap { $0.isEmpty ? nil : $0 }
        return .matched(MessageForm(className: className, address: address, selector: selector, end: end, isClassMethod: isClassMethod))
    }
}

/// The hand-written message form matcher (`HandMessageMatch`): the forms that start with a name, without an address.
final class HandMessageFormMatcher: LineMatcher {
    private let byteClasses = HandParsers.byteClasses

    @inline(__always)
    func match(_ line: UnsafeRawBufferPointer, in range: Range<Int>) -> MatchAnswer<MessageForm> {
        switch HandMessageMatch.match(line, from: range.lowerBound, to: range.upperBound, byteClasses: byteClasses) {
        case let .matched(className, selector, end): .matched(MessageForm(className: className, selector: selector, end: end))
        case .none: .notMatched
        case .undecided: .undecided
        }
    }
}
