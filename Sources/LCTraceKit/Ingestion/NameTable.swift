/// A controller's class, as the run's `NameTable` knows it: compared and hashed as a number, its text asked of the
/// table (`Module.Class` and `Class` are one name).
struct ClassName: Hashable, Sendable {
    fileprivate let number: Int32
}

/// A callback as it was spelled in the log (`viewWillAppear:`, `viewWillAppear(_:)`; a UIKit notice's whole text), as
/// the run's `NameTable` knows it.
struct Spelling: Hashable, Sendable {
    fileprivate let number: Int32
}

/// An instance id logged with a callback that is not a hexadecimal address (a UUID), lower-cased, as the run's
/// `NameTable` knows it.
struct InstanceID: Hashable, Sendable {
    fileprivate let number: Int32
}

/// A process name from a line's header, as the run's `NameTable` knows it.
struct ProcessName: Hashable, Sendable {
    fileprivate let number: Int32
}

// What a `CallbackMessage` holds where its message names no class or spelling: a number no table gives out.
extension ClassName {
    static var absent: ClassName { ClassName(number: .min) }
}

extension Spelling {
    static var absent: Spelling { Spelling(number: .min) }
}

extension InstanceID {
    /// The id as the one word a `CallbackMessage` keeps an instance's address or id in, and back.
    var packed: UInt64 { UInt64(UInt32(bitPattern: number)) }
    init(packed: UInt64) { number = Int32(bitPattern: UInt32(truncatingIfNeeded: packed)) }
}

/// The names a run reads, each kept once: controller classes, callback spellings, instance ids and process names.
/// Events carry them as plain values (`ClassName`, `Spelling`, `InstanceID`, `ProcessName`), which the analysis
/// compares and keeps, and whose text it asks of the table only where it writes one. How names are numbered is known
/// in this file alone.
///
/// A table holds at most `limit` names of each kind, so hostile input cannot grow it without bound: a message whose
/// class, spelling or id finds no room is not read (`UnreadReason.tooManyNames`), and is counted; a process name that
/// finds none is left out of its event.
final class NameTable {
    static let limit = 65_536

    /// One kind of name: text → number, and number → text.
    private struct Names {
        var numbers: [String: Int32] = [:]
        var texts: [String] = []

        mutating func number(for text: String) -> Int32? {
            if let number = numbers[text] { return number }
            guard texts.count < NameTable.limit else { return nil }
            let number = Int32(texts.count)
            numbers[text] = number
            texts.append(text)
            return number
        }
    }

    // The names are read wherever a name is written (a new instance's report takes its class's text), and changed only
    // by `Names.number(for:)`, which calls nothing that reads the table: they are not checked for exclusive access at
    // run time, where each check is a call into the runtime. A table is used by one thread at a time.
    @exclusivity(unchecked) private var classes = Names()
    @exclusivity(unchecked) private var spellings = Names()
    /// UIKit's notices, each a spelling of its own (their texts name an instance, so there are many): kept apart, so
    /// that they cannot take the room of the callbacks' spellings. Numbered from -1 down.
    @exclusivity(unchecked) private var notices = Names()
    @exclusivity(unchecked) private var instanceIDs = Names()
    @exclusivity(unchecked) private var processes = Names()
    /// Logged class (with its module, or mangled) → its name, found again by its bytes without making a String.
    private let classesByBytes = ByteStringCache<ClassName>()
    /// The bytes of the last process name read, and its name: consecutive lines nearly always come from one process.
    private var lastProcess = (bytes: RememberedBytes(), name: ProcessName?.none)

    init() {}

    /// The class logged as `bytes` (`ShopApp.CartViewController`, `_TtC7ShopApp14CartController`): the name reports
    /// use is the class without its module. Nil when the table is full.
    @inline(__always)
    func className(logged bytes: UnsafeRawBufferPointer) -> ClassName? {
        if let known = classesByBytes.value(for: bytes) { return known }
        guard let name = className(ReportedClassName.of(bytes[...])) else { return nil }
        classesByBytes.store(name, for: bytes)
        return name
    }

    /// The class named `text` (already without its module). Nil when the table is full.
    func className(_ text: String) -> ClassName? {
        guard let number = classes.number(for: text) else { return nil }
        if !hasHostingControllers, HostedViewWatch.hostedView(byClassNamed: text) != nil { hasHostingControllers = true }
        return ClassName(number: number)
    }

    /// Whether a class the table named is a SwiftUI hosting controller with its root view (`UIHostingController<…>`):
    /// until one is, no session needs to tie views to the controllers hosting them (`HostedViewWatch`).
    private(set) var hasHostingControllers = false

    /// The spelling `text`. Nil when the table is full.
    func spelling(_ text: String) -> Spelling? { spellings.number(for: text).map { Spelling(number: $0) } }

    /// A UIKit notice's whole text, as a spelling. Nil when the table is full.
    func notice(_ text: String) -> Spelling? { notices.number(for: text).map { Spelling(number: -1 - $0) } }

    /// The instance id `text` (lower-cased by the caller). Nil when the table is full.
    func instanceID(_ text: String) -> InstanceID? { instanceIDs.number(for: text).map { InstanceID(number: $0) } }

    /// The process named by `bytes`. Nil when the table is full.
    @inline(__always)
    func processName(_ bytes: UnsafeRawBufferPointer.SubSequence) -> ProcessName? {
        guard let base = bytes.base.baseAddress else { return nil }
        let start = base + bytes.startIndex
        let count = bytes.endIndex - bytes.startIndex
        if lastProcess.bytes.equals(start, count: count) { return lastProcess.name }
        let name = processes.number(for: String(decoding: bytes, as: UTF8.self)).map { ProcessName(number: $0) }
        lastProcess.bytes.remember(start, count: count)
        lastProcess.name = name
        return name
    }

    subscript(name: ClassName) -> String { classes.texts[Int(name.number)] }
    subscript(spelling: Spelling) -> String {
        spelling.number >= 0 ? spellings.texts[Int(spelling.number)] : notices.texts[Int(-1 - spelling.number)]
    }
    subscript(id: InstanceID) -> String { instanceIDs.texts[Int(id.number)] }
    subscript(process: ProcessName) -> String { processes.texts[Int(process.number)] }
}

/// A value for each class name, kept in an array by the name's number: found without hashing the name, on every
/// event. Classes never given a value read as `empty`.
struct ClassTable<Value> {
    private var values: [Value] = []
    private let empty: Value

    init(empty: Value) {
        self.empty = empty
    }

    subscript(name: ClassName) -> Value {
        get {
            let index = Int(name.number)
            return index < values.count ? values[index] : empty
        }
        set {
            let index = Int(name.number)
            if index >= values.count { values.append(contentsOf: repeatElement(empty, count: index + 1 - values.count)) }
            values[index] = newValue
        }
    }

    /// Changes the class's value in place (a value holding storage is not copied to be changed).
    mutating func update<Result>(_ name: ClassName, _ change: (inout Value) -> Result) -> Result {
        let index = Int(name.number)
        if index >= values.count { values.append(contentsOf: repeatElement(empty, count: index + 1 - values.count)) }
        return change(&values[index])
    }
}
