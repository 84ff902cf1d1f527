import PCRE2

/// A lifecycle message recognised in a log line, with its names written out.
public struct LifecycleMessage: Equatable, Sendable {
    /// The class without its module (`ShopApp.CartViewController` → `CartViewController`); nil for markers.
    public var className: String?
    /// The instance address when the message carries one (`<Module.Class: 0x…>`), lower-cased.
    public var address: String?
    public var callback: Callback
    /// The selector or function exactly as logged (`viewWillAppear:`, `viewWillAppear(_:)`).
    public var spelled: String
    /// Where the recognised text ends in the line; text after it is a suffix or a second, glued record.
    public var end: Int
}

/// What a message was read as: a lifecycle message, or the reason it is not one.
enum MessageReading {
    /// `end`: where the recognised text ends in the line.
    case message(CallbackMessage, end: Int)
    /// Ordinary app logging.
    case other(OtherReason)
    /// Names a lifecycle callback, but no controller could be read around it.
    case unread(UnreadReason)
    /// A line of a crash report or a backtrace (`CrashShape`): never an event.
    case crash(CrashLine)
}

/// Recognises the message forms of lifecycle logging (issue: "Message forms") and normalises their names:
///
/// - `Class >>>> selector` (any spacing, any number of `>` from two up)
/// - `-[Class selector]` / `+[Class(Category) selector]` (`__PRETTY_FUNCTION__`)
/// - `Class selector()` — Swift `print(type(of: self), #function)`, also wrapped as `[Class selector()](38)`
/// - `<Module.Class: 0xADDR> selector` — Swift `print(self, #function)`; the address identifies the instance
/// - `Class selector` — a bare Objective-C selector, accepted only as the whole message
/// - the markers `main()` and UIKit's `Received memory warning.`
///
/// A message whose selector is not a known callback or intent is not lifecycle logging and yields nil.
public final class MessageParser {
    /// Groups, shared by every branch through a branch reset: 1 = class, 2 = address, 3 = selector.
    public static let pattern: String = {
        let name = #"[A-Za-z_][\w.]*"# + genericArguments
        let selector = #"[A-Za-z_]\w*(?:\([\w:]*\)|:(?:[A-Za-z_]\w*:)*)?(?![A-Za-z_(])"#
        let objcSelector = #"[A-Za-z_]\w*(?::(?:[A-Za-z_]\w*:)*)?"#
        let swiftFunction = #"[A-Za-z_]\w*\([\w:]*\)"#
        return #"\s*(?|"#
            + #"<(\#(name))(?::\s*(0x[0-9A-Fa-f]+))?>\s*(\#(selector))"#
            + #"|[-+]\[(\#(name))(?:\s*\(\w*\))?()\s+([A-Za-z_][\w:]*)\](?!_block_invoke)"#
            + #"|\[?(\#(name))\]?()\s*>{2,}\s*(\#(selector))"#
            + #"|\[?(\#(name))()\s+(\#(swiftFunction))"#
            + #"|(\#(name))()\s+(\#(objcSelector))\s*$"#
            + #")"#
    }()

    /// A generic class's arguments after its name, optional (`UIHostingController<ModifiedContent<DetailView, …>>`):
    /// type names, `,`, `?`, `!`, `:`, brackets, parentheses and spaces, never empty, nested up to six deep; each level
    /// possessive, so that an unclosed `<` is given up at once.
    static let genericArguments: String = {
        let text = #"[\w.,?!:\[\]() &]"#
        var level = "<\(text)++>"
        for _ in 1..<6 { level = "<(?:\(text)++|\(level))++>" }
        return "(?:\(level))?"
    }()

