/// A controller's class, as the run's `NameTable` knows it: compared and hashed as a number, its text asked of the
/// table (`Module.Class` and `Class` are one name).
struct ClassName: Hashable, Sendable {
    fileprivate let number: Int32
}

/// A callback as it was spelled in the log (`viewWillAppear:`, `viewWillAppear(_:)`), as the run's `NameTable` knows it.
struct Spelling: Hashable, Sendable {
    fileprivate let number: Int32
}

/// The names a run reads, each kept once: controller classes and callback spellings. Events carry `ClassName` and
/// `Spelling` values, which the analysis compares and keeps, and whose text it asks of the table only where it writes
/// one. How names are numbered is known in this file alone.
///
/// A table holds at most `limit` names of each kind, so hostile input cannot grow it without bound: a message whose
/// name finds no room is not read (`UnreadReason.tooManyNames`), and is counted.
final class NameTable {
    static let limit = 65_536

    private var classNumbers: [String: Int32] = [:]
    private var classTexts: [String] = []
    private var spellingNumbers: [String: Int32] = [:]
    private var spellingTexts: [String] = []
    /// Logged class (with its module, or mangled) → its name, found again by its bytes without making a String.
    private var classesByBytes = ByteStringCache<ClassName>()

    init() {}

    /// The class logged as `bytes` (`ShopApp.CartViewController`, `_TtC7ShopApp14CartController`): the name reports
    /// use is the class without its module. Nil when the table is full.
    @inline(__always)
    func className(logged bytes: UnsafeRawBufferPointer) -> ClassName? {
        if let known = classesByBytes.value(for: bytes) { return known }
        guard let name = className(NameTable.reportedName(bytes[...])) else { return nil }
        classesByBytes.store(name, for: bytes)
        return name
    }

    /// The class named `text` (already without its module). Nil when the table is full.
    func className(_ text: String) -> ClassName? {
        if let number = classNumbers[text] { return ClassName(number: number) }
        guard classTexts.count < NameTable.limit else { return nil }
        let number = Int32(classTexts.count)
        classNumbers[text] = number
        classTexts.append(text)
        return ClassName(number: number)
    }

    /// The spelling `text`. Nil when the table is full.
    func spelling(_ text: String) -> Spelling? {
        if let number = spellingNumbers[text] { return Spelling(number: number) }
        guard spellingTexts.count < NameTable.limit else { return nil }
        let number = Int32(spellingTexts.count)
        spellingNumbers[text] = number
        spellingTexts.append(text)
        return Spelling(number: number)
    }

    subscript(name: ClassName) -> String { classTexts[Int(name.number)] }
    subscript(spelling: Spelling) -> String { spellingTexts[Int(spelling.number)] }

    /// `Module.Class` → `Class`; a Swift mangled class name (`_TtC7ShopApp14CartController`,
    /// `_TtCV14__lldb_expr_9010SampleView11Coordinator`) → its last name (`CartController`, `Coordinator`).
    static func reportedName(_ bytes: UnsafeRawBufferPointer.SubSequence) -> String {
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
