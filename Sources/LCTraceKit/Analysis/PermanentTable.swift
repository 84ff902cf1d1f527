/// A table of plain values made once for the life of the process, and never freed: the analysis's static tables that
/// every session holds (the controller automaton's cells, the transition templates' lookup).
///
/// Held in memory of its own rather than in an array, it has no reference count. An array held by every session
/// would be retained and released each time a session, or a part of one, is made, copied or ended, and with two
/// workers analysing sections at once, that one count is written from both cores: each write takes its cache line
/// from the other core. A value holding permanent tables is copied and ended without touching any count.
///
/// Only for tables made once, in a `static let`: the memory of each table made is never deallocated.
struct PermanentTable<Element: BitwiseCopyable & Sendable>: @unchecked Sendable {
    // `@unchecked`: the memory is written once, in `init`, and only read after.
    private let base: UnsafePointer<Element>
    let count: Int

    init(_ elements: [Element]) {
        let memory = UnsafeMutablePointer<Element>.allocate(capacity: max(elements.count, 1))
        elements.withUnsafeBufferPointer { source in
            if let start = source.baseAddress { memory.initialize(from: start, count: source.count) }
        }
        base = UnsafePointer(memory)
        count = elements.count
    }

    var indices: Range<Int> { 0..<count }

    @inline(__always)
    subscript(position: Int) -> Element {
        precondition(position >= 0 && position < count, "a position outside a permanent table")
        return base[position]
    }
}
