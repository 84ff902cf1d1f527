/// `--process NAME` and `--pid N`: the lines of chosen processes in a log of many (a whole device's `log show` or
/// syslog). The other lines are counted under the `other-process` skip reason, as lines are that a forced format does
/// not recognise.
///
/// A line is judged by its header: its process must be one of the names (exactly as read, case-sensitive: `ShopApp`)
/// when names are given, and its pid one of the pids when pids are given. A line whose header names neither (a line
/// with no header, a continuation of a multi-line message, `print` output between an app's `NSLog` lines) goes with
/// the line before it; the lines before the first header that names a process or pid are kept. So a log with no
/// process in any header (bare `print` lines) is read whole, and the continuation lines of another process's message
/// are left out with it.
public struct ProcessFilter: Sendable, Equatable {
    public let names: [String]
    public let pids: [Int]
    private let nameBytes: [[UInt8]]

    /// Nil when neither names nor pids are given (every line is kept).
    public init?(names: [String], pids: [Int]) {
        guard !names.isEmpty || !pids.isEmpty else { return nil }
        self.names = names
        self.pids = pids
        self.nameBytes = names.map { Array($0.utf8) }
    }

    /// Whether the record with `header` in `line` is of a chosen process; nil when its header says nothing the filter
    /// looks at (no process when names are given, no pid when pids are given), so that it goes with the line before.
    func keeps(_ header: LineHeader, in line: UnsafeRawBufferPointer) -> Bool? {
        var verdict: Bool?
        if !nameBytes.isEmpty, let process = header.process, let base = line.baseAddress {
            let count = process.count
            let matches = nameBytes.contains { name in
                name.count == count
                    && (count == 0 || name.withUnsafeBytes { RawBytes.equal($0.baseAddress!, base + process.lowerBound, count: count) })
            }
            guard matches else { return false }
            verdict = true
        }
        if !pids.isEmpty, let range = header.pid, let pid = Int(decoding: line[range]) {
            guard pids.contains(pid) else { return false }
            verdict = true
        }
        return verdict
    }
}
