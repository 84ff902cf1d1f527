import PCRE2

/// A lifecycle message recognised in a log line.
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
    /// The parser's number for the class name, as `KeyedMessage` carries it: the same for every message of that class
    /// from one parser. -1 when the parser has no number for it.
    var classKey: Int32 = -1

    public static func == (lhs: LifecycleMessage, rhs: LifecycleMessage) -> Bool {
        lhs.className == rhs.className && lhs.address == rhs.address && lhs.callback == rhs.callback
            && lhs.spelled == rhs.spelled && lhs.end == rhs.end
    }
}

/// What a message was read as: a lifecycle message, or the reason it is not one.
enum MessageReading {
    case message(KeyedMessage)
    /// Ordinary app logging.
    case other(OtherReason)
    /// Names a lifecycle callback, but no controller could be read around it.
    case unread(UnreadReason)

    var message: KeyedMessage? {
        if case .message(let message) = self { return message }
        return nil
    }
}

/// A lifecycle message as the per-line path carries it: a plain value, so that making, copying and dropping one per
/// line costs no reference counting. Its names are the parser's numbers, and a hexadecimal instance address is its
/// value; what has no number (a name past the parser's bound, other text) stays with the parser until it parses
/// the next message (`unkeyed`). `MessageParser.className(of:)`, `spelling(of:)` and `address(of:)` give the text.
struct KeyedMessage {
    var callback: Callback
    var end: Int
    var classKey: Int32 = -1
    var spelledKey: Int32 = -1
    /// A hexadecimal address (`0x…`, up to 16 digits); any other is text in the unkeyed names.
    var address: InstanceAddress?
    /// Which parse's unkeyed names are this message's (`MessageParser.unkeyedParse`); 0 when it has none.
    var unkeyed: UInt32 = 0

    /// The address is text (kept with the unkeyed names).
    var hasAddressText = false
}

/// An instance address as logged, `0x` and up to sixteen hexadecimal digits, held as its value and number of digits:
/// its text (lower-cased, as reports show it) is made only when written.
struct InstanceAddress: Hashable {
    var value: UInt64
    var digits: UInt8

    /// `0x` then 1 to 16 hexadecimal digits, and nothing else; nil otherwise.
    init?(_ bytes: UnsafeRawBufferPointer.SubSequence) {
        guard bytes.count > 2, bytes.count <= 18, bytes[bytes.startIndex] == UInt8(ascii: "0"),
              bytes[bytes.startIndex + 1] | 0x20 == UInt8(ascii: "x") else { return nil }
        var value: UInt64 = 0
        for byte in bytes.dropFirst(2) {
            guard let digit = HandParsers.hexValue(byte) else { return nil }
            value = value << 4 | UInt64(digit)
        }
        self.value = value
        digits = UInt8(bytes.count - 2)
    }

    /// `0x` and the digits, lower-cased, leading zeros kept.
    var text: String {
        let hex = String(value, radix: 16)
        return "0x" + String(repeating: "0", count: Int(digits) - hex.count) + hex
    }
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
        let name = #"[A-Za-z_][\w.]*"#
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

    private let matcher: PCRE2Matcher
    /// Reads the messages the anchored forms do not: a callback named anywhere, the controller around it.
    private let looseReader: LooseMessageReader
    /// The class name given to controller callbacks logged with no class at all.
    public static let anonymousClass = "(anonymous)"
    /// Logged selector → its callback, if it is one, and the spelling's number (`spellingsByKey`). Selectors that
    /// would get no number (past the bound) are not kept, so their spelling is made each time.
    private var selectors = ByteStringCache<(callback: Callback?, key: Int32)>()
    /// Logged class (with its module) → the number of the class name reports use (`classNamesByKey`). Classes
    /// that would get no number are not kept, likewise.
    private var classNames = ByteStringCache<Int32>()
    /// Whole message texts already recognised as lifecycle messages, with what they were recognised as (`end`
    /// counted from the message's start): logs repeat the same few hundred callback lines, and one lookup of the
    /// text costs less than matching it. Only messages that are plain values are kept (no address, every name
    /// numbered, nothing after them); ordinary app logging is not kept, so the varied text of other lines cannot
    /// crowd them out.
    private var recognisedMessages = ByteStringCache<RecognisedMessage>()
    /// The text of the last parsed message that has no number: its class name, spelling and address, kept until
    /// the next message is parsed (each message is handled before the next line is read).
    private var unkeyedNames: (className: String?, spelling: String?, address: String?) = (nil, nil, nil)
    /// The number of the parse that set `unkeyedNames` (never 0), checked when they are read.
    private var unkeyedParse: UInt32 = 0

