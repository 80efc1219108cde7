/// "; did you mean 'X'?" for a mistyped word, or nothing when no candidate is close.
func suggestion(_ word: String, among candidates: [String]) -> String {
    let scored = candidates.map { ($0, editDistance(word, $0)) }
        .sorted { ($0.1, $0.0) < ($1.1, $1.0) }
    guard let best = scored.first, best.1 <= max(2, word.count / 3) else { return "" }
    return "; did you mean '\(best.0)'?"
}

/// Levenshtein distance over Unicode scalars.
func editDistance(_ left: String, _ right: String) -> Int {
    let a = Array(left.unicodeScalars)
    let b = Array(right.unicodeScalars)
    if a.isEmpty { return b.count }
    if b.isEmpty { return a.count }
    var previous = Array(0...b.count)
    var current = [Int](repeating: 0, count: b.count + 1)
    for i in 1...a.count {
        current[0] = i
        for j in 1...b.count {
            let cost = a[i - 1] == b[j - 1] ? 0 : 1
            current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
        }
        swap(&previous, &current)
    }
    return previous[b.count]
}