    /// The anchored forms: the hand-written matcher in front of PCRE2, or PCRE2 alone (`MatcherChoice`).
    private let forms: ChosenMatcher<HandMessageFormMatcher, PCRE2MessageFormMatcher>
    /// Reads the messages the anchored forms do not: a callback named anywhere, the controller around it.
    private let looseReader: LooseMessageReader
    /// Finds the lines of crash reports and backtraces.
    private let crashLines: CrashLineReader
    /// Finds os_log's redaction where a class or callback would be.
    private let redaction: RedactionReader
    /// Tells a logger's lines from inside one call from the start of the next (`InvocationTracker`): the one thing
    /// read from a message that depends on the lines before it. Reset for each input (`startInput`) and at `main()`.
    private var invocations = InvocationTracker()
    /// The names of the messages read: the run's (each thread's parser has its own).
    let names: NameTable
    /// The class name given to controller callbacks logged with no class at all.
    public static let anonymousClass = "(anonymous)"
    private let anonymousClass: ClassName
    /// Logged selector → its callback and spelling; nil for a selector that is not a callback.
    private let selectors = ByteStringCache<(callback: Callback, spelling: Spelling)?>()
    /// Whole message texts already read, with what they were read as: logs repeat the same few hundred callback
    /// lines, and apps their own logging (a poll, a cache's statistics); one lookup of the text costs less than
    /// matching it, and a line of ordinary logging met again is not searched for a callback again. A lifecycle
    /// message is kept only when it names no instance and nothing follows it (`end` is counted from the message's
    /// start). Ordinary messages take at most half the room (`otherMessagesKept`), so that the varied text of other
    /// lines cannot crowd lifecycle messages out; lifecycle messages may take the rest. Not used when the run matches
    /// every message (`MatcherChoice.exactOnly`).
    private let knownMessages = ByteStringCache<KnownMessage>(limit: 2 * MessageParser.knownMessagesOfEachKind)
    private static let knownMessagesOfEachKind = 4096
    /// The ordinary messages `knownMessages` holds.
    private var otherMessagesKept = 0
    /// How many message texts of each kind are remembered.
    var rememberedMessages: (lifecycle: Int, other: Int) { (knownMessages.count - otherMessagesKept, otherMessagesKept) }
    private let remembersMessages: Bool

    /// What a message text met before was read as.
    private enum KnownMessage {
        case lifecycle(RecognisedMessage)
        case other(OtherReason)
    }

    /// A message remembered whole, to be copied whole into each event: see `CallbackMessage`.
    private struct RecognisedMessage {
        var message: CallbackMessage
        var end: Int32
    }

    /// `fastPath: false` matches every message with PCRE2 (to compare the two).
    public convenience init(limits: PCRE2Limits = PCRE2Limits(), fastPath: Bool = true) {
        self.init(limits: limits, matchers: MatcherChoice(fastPath: fastPath), names: NameTable())
    }

    init(limits: PCRE2Limits, matchers: MatcherChoice, names: NameTable) {
        forms = matchers.messageFormMatcher(limits: limits)
        looseReader = LooseMessageReader(limits: limits)
        crashLines = CrashLineReader(limits: limits)
        redaction = RedactionReader(limits: limits)
        remembersMessages = matchers.remembersMessages
        self.names = names
        // A fresh table has room.
        anonymousClass = names.className(MessageParser.anonymousClass)!
    }

    static let mainMarker: StaticString = "main()"
    private static let unbalancedNotice: StaticString = "Unbalanced calls to begin/end appearance transitions for "
    private static let memoryWarningMarker: StaticString = "Received memory warning."

    /// Whether `bytes` are exactly the `main()` marker.
    static func isMainMarker(_ bytes: UnsafeRawBufferPointer.SubSequence) -> Bool {
        bytes.count == mainMarker.utf8CodeUnitCount && LineBytes.has(bytes, prefix: mainMarker)
    }

    /// The lifecycle message in `line[range]`, or nil when the message is ordinary app logging.
    public func parse(_ line: UnsafeRawBufferPointer, message range: Range<Int>) throws(PCRE2MatchError) -> LifecycleMessage? {
        guard case .message(let message, let end) = try read(line, message: range) else { return nil }
        return names.lifecycleMessage(message, end: end)
    }

    /// Starts reading an input: no call of a logger's function is open (`InvocationTracker`).
    func startInput() {
        invocations.reset()
    }