    private struct RecognisedMessage {
        var callback: Callback
        var end: Int32
        var classKey: Int32
        var spelledKey: Int32
    }
    /// Class name → its number. Bounded as the caches are; names past the bound get none (-1).
    private var classKeys: [String: Int32] = [:]
    private static let keyLimit = 4096
    /// The names and spellings by number. Numbers are never reused, so one stays valid for the parser's life.
    private var classNamesByKey: [String] = []
    private var spellingsByKey: [String] = []

    /// The class name numbered `key` by this parser.
    func className(forKey key: Int32) -> String { classNamesByKey[Int(key)] }
    /// The spelling numbered `key` by this parser.
    func spelling(forKey key: Int32) -> String { spellingsByKey[Int(key)] }

    /// Whether the hand-written matcher decides the common forms before PCRE2 is asked.
    private let fastPath: Bool

    /// `fastPath: false` matches every message with PCRE2 (to compare the two).
    public init(limits: PCRE2Limits = PCRE2Limits(), fastPath: Bool = true) {
        // A fixed pattern, covered by tests: compiling it cannot fail.
        matcher = PCRE2Matcher(try! PCRE2Pattern(MessageParser.pattern, options: [.anchored]), limits: limits)
        looseReader = LooseMessageReader(limits: limits)
        self.fastPath = fastPath
    }

    static let mainMarker: StaticString = "main()"
    private static let unbalancedNotice: StaticString = "Unbalanced calls to begin/end appearance transitions for "
    private static let memoryWarningMarker: StaticString = "Received memory warning."

    /// Whether `bytes` are exactly the `main()` marker.
    static func isMainMarker(_ bytes: UnsafeRawBufferPointer.SubSequence) -> Bool {
        bytes.count == mainMarker.utf8CodeUnitCount && has(bytes, prefix: mainMarker)
    }

    /// Whether `bytes` start with `prefix`.
    @inline(__always)
    private static func has(_ bytes: UnsafeRawBufferPointer.SubSequence, prefix: StaticString) -> Bool {
        guard bytes.count >= prefix.utf8CodeUnitCount, let base = bytes.base.baseAddress else { return false }
        return memcmp(base + bytes.startIndex, prefix.utf8Start, prefix.utf8CodeUnitCount) == 0
    }

    /// The lifecycle message in `line[range]`, or nil when the message is ordinary app logging.
    public func parse(_ line: UnsafeRawBufferPointer, message range: Range<Int>) throws(PCRE2MatchError) -> LifecycleMessage? {
        try parseKeyed(line, message: range).message.map(message(_:))
    }

    /// The message with its names.
    func message(_ keyed: KeyedMessage) -> LifecycleMessage {
        LifecycleMessage(className: className(of: keyed), address: address(of: keyed), callback: keyed.callback,
                         spelled: spelling(of: keyed), end: keyed.end, classKey: keyed.classKey)
    }

    /// The message's class name (without its module); nil for markers.
    func className(of message: KeyedMessage) -> String? {
        message.classKey >= 0 ? className(forKey: message.classKey) : unkeyed(of: message)?.className
    }

    /// The message's selector or function as logged.
    func spelling(of message: KeyedMessage) -> String {
        message.spelledKey >= 0 ? spelling(forKey: message.spelledKey) : unkeyed(of: message)?.spelling ?? message.callback.rawValue
    }

    /// The message's instance address, lower-cased; nil when it has none.
    func address(of message: KeyedMessage) -> String? {
        message.address?.text ?? unkeyed(of: message)?.address
    }

