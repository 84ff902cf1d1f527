/// "Did you mean …?" for a mistyped name: the closest of `candidates` by edit distance (insertions, deletions,
/// substitutions and swaps of neighbours), when it is close enough to be what was meant — at most a third of the
/// longer name's characters away, and never more than 3.
public enum Suggestion {
    public static func closest(to word: String, among candidates: [String]) -> String? {
        let typed = Array(word.lowercased())
        var best: (name: String, distance: Int)?
        for candidate in candidates {
            let distance = editDistance(typed, Array(candidate.lowercased()))
            let allowed = min(3, max(1, max(typed.count, candidate.count) / 3))
            guard distance <= allowed, distance < (best?.distance ?? Int.max) else { continue }
            best = (candidate, distance)
        }
        return best?.name
    }

    /// ` (did you mean 'NAME'?)`, or nothing.
    public static func hint(for word: String, among candidates: [String]) -> String {
        closest(to: word, among: candidates).map { " (did you mean '\($0)'?)" } ?? ""
    }

    /// Optimal string alignment distance.
    static func editDistance(_ a: [Character], _ b: [Character]) -> Int {
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var previous2 = [Int](repeating: 0, count: b.count + 1)
        var previous = Array(0...b.count)
        var current = [Int](repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            current[0] = i
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    current[j] = min(current[j], previous2[j - 2] + 1)
                }
            }
            (previous2, previous, current) = (previous, current, previous2)
        }
        return previous[b.count]
    }
}
