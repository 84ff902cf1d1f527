/// A lifecycle event as reading hands it to the analysis: where, when and by which process and thread a callback was
/// logged, and what the message said. A plain value that holds nothing of the line it was read from: it may be kept.
struct Event {
    var line: Int
    /// The time as logged, in microseconds (the session makes it its own, `SessionAnalyzer.sessionTime`); nil when
    /// the line has none.
    var micros: Int64?
    /// The time as written; empty when the line has none.
    var time: TimeText
    var pid: Int?
    var process: ProcessName?
    var thread: ThreadID?
    var message: CallbackMessage

    var callback: Callback { message.callback }
}

extension Event {
    /// An event whose time is written `writtenTime` (nil when its line has none): the reader's, which writes the time
    /// into the event in place rather than making it apart and copying its 121 bytes in.
    init(line: Int, micros: Int64?, writtenTime: UnsafeRawBufferPointer?, pid: Int?, process: ProcessName?, thread: ThreadID?,
         message: CallbackMessage) {
        self.init(line: line, micros: micros, time: TimeText(), pid: pid, process: process, thread: thread, message: message)
        if let writtenTime { time.assign(writtenTime) }
    }
}

/// What a lifecycle message says: the callback and the controller it names. Its names are the run's `NameTable`'s.
///
/// Its fields are plain numbers, with no optional among them (a name the message lacks is its kind's `absent`, and the
/// instance is a word and a byte saying what the word is): every event holds its message, the reader writes it in and
/// the session copies it, and optionals' tag bytes between the fields had those copies read sixteen bytes at a time
/// what had been written a few bytes at a time just before.
struct CallbackMessage {
    /// The instance's address, or its id (`InstanceID.packed`); 0 when the message logs none.
    private var instanceWord: UInt64
    private var classWord: ClassName
    private var spellingWord: Spelling
    var callback: Callback
    /// What `instanceWord` is: `noInstance`, an address of this many digits (1 to 16), or `idInstance`.
    private var instanceForm: UInt8

    private static let noInstance: UInt8 = 0
    private static let idInstance: UInt8 = .max

    init(callback: Callback, className: ClassName? = nil, spelling: Spelling? = nil, instance: InstanceLabel? = nil) {
        self.callback = callback
        classWord = className ?? .absent
        spellingWord = spelling ?? .absent
        switch instance {
        case nil:
            instanceWord = 0
            instanceForm = CallbackMessage.noInstance
        case .address(let address)?:
            instanceWord = address.value
            instanceForm = address.digits
        case .id(let id)?:
            instanceWord = id.packed
            instanceForm = CallbackMessage.idInstance
        }
    }

    /// The class named (nil for markers, and for app and scene callbacks logged with no class).
    var className: ClassName? {
        @inline(__always) get { classWord == .absent ? nil : classWord }
    }

    /// The callback as spelled in the log, or a UIKit notice's whole text (`Unbalanced calls to begin/end appearance
    /// transitions for <C: 0x1>.`); nil for markers.
    var spelling: Spelling? {
        @inline(__always) get { spellingWord == .absent ? nil : spellingWord }
    }

    /// What names the instance, when the message logs it: its address or an id.
    var instance: InstanceLabel? {
        @inline(__always) get {
            switch instanceForm {
            case CallbackMessage.noInstance: nil
            case CallbackMessage.idInstance: .id(InstanceID(packed: instanceWord))
            default: .address(InstanceAddress(value: instanceWord, digits: instanceForm))
            }
        }
    }
}

/// What names one instance in a log: its address (`0x…`), or another id (a UUID).
enum InstanceLabel: Hashable {
    case address(InstanceAddress)
    case id(InstanceID)

    /// As reports write it: lower-cased.
    func text(_ names: NameTable) -> String {
        switch self {
        case .address(let address): address.text
        case .id(let id): names[id]
        }
    }
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

    /// `digits` is 1 to 16, as the parsing `init` gives: a `CallbackMessage` would read 0 as no instance and 255 as an
    /// id.
    init(value: UInt64, digits: UInt8) {
        assert((1...16).contains(digits), "an address of \(digits) digits")
        self.value = value
        self.digits = digits
    }

    /// `0x` and the digits, lower-cased, leading zeros kept.
    var text: String {
        let hex = String(value, radix: 16)
        return "0x" + String(repeating: "0", count: Int(digits) - hex.count) + hex
    }
}

extension NameTable {
    /// The class's name as reports write it; nil when the message names none.
    func className(of message: CallbackMessage) -> String? { message.className.map { self[$0] } }

    /// The callback as the log spelled it (a notice's whole text; a marker as it is written).
    func spelled(_ message: CallbackMessage) -> String {
        message.spelling.map { self[$0] } ?? message.callback.rawValue
    }

    /// The instance's address or id as reports write it; nil when the message logs none.
    func instanceText(_ message: CallbackMessage) -> String? { message.instance?.text(self) }

    /// The message with its names written out.
    func lifecycleMessage(_ message: CallbackMessage, end: Int) -> LifecycleMessage {
        LifecycleMessage(className: className(of: message), address: instanceText(message), callback: message.callback,
                         spelled: spelled(message), end: end)
    }
}