    /// The message's text that has no number; nil when it has none.
    private func unkeyed(of message: KeyedMessage) -> (className: String?, spelling: String?, address: String?)? {
        guard message.unkeyed != 0 else { return nil }
        precondition(message.unkeyed == unkeyedParse, "a message's text is read before the next message is parsed")
        return unkeyedNames
    }

    /// Keeps the text that has no number for the message being made; returns the number to give it (0: none).
    private func keepUnkeyed(className: String?, spelling: String?, address: String?) -> UInt32 {
        guard className != nil || spelling != nil || address != nil else { return 0 }
        unkeyedParse = unkeyedParse == .max ? 1 : unkeyedParse + 1
        unkeyedNames = (className, spelling, address)
        return unkeyedParse
    }

    /// A logged address: its value when it is hexadecimal, otherwise its text, lower-cased.
    private static func address(_ bytes: UnsafeRawBufferPointer.SubSequence) -> (value: InstanceAddress?, text: String?) {
        if let value = InstanceAddress(bytes) { return (value, nil) }
        return (nil, String(decoding: bytes, as: UTF8.self).lowercased())
    }

    /// `parse` without making the names: what the per-line path uses.
    func parseKeyed(_ line: UnsafeRawBufferPointer, message range: Range<Int>) throws(PCRE2MatchError) -> MessageReading {
        // What a message is recognised as depends on its bytes alone (no form looks outside them).
        let text = UnsafeRawBufferPointer(rebasing: line[range])
        guard fastPath else { return try recognise(line, message: range) }
        if let known = recognisedMessages.value(for: text) {
            return .message(KeyedMessage(callback: known.callback, end: range.lowerBound + Int(known.end),
                                         classKey: known.classKey, spelledKey: known.spelledKey))
        }
        let reading = try recognise(line, message: range)
        // Kept only when the text is the message alone: text after it (a second record glued on by a lost newline)
        // would make a key seen once.
        if let message = reading.message, message.address == nil, message.unkeyed == 0,
           MessageParser.trimmed(line, message.end..<range.upperBound).isEmpty {
            recognisedMessages.store(RecognisedMessage(callback: message.callback, end: Int32(message.end - range.lowerBound),
                                                       classKey: message.classKey, spelledKey: message.spelledKey), for: text)
        }
        return reading
    }

    /// Recognises the message's form and names: the anchored forms first, then a callback named anywhere in it.
    private func recognise(_ line: UnsafeRawBufferPointer, message range: Range<Int>) throws(PCRE2MatchError) -> MessageReading {
        let trimmed = MessageParser.trimmed(line, range)
        if let marker = MessageParser.marker(line[trimmed]) {
            return .message(KeyedMessage(callback: marker, end: trimmed.upperBound))
        }
        if MessageParser.has(line[trimmed], prefix: MessageParser.unbalancedNotice) {
            return unbalancedAppearanceNotice(line, from: trimmed.lowerBound + MessageParser.unbalancedNotice.utf8CodeUnitCount,
                                              to: trimmed.upperBound).map(MessageReading.message) ?? .other(.noCallback)
        }
        guard trimmed.count >= 3 else { return .other(.noCallback) }
        if let notice = otherNotice(line, trimmed) { return .message(notice) }
        if let anchored = try recogniseAnchored(line, message: range) { return anchored }
        switch try looseReader.read(line, message: trimmed) {
        case .callback(let reading):
            let address = reading.address.map { line[$0] }
            return recognised(line, classRange: reading.className, address: address, selectorRange: reading.selector,
                              end: trimmed.upperBound)
        case .other(let reason): return .other(reason)
        case .unread(let reason): return .unread(reason)
        }
    }