    /// What the message in `line[range]` is: what the per-line path uses.
    func read(_ line: UnsafeRawBufferPointer, message range: Range<Int>) throws(PCRE2MatchError) -> MessageReading {
        // What a message is recognised as depends on its bytes alone (no form looks outside them), except whether a
        // logger's line is inside a call an earlier line began: such messages are never remembered.
        let text = UnsafeRawBufferPointer(rebasing: line[range])
        guard remembersMessages else {
            let (reading, source) = try recognise(line, message: range)
            return source.map { inCall(reading, logged: $0, in: line) } ?? reading
        }
        let hash = ByteHash.of(text)
        switch knownMessages.value(for: text, hash: hash) {
        case .lifecycle(let known)?:
            // `known.end` is within the remembered bytes, the same as these: no overflow.
            return .message(known.message, end: range.lowerBound &+ Int(known.end))
        case .other(let reason)?:
            return .other(reason)
        case nil:
            break
        }
        let (reading, source) = try recognise(line, message: range)
        if let source { return inCall(reading, logged: source, in: line) }
        if case .other(let reason) = reading {
            if otherMessagesKept < MessageParser.knownMessagesOfEachKind, knownMessages.store(.other(reason), for: text, hash: hash) {
                otherMessagesKept += 1
            }
            return reading
        }
        // Kept only when the text is the message alone: text after it (a second record glued on by a lost newline)
        // would make a key seen once.
        if case .message(let message, let end) = reading, message.instance == nil, message.callback.noticeRule == nil,
           message.spelling != nil,
           LineBytes.trimmed(line, end..<range.upperBound).isEmpty {
            let known = RecognisedMessage(message: message, end: Int32(end - range.lowerBound))
            knownMessages.store(.lifecycle(known), for: text, hash: hash)
        }
        return reading
    }

    /// A logger's line of a callback (`reading`, a message, logged at `source`): the message when it begins a call,
    /// other logging when it was logged from inside the call an earlier line began (`InvocationTracker`).
    private func inCall(_ reading: MessageReading, logged source: SourcePosition, in line: UnsafeRawBufferPointer) -> MessageReading {
        guard case .message(let message, _) = reading, let spelling = message.spelling,
              let number = Int(decoding: line[source.line]) else { return reading }
        let file = String(decoding: line[source.file], as: UTF8.self)
        return invocations.isInsideCall(file: file, line: number, function: spelling) ? .other(.insideCall) : reading
    }

    /// The reason `lctrace lines` gives for other logging: for a line logged from inside a call, which call.
    func reasonText(_ reason: OtherReason) -> String {
        guard reason == .insideCall, let call = invocations.lastInsideCall else { return reason.rawValue }
        return "logged from inside \(names[call.function]) (line \(call.firstLine) of \(call.file)), not a new call"
    }

    /// Recognises the message's form and names: the anchored forms first, then a callback named anywhere in it. The
    /// source position is a logger's, when it printed one with the callback's name (the function it was logged from).
    private func recognise(_ line: UnsafeRawBufferPointer, message range: Range<Int>) throws(PCRE2MatchError)
        -> (MessageReading, source: SourcePosition?) {
        let trimmed = LineBytes.trimmed(line, range)
        if let marker = MessageParser.marker(line[trimmed]) {
            // A new launch: no call is open.
            if marker == .main { invocations.reset() }
            return (.message(CallbackMessage(callback: marker), end: trimmed.upperBound), nil)
        }
        if LineBytes.has(line[trimmed], prefix: MessageParser.unbalancedNotice) {
            return (unbalancedAppearanceNotice(line, from: trimmed.lowerBound + MessageParser.unbalancedNotice.utf8CodeUnitCount,
                                               to: trimmed.upperBound) ?? .other(.noCallback), nil)
        }
        guard trimmed.count >= 3 else { return (.other(.noCallback), nil) }
        // UIKit's notices name their controller as `<Class: 0x…>`, and os_log's redaction is `<…>` too: most lines of
        // ordinary logging have no `<` and are done with here.
        if LineBytes.contains(UInt8(ascii: "<"), in: line[trimmed]) {
            if let notice = otherNotice(line, trimmed) { return (notice, nil) }
            if try redaction.hidesAName(line, message: trimmed) { return (.unread(.redacted), nil) }
        }
        if let form = try forms.firstMatch(line, in: range) {
            if form.isClassMethod { return (.other(.classMethod), nil) }
            var reading = recognised(line, classRange: form.className, address: form.address, selectorRange: form.selector, end: form.end)
            if case .message(let message, _) = reading, message.callback.family == .view,
               !MessageParser.isViewMessage(line, trimmed, className: form.className, address: form.address, selector: form.selector) {
                reading = .other(.noCallback)
            }
            if case .other(.noCallback) = reading {} else { return (reading, nil) }
        }
        if let view = identifiedViewMessage(line, trimmed) { return (view, nil) }
        // No anchored form reads a line of a crash report as a callback: they are looked for only now.
        if let crash = try crashLines.read(line, message: trimmed) { return (.crash(crash), nil) }
        switch try looseReader.read(line, message: trimmed) {
        case .callback(let reading):
            return (recognised(line, classRange: reading.className, address: reading.address, selectorRange: reading.selector,
                               end: trimmed.upperBound),
                    reading.source.map { SourcePosition(file: $0.file, line: $0.line) })
        case .other(let reason): return (.other(reason), nil)
        case .unread(let reason): return (.unread(reason), nil)
        }
    }

