/// A controller class name to leave out of the findings (`--ignore-class`, the configuration file's `ignore-classes`):
/// a name, or a pattern where `*` stands for any run of characters (`SF*`, `*PickerViewController`), matched against
/// the whole class name.
public struct ClassPattern: Sendable, Equatable, Hashable {
    public let text: String
    private let parts: [Substring]

    public init(_ text: String) {
        self.text = text
        parts = text.split(separator: "*", omittingEmptySubsequences: false)
    }

    public func matches(_ className: String) -> Bool {
        guard parts.count > 1 else { return className == text }
        var rest = Substring(className)
        guard rest.hasPrefix(parts[0]) else { return false }
        rest = rest.dropFirst(parts[0].count)
        for part in parts.dropFirst().dropLast() where !part.isEmpty {
            guard let found = rest.range(of: part) else { return false }
            rest = rest[found.upperBound...]
        }
        return rest.hasSuffix(parts[parts.count - 1])
    }
}