    /// The anchored forms: `Class >>>> sel`, `-[Class sel]`, `Class sel()`, `<Module.Class: 0x…> sel`, `Class sel`.
    /// Nil when none matches or the selector is not a lifecycle callback (the loose reading is tried next).
    private func recogniseAnchored(_ line: UnsafeRawBufferPointer, message range: Range<Int>) throws(PCRE2MatchError) -> MessageReading? {
        if fastPath {
            switch HandMessageMatch.match(line, from: range.lowerBound, to: range.upperBound) {
            case let .matched(className, selector, end):
                return recognisedIfCallback(line, classRange: className, address: nil, selectorRange: selector, end: end)
            case .none: return nil
            case .undecided: break
            }
        }
        let message = UnsafeRawBufferPointer(rebasing: line[..<range.upperBound])
        guard try matcher.matches(message, from: range.lowerBound),
              let classRange = matcher.range(ofGroup: 1), let selectorRange = matcher.range(ofGroup: 3),
              let end = matcher.matchedRange?.upperBound
        else { return nil }
        // `+[Class selector]` is a class method (`+initialize`, `+load`), never an instance's callback.
        if classRange.lowerBound >= 2, line[classRange.lowerBound - 1] == UInt8(ascii: "["), line[classRange.lowerBound - 2] == UInt8(ascii: "+") {
            return .other(.classMethod)
        }
        let address = matcher.range(ofGroup: 2).flatMap { $0.isEmpty ? nil : line[$0] }
        return recognisedIfCallback(line, classRange: classRange, address: address, selectorRange: selectorRange, end: end)
    }

    /// `recognised`, or nil when the selector is not a lifecycle callback or intent.
    @inline(__always)
    private func recognisedIfCallback(_ line: UnsafeRawBufferPointer, classRange: Range<Int>, address: UnsafeRawBufferPointer.SubSequence?,
                                      selectorRange: Range<Int>, end: Int) -> MessageReading? {
        let reading = recognised(line, classRange: classRange, address: address, selectorRange: selectorRange, end: end)
        if case .other(.noCallback) = reading { return nil }
        return reading
    }

    /// The message for a matched class and selector, or why it is not one: the selector is not a lifecycle callback or
    /// intent, or it is init/dealloc with no class. `classRange` nil: the message names no class.
    private func recognised(_ line: UnsafeRawBufferPointer, classRange: Range<Int>?, address: UnsafeRawBufferPointer.SubSequence?,
                            selectorRange: Range<Int>, end: Int) -> MessageReading {
        let selectorBytes = UnsafeRawBufferPointer(rebasing: line[selectorRange])
        let callback: Callback
        let spelledKey: Int32
        var unkeyedSpelling: String?
        if let selector = selectors.value(for: selectorBytes) {
            guard let known = selector.callback else { return .other(.noCallback) }
            (callback, spelledKey) = (known, selector.key)
        } else {
            let selector = newSelector(selectorBytes)
            guard let known = selector.callback else { return .other(.noCallback) }
            (callback, spelledKey) = (known, selector.key)
            if selector.key < 0 { unkeyedSpelling = selector.spelled }
        }
        var classKey: Int32 = -1
        var unkeyedClassName: String?
        if let classRange {
            let classBytes = UnsafeRawBufferPointer(rebasing: line[classRange])
            if let key = classNames.value(for: classBytes) {
                classKey = key
            } else {
                let className = newClassName(classBytes)
                classKey = className.key
                if className.key < 0 { unkeyedClassName = className.name }
            }
        } else if callback.family == .controller {
            if callback.isSharedWithOtherClasses { return .other(.sharedCallbackWithoutClass) }
            classKey = self.classKey(for: MessageParser.anonymousClass)
        }
        let logged = address.map(MessageParser.address)
        var message = KeyedMessage(callback: callback, end: end, classKey: classKey, spelledKey: spelledKey, address: logged?.value)
        message.unkeyed = keepUnkeyed(className: unkeyedClassName, spelling: unkeyedSpelling, address: logged?.text)
        message.hasAddressText = logged?.text != nil
        return .message(message)
    }

    /// A selector seen for the first time: its callback, if it is one, its spelling and, for a callback, a number.
    private func newSelector(_ bytes: UnsafeRawBufferPointer) -> (callback: Callback?, spelled: String, key: Int32) {
        let spelled = String(decoding: bytes, as: UTF8.self)
        let callback = CallbackNames.callback(forSelector: spelled)
        guard callback != nil else {
            selectors.store((nil, -1), for: bytes)
            return (nil, spelled, -1)
        }
        guard spellingsByKey.count < MessageParser.keyLimit else { return (callback, spelled, -1) }
        spellingsByKey.append(spelled)
        let key = Int32(spellingsByKey.count - 1)
        selectors.store((callback, key), for: bytes)
        return (callback, spelled, key)
    }