    /// The message for a matched class and selector, or why it is not one: the selector is not a lifecycle callback or
    /// intent, or it is init/dealloc with no class. `classRange` nil: the message names no class.
    private func recognised(_ line: UnsafeRawBufferPointer, classRange: Range<Int>?, address: Range<Int>?,
                            selectorRange: Range<Int>, end: Int) -> MessageReading {
        let selectorBytes = UnsafeRawBufferPointer(rebasing: line[selectorRange])
        let selector: (callback: Callback, spelling: Spelling)
        if let known = selectors.value(for: selectorBytes) {
            guard let known else { return .other(.noCallback) }
            selector = known
        } else {
            let spelled = String(decoding: selectorBytes, as: UTF8.self)
            guard let callback = CallbackNames.callback(forSelector: spelled) else {
                selectors.store(nil, for: selectorBytes)
                return .other(.noCallback)
            }
            guard let spelling = names.spelling(spelled) else { return .unread(.tooManyNames) }
            selector = (callback, spelling)
            selectors.store(selector, for: selectorBytes)
        }
        var className: ClassName?
        if let classRange {
            guard let name = names.className(logged: UnsafeRawBufferPointer(rebasing: line[classRange])) else { return .unread(.tooManyNames) }
            className = name
        } else if selector.callback.family == .controller {
            if selector.callback.isSharedWithOtherClasses { return .other(.sharedCallbackWithoutClass) }
            className = anonymousClass
        }
        var instance: InstanceLabel?
        if let address {
            guard let label = instanceLabel(line[address]) else { return .unread(.tooManyNames) }
            instance = label
        }
        return .message(CallbackMessage(callback: selector.callback, className: className, spelling: selector.spelling,
                                        instance: instance),
                        end: end)
    }

    /// Whether a form read as a SwiftUI view's callback is the one form views are logged in: the whole message is a
    /// type name, spaces and the callback's plain name (`DetailView onAppear`, `CartScreen appeared`), the type name
    /// starting upper-case. Anything else (`-[Downloader task]`, `worker task`, `Image appeared slowly`) is ordinary
    /// logging, as it was before views were read.
    private static func isViewMessage(_ line: UnsafeRawBufferPointer, _ trimmed: Range<Int>, className: Range<Int>?,
                                      address: Range<Int>?, selector: Range<Int>) -> Bool {
        guard let className, address == nil, className.lowerBound == trimmed.lowerBound,
              selector.upperBound == trimmed.upperBound, className.upperBound < selector.lowerBound,
              isUpperCaseLetter(line[className.lowerBound]) else { return false }
        for index in className.upperBound..<selector.lowerBound where !LineBytes.isSpace(line[index]) { return false }
        for index in selector where line[index] == UInt8(ascii: "(") || line[index] == UInt8(ascii: ":") { return false }
        return true
    }

