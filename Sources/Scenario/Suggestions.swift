/// Finds the names a mistyped word most likely meant, for `did you mean '...'?`.
///
/// Uses the optimal-string-alignment distance (Levenshtein plus adjacent transpositions, so
/// `lapotp` is one edit from `laptop`), ignoring case differences at half cost. Candidates
/// keep their given order among equals, so suggestions are deterministic.
enum Suggestions {
    /// At most three candidates within a distance that scales with the word's length.
    static func closest(to word: String, among candidates: [String], limit: Int = 3) -> [String] {
        let target = Array(word.unicodeScalars)
        // Very long words are never typos of short names; also keeps the table small.
        guard target.count <= 64 else { return [] }
        let allowed = max(2, min(6, (target.count + 2) / 3 * 2))
        var scored: [(distance: Int, index: Int, name: String)] = []
        var seen: [String] = []
        for (index, candidate) in candidates.enumerated() where candidate != word {
            if seen.contains(candidate) { continue }
            seen.append(candidate)
            let other = Array(candidate.unicodeScalars)
            guard other.count <= 64 else { continue }
            var distance = doubledDistance(target, other)
            // A long enough prefix (`serverRejected`) is as good a hint as a one-letter typo.
            if target.count >= 4 && candidate.hasPrefix(word) { distance = min(distance, 2) }
            if distance <= allowed { scored.append((distance, index, candidate)) }
        }
        scored.sort { ($0.distance, $0.index) < ($1.distance, $1.index) }
        guard let best = scored.first?.distance else { return [] }
        return scored.filter { $0.distance == best }.prefix(limit).map(\.name)
    }

    /// Twice the edit distance: a substitution that only changes case costs 1, others 2.
    static func doubledDistance(_ lhs: [Unicode.Scalar], _ rhs: [Unicode.Scalar]) -> Int {
        if lhs.isEmpty { return rhs.count * 2 }
        if rhs.isEmpty { return lhs.count * 2 }
        let width = rhs.count + 1
        var table = [Int](repeating: 0, count: (lhs.count + 1) * width)
        for row in 0...lhs.count { table[row * width] = row * 2 }
        for column in 0...rhs.count { table[column] = column * 2 }
        for row in 1...lhs.count {
            for column in 1...rhs.count {
                let cost = substitutionCost(lhs[row - 1], rhs[column - 1])
                var best = min(
                    table[(row - 1) * width + column] + 2,
                    table[row * width + column - 1] + 2,
                    table[(row - 1) * width + column - 1] + cost)
                if row > 1, column > 1, lhs[row - 1] == rhs[column - 2],
                    lhs[row - 2] == rhs[column - 1]
                {
                    best = min(best, table[(row - 2) * width + column - 2] + 2)
                }
                table[row * width + column] = best
            }
        }
        return table[lhs.count * width + rhs.count]
    }

    private static func substitutionCost(_ lhs: Unicode.Scalar, _ rhs: Unicode.Scalar) -> Int {
        if lhs == rhs { return 0 }
        if lhs.properties.lowercaseMapping == rhs.properties.lowercaseMapping { return 1 }
        return 2
    }
}