    /// A logged class seen for the first time: the name reports use, and its number.
    private func newClassName(_ bytes: UnsafeRawBufferPointer) -> (name: String, key: Int32) {
        let name = MessageParser.className(bytes[...])
        let key = classKey(for: name)
        if key >= 0 { classNames.store(key, for: bytes) }
        return (name, key)
    }

    /// The number of a class name (`Module.Class` and `Class` share one), given in the order names are first seen.
    private func classKey(for name: String) -> Int32 {
        if let key = classKeys[name] { return key }
        guard classKeys.count < MessageParser.keyLimit else { return -1 }
        let key = Int32(classKeys.count)
        classKeys[name] = key
        classNamesByKey.append(name)
        return key
    }

    private static let calledDirectlyNotice: StaticString = "directly on a view controller is not supported"
    private static let calledDirectlyObject: StaticString = "View controller: "
    private static let presentNotice: StaticString = "Attempt to present "
    private static let notInWindowNotice: StaticString = "whose view is not in the window hierarchy"

    /// UIKit's other notices about a controller: an appearance method called directly (the controller is named after
    /// "View controller: " at the end), and a presentation refused because the presenter's view is not in a window
    /// (the controller is the one to be presented). Nil when the message is neither.
    private func otherNotice(_ line: UnsafeRawBufferPointer, _ range: Range<Int>) -> KeyedMessage? {
        let text = line[range]
        // Both name a controller as `<Class: 0x…>`: most lines of ordinary logging have no `<` and are done with here.
        guard let base = line.baseAddress, memchr(base + range.lowerBound, Int32(UInt8(ascii: "<")), range.count) != nil else { return nil }
        if let object = MessageParser.find(MessageParser.calledDirectlyObject, in: text, last: true),
           MessageParser.find(MessageParser.calledDirectlyNotice, in: text) != nil {
            return notice(.appearanceCalledDirectlyNotice, line, objectAt: object + MessageParser.calledDirectlyObject.utf8CodeUnitCount,
                          text: range)
        }
        if let attempt = MessageParser.find(MessageParser.presentNotice, in: text),
           MessageParser.find(MessageParser.notInWindowNotice, in: text) != nil {
            return notice(.presentNotInWindowNotice, line, objectAt: attempt + MessageParser.presentNotice.utf8CodeUnitCount, text: range)
        }
        return nil
    }

    /// Where `needle` starts in `bytes` (the first place, or the last), or nil.
    static func find(_ needle: StaticString, in bytes: UnsafeRawBufferPointer.SubSequence, last: Bool = false) -> Int? {
        let count = needle.utf8CodeUnitCount
        guard bytes.count >= count, let base = bytes.base.baseAddress else { return nil }
        let first = Int32(needle.utf8Start.pointee)
        var found: Int?
        var from = bytes.startIndex
        while from + count <= bytes.endIndex, let hit = memchr(base + from, first, bytes.endIndex - count + 1 - from) {
            let index = base.distance(to: UnsafeRawPointer(hit))
            if memcmp(base + index, needle.utf8Start, count) == 0 {
                found = index
                if !last { break }
            }
            from = index + 1
        }
        return found
    }

    /// UIKit's "Unbalanced calls to begin/end appearance transitions for <Module.Class: 0x…>." names the controller.
    private func unbalancedAppearanceNotice(_ line: UnsafeRawBufferPointer, from start: Int, to end: Int) -> KeyedMessage? {
        notice(.unbalancedAppearanceNotice, line, objectAt: start,
               text: (start - MessageParser.unbalancedNotice.utf8CodeUnitCount)..<end)
    }