    private static func isUpperCaseLetter(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") }

    /// The length of a UUID as Swift prints one (`E621E1F8-C36C-495A-93FC-0C247A3E6E5F`), and where its dashes are.
    private static let uuidLength = 36
    private static let uuidDashes: Set<Int> = [8, 13, 18, 23]

    /// A SwiftUI view's callback logged after the UUID that names the view (`print(id, "onAppear")`): an anonymous
    /// view per id, as for controllers logged with an id and no class. Nil for any other message.
    private func identifiedViewMessage(_ line: UnsafeRawBufferPointer, _ trimmed: Range<Int>) -> MessageReading? {
        let idEnd = trimmed.lowerBound + MessageParser.uuidLength
        guard trimmed.count > MessageParser.uuidLength + 1, LineBytes.isSpace(line[idEnd]) else { return nil }
        for offset in 0..<MessageParser.uuidLength {
            let byte = line[trimmed.lowerBound + offset]
            if MessageParser.uuidDashes.contains(offset) {
                guard byte == UInt8(ascii: "-") else { return nil }
            } else {
                guard (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")) || (byte | 0x20 >= UInt8(ascii: "a") && byte | 0x20 <= UInt8(ascii: "f")) else { return nil }
            }
        }
        var start = idEnd
        while start < trimmed.upperBound, LineBytes.isSpace(line[start]) { start += 1 }
        let spelled = String(decoding: line[start..<trimmed.upperBound], as: UTF8.self)
        guard spelled.allSatisfy({ $0.isLetter }), let callback = CallbackNames.callback(forSelector: spelled),
              callback.family == .view else { return nil }
        guard let spelling = names.spelling(spelled),
              let instance = instanceLabel(line[trimmed.lowerBound..<idEnd]) else { return .unread(.tooManyNames) }
        return .message(CallbackMessage(callback: callback, className: anonymousClass, spelling: spelling, instance: instance),
                        end: trimmed.upperBound)
    }

    /// A logged address, by its value when it is hexadecimal, otherwise an id by its text, lower-cased. Nil when the
    /// name table has no room for the id.
    private func instanceLabel(_ bytes: UnsafeRawBufferPointer.SubSequence) -> InstanceLabel? {
        if let address = InstanceAddress(bytes) { return .address(address) }
        return names.instanceID(String(decoding: bytes, as: UTF8.self).lowercased()).map(InstanceLabel.id)
    }

    private static let calledDirectlyNotice: StaticString = "directly on a view controller is not supported"
    private static let calledDirectlyObject: StaticString = "View controller: "

    /// UIKit's notices about a presentation, as it prints them: the words just before the controller the notice is
    /// about, and the words that tell it from the other notices that start alike. Tried in this order.
    private static let presentationNotices: [(notice: Callback, before: StaticString, telling: StaticString)] = [
        (.presentNotInWindowNotice, "Attempt to present ", "whose view is not in the window hierarchy"),
        (.presentWhilePresentingNotice, "Attempt to present ", "which is already presenting"),
        (.presentWhileTransitioningNotice, "Attempt to present ", "while a presentation is in progress"),
        (.dismissWhileTransitioningNotice, "Attempt to dismiss from view controller ", "while a presentation or dismiss is in progress"),
        (.presentOnDetachedNotice, "Presenting view controllers on detached view controllers is discouraged ", "is discouraged "),
        (.presentAlreadyPresentedNotice, "Application tried to present modally a view controller ", "that is already being presented"),
    ]

    /// UIKit's other notices about a controller: an appearance method called directly (the controller is named after
    /// "View controller: " at the end), and the presentation notices (`presentationNotices`). Nil when the message is neither. Only called for a message with a `<`.
    private func otherNotice(_ line: UnsafeRawBufferPointer, _ range: Range<Int>) -> MessageReading? {
        let text = line[range]
        if let object = LineBytes.find(MessageParser.calledDirectlyObject, in: text, last: true),
           LineBytes.find(MessageParser.calledDirectlyNotice, in: text) != nil {
            return notice(.appearanceCalledDirectlyNotice, line, objectAt: object + MessageParser.calledDirectlyObject.utf8CodeUnitCount,
                          text: range)
        }
        for (callback, before, telling) in MessageParser.presentationNotices {
            if let start = LineBytes.find(before, in: text), LineBytes.find(telling, in: text) != nil {
                return notice(callback, line, objectAt: start + before.utf8CodeUnitCount, text: range)
            }
        }
        return nil
    }

    /// UIKit's "Unbalanced calls to begin/end appearance transitions for <Module.Class: 0x…>." names the controller.
    private func unbalancedAppearanceNotice(_ line: UnsafeRawBufferPointer, from start: Int, to end: Int) -> MessageReading? {
        notice(.unbalancedAppearanceNotice, line, objectAt: start,
               text: (start - MessageParser.unbalancedNotice.utf8CodeUnitCount)..<end)
    }

    /// A notice UIKit prints about the controller described at `start` (`<Module.Class: 0x…>`, or a bare class name).
    /// Its spelling is the whole notice.
    private func notice(_ callback: Callback, _ line: UnsafeRawBufferPointer, objectAt start: Int, text: Range<Int>) -> MessageReading? {
        let end = text.upperBound
        var index = start
        if index < end, line[index] == UInt8(ascii: "<") { index += 1 }
        let nameStart = index
        while index < end, line[index] != UInt8(ascii: ":"), line[index] != UInt8(ascii: ">"), !LineBytes.isSpace(line[index]) { index += 1 }
        guard index > nameStart else { return nil }
        if nameStart > start, MessageParser.isRedactionMarkerName(line[nameStart..<index]) { return .unread(.redacted) }
        guard let className = names.className(logged: UnsafeRawBufferPointer(rebasing: line[nameStart..<index])) else {
            return .unread(.tooManyNames)
        }
        var instance: InstanceLabel?
        if index < end, line[index] == UInt8(ascii: ":") {
            index += 1
            while index < end, LineBytes.isSpace(line[index]) { index += 1 }
            let addressStart = index
            while index < end, line[index] != UInt8(ascii: ">"), !LineBytes.isSpace(line[index]) { index += 1 }
            if index > addressStart {
                guard let label = instanceLabel(line[addressStart..<index]) else { return .unread(.tooManyNames) }
                instance = label
            }
        }
        guard let spelling = names.notice(String(decoding: line[text], as: UTF8.self)) else { return .unread(.tooManyNames) }
        return .message(CallbackMessage(callback: callback, className: className, spelling: spelling, instance: instance), end: end)
    }

    private static let privateName: StaticString = "private"
    private static let maskName: StaticString = "mask.hash"

    /// Whether a name read inside `<…>` is os_log's redaction (`<private>`, `<mask.hash: '…'>`) rather than a class.
    static func isRedactionMarkerName(_ bytes: UnsafeRawBufferPointer.SubSequence) -> Bool {
        (bytes.count == privateName.utf8CodeUnitCount && LineBytes.has(bytes, prefix: privateName))
            || (bytes.count == maskName.utf8CodeUnitCount && LineBytes.has(bytes, prefix: maskName))
    }

    @inline(__always)
    private static func marker(_ bytes: UnsafeRawBufferPointer.SubSequence) -> Callback? {
        if isMainMarker(bytes) { return .main }
        if LineBytes.has(bytes, prefix: memoryWarningMarker) { return .receivedMemoryWarning }
        return nil
    }
}

/// Where a logger said a line was logged: the source file as printed, and the line number's digits.
struct SourcePosition {
    var file: Range<Int>
    var line: Range<Int>
}

/// Tells a logger's lines logged from inside one call from the start of the next, for loggers that print the function
/// they were called from, with its source file and line, on every line (`[ViewController.swift:34] viewDidLoad() >
/// loading feed`): each such line names the callback, and only the first of a call is the call.
///
/// The rule: a line in this form that names a callback starts a new call of it, unless the last such line of the same
/// source file named the same function at a lower source line; it is then logged from inside that call. A call that
/// logs again from its first line (the same line, or an earlier one) is a new call: a callback called twice in a row
/// logs its lines again from the top. Lines of other files may come between (a child controller loaded from inside a
/// parent's `viewDidLoad`), and lines of the same file that name no callback (a helper it calls) do not count.
struct InvocationTracker {
    /// The call a file's last line in this form was logged from.
    struct Call {
        var function: Spelling
        var file: String
        var firstLine: Int
        var lastLine: Int
    }

    /// By source file as logged.
    private var calls: [String: Call] = [:]
    /// The call the last line found inside one was logged from (what `lctrace lines` says of it).
    private(set) var lastInsideCall: Call?
    /// A bound on the files remembered: past it, they are forgotten (their next lines start new calls).
    static let filesKept = 4096

    /// Whether the line logged at `line` of `file` from `function` is inside the call the file's last such line was in.
    mutating func isInsideCall(file: String, line: Int, function: Spelling) -> Bool {
        if var call = calls[file], call.function == function, line > call.lastLine {
            call.lastLine = line
            calls[file] = call
            lastInsideCall = call
            return true
        }
        if calls.count >= InvocationTracker.filesKept, calls[file] == nil { calls.removeAll(keepingCapacity: true) }
        calls[file] = Call(function: function, file: file, firstLine: line, lastLine: line)
        return false
    }

    mutating func reset() {
        if !calls.isEmpty { calls.removeAll() }
        lastInsideCall = nil
    }
}
