/// `--session N`, `N-M` or `N-`: the sessions the timeline reports (`chrome-trace`, `html`, `mermaid`) draw, by
/// their numbers across the run.
public struct SessionSelection: Sendable, Equatable, CustomStringConvertible {
    public var first: Int
    /// nil: to the last session.
    public var last: Int?

    public init(first: Int, last: Int?) {
        self.first = first
        self.last = last
    }

    /// `3`, `2-5` or `7-`; nil when the text is none of these, or the range is empty or starts below 1.
    public init?(_ text: String) {
        let parts = text.split(separator: "-", maxSplits: 1, omittingEmptySubsequences: false)
        guard let first = Int(parts[0]), first >= 1 else { return nil }
        if parts.count == 1 {
            self.init(first: first, last: first)
        } else if parts[1].isEmpty {
            self.init(first: first, last: nil)
        } else if let last = Int(parts[1]), last >= first {
            self.init(first: first, last: last)
        } else {
            return nil
        }
    }

    /// Every session: `1-`.
    public static let all = SessionSelection(first: 1, last: nil)

    /// The smallest selection that holds both this one and `other`.
    public func covering(_ other: SessionSelection) -> SessionSelection {
        let last = self.last.flatMap { mine in other.last.map { max(mine, $0) } }
        return SessionSelection(first: min(first, other.first), last: last)
    }

    public func contains(_ session: Int) -> Bool {
        session >= first && last.map { session <= $0 } ?? true
    }

    public var description: String {
        guard let last else { return "\(first)-" }
        return last == first ? "\(first)" : "\(first)-\(last)"
    }
}