    /// A notice UIKit prints about the controller described at `start` (`<Module.Class: 0x…>`, or a bare class name).
    /// Its spelling is the whole notice.
    private func notice(_ callback: Callback, _ line: UnsafeRawBufferPointer, objectAt start: Int, text: Range<Int>) -> KeyedMessage? {
        let end = text.upperBound
        var index = start
        if index < end, line[index] == UInt8(ascii: "<") { index += 1 }
        let nameStart = index
        while index < end, line[index] != UInt8(ascii: ":"), line[index] != UInt8(ascii: ">"), !MessageParser.isSpace(line[index]) { index += 1 }
        guard index > nameStart else { return nil }
        let className = MessageParser.className(line[nameStart..<index])
        var address: (value: InstanceAddress?, text: String?)?
        if index < end, line[index] == UInt8(ascii: ":") {
            index += 1
            while index < end, MessageParser.isSpace(line[index]) { index += 1 }
            let addressStart = index
            while index < end, line[index] != UInt8(ascii: ">"), !MessageParser.isSpace(line[index]) { index += 1 }
            if index > addressStart { address = MessageParser.address(line[addressStart..<index]) }
        }
        let key = classKey(for: className)
        let spelling = String(decoding: line[text], as: UTF8.self)
        var message = KeyedMessage(callback: callback, end: end, classKey: key, address: address?.value)
        message.unkeyed = keepUnkeyed(className: key < 0 ? className : nil, spelling: spelling, address: address?.text)
        message.hasAddressText = address?.text != nil
        return message
    }

    @inline(__always)
    private static func marker(_ bytes: UnsafeRawBufferPointer.SubSequence) -> Callback? {
        if isMainMarker(bytes) { return .main }
        if has(bytes, prefix: memoryWarningMarker) { return .receivedMemoryWarning }
        return nil
    }

    /// `Module.Class` → `Class`; a Swift mangled class name (`_TtC7ShopApp14CartController`,
    /// `_TtCV14__lldb_expr_9010SampleView11Coordinator`) → its last name (`CartController`, `Coordinator`).
    static func className(_ bytes: UnsafeRawBufferPointer.SubSequence) -> String {
        if let demangled = demangled(bytes) { return demangled }
        let lastDot = bytes.lastIndex(of: 0x2E)
        let name = lastDot.map { bytes[($0 + 1)...] } ?? bytes
        return String(decoding: name.isEmpty ? bytes : name, as: UTF8.self)
    }

    /// The last name of an old-style Swift mangled type name: `_Tt`, the kinds of the nested types (`C` class, `V`
    /// struct, `O` enum, `P` protocol), then each name as its length in digits and its characters. Nil when `bytes`
    /// are not one.
    static func demangled(_ bytes: UnsafeRawBufferPointer.SubSequence) -> String? {
        guard bytes.count > 4, bytes[bytes.startIndex] == UInt8(ascii: "_"), bytes[bytes.startIndex + 1] == UInt8(ascii: "T"),
              bytes[bytes.startIndex + 2] == UInt8(ascii: "t") else { return nil }
        var index = bytes.startIndex + 3
        while index < bytes.endIndex, "CVOP".utf8.contains(bytes[index]) { index += 1 }
        guard index > bytes.startIndex + 3 else { return nil }
        var last: Range<Int>?
        while index < bytes.endIndex {
            var length = 0
            while index < bytes.endIndex, bytes[index] >= 0x30, bytes[index] <= 0x39, length < 10_000 {
                length = length * 10 + Int(bytes[index] - 0x30)
                index += 1
            }
            guard length > 0, index + length <= bytes.endIndex else { return nil }
            last = index..<(index + length)
            index += length
        }
        return last.map { String(decoding: bytes[$0], as: UTF8.self) }
    }

    static func trimmed(_ line: UnsafeRawBufferPointer, _ range: Range<Int>) -> Range<Int> {
        var lower = range.lowerBound
        var upper = range.upperBound
        while lower < upper, isSpace(line[lower]) { lower += 1 }
        while upper > lower, isSpace(line[upper - 1]) { upper -= 1 }
        return lower..<upper
    }

    @inline(__always)
    static func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 }

    /// The first index at or after `start` that is not a space or a tab.
    @inline(__always)
    static func skipSpaces(_ line: UnsafeRawBufferPointer, from start: Int) -> Int {
        var index = start
        while index < line.count, isSpace(line[index]) { index += 1 }
        return index
    }

    /// Empty or only spaces and tabs.
    static func isBlank(_ line: UnsafeRawBufferPointer) -> Bool {
        line.allSatisfy(isSpace)
    }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
