/// Suggestions for a mistyped command or option, as git and cargo make them.
enum Spelling {
    /// The candidate closest to `word`, if it is close enough to be what was meant: at most a
    /// third of the word's letters apart (by insertions, deletions, substitutions and swaps of
    /// neighbours), or a candidate that starts with it.
    static func suggestion(for word: String, among candidates: [String]) -> String? {
        let limit = max(1, word.count / 3)
        let scored = candidates.map { (candidate: $0, distance: distance(word, $0)) }
        if let best = scored.min(by: { $0.distance < $1.distance }), best.distance <= limit {
            return best.candidate
        }
        let started = candidates.filter { $0.hasPrefix(word) }
        return !word.isEmpty && started.count == 1 ? started[0] : nil
    }

    /// The hint that follows an unknown word's error: "; did you mean `list`?", or nothing.
    static func hint(for word: String, among candidates: [String]) -> String {
        suggestion(for: word, among: candidates).map { "; did you mean `\($0)`?" } ?? ""
    }

    /// The optimal string alignment distance between two words.
    static func distance(_ left: String, _ right: String) -> Int {
        let a = Array(left)
        let b = Array(right)
        if a.isEmpty || b.isEmpty { return max(a.count, b.count) }
        var previous2 = [Int](repeating: 0, count: b.count + 1)
        var previous = Array(0...b.count)
        for i in 1...a.count {
            var current = [i] + [Int](repeating: 0, count: b.count)
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    current[j] = min(current[j], previous2[j - 2] + 1)
                }
            }
            (previous2, previous) = (previous, current)
        }
        return previous[b.count]
    }
}
