/// Mutations of scenario text: the edits a person makes by mistake (a line lost, doubled or
/// moved, a typo, a cut-off file) and the values a fuzzer likes (huge numbers, odd units,
/// control characters), applied one to three at a time.
struct ScenarioMutator {
    /// Lines of every corpus file, to insert elsewhere.
    let linePool: [String]
    /// Words of every corpus file, to replace others with.
    let wordPool: [String]

    init(corpus: [String]) {
        var lines: [String] = []
        var words: [String] = []
        for text in corpus {
            for line in text.split(separator: "\n") {
                lines.append(String(line))
                for word in line.split(separator: " ") where word.count < 40 { words.append(String(word)) }
            }
        }
        linePool = lines
        wordPool = words
    }

    static let extremeNumbers = [
        "0", "1", "-1", "999999", "2562047788", "4294967296", "9223372036854775807",
        "9223372036854775808", "99999999999999999999", "0.0000001", "1e9", "00", "1000000",
    ]
    static let units = ["us", "ms", "s", "m", "h", "d", "B", "KB", "MB", "GB", "%", "", "sec", "x"]
    static let junk = [
        "\t", "\"", "\\", "{", "}", "(", ")", ":", "&", "..", "=", "#", "\u{0}", "\u{7}", "é",
        "💥", "\u{202E}", "\r", " ", "-", "@", "nil", "\u{FEFF}",
    ]

    func mutate(_ text: String, random: inout FuzzRandom) -> String {
        var result = text
        for _ in 0..<(1 + random.below(3)) {
            result = mutateOnce(result, random: &random)
        }
        return result
    }

    private func mutateOnce(_ text: String, random: inout FuzzRandom) -> String {
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        if lines.isEmpty { lines = [""] }
        let index = random.below(lines.count)
        switch random.below(11) {
        case 0:
            lines.remove(at: index)
        case 1:
            lines.insert(lines[index], at: index)
        case 2:
            lines.swapAt(index, random.below(lines.count))
        case 3:
            lines[index] = Self.replacingNumber(in: lines[index], random: &random)
        case 4:
            lines.insert(random.pick(linePool), at: index)
        case 5:
            let characters = Array(text)
            return String(characters.prefix(random.below(characters.count + 1)))
        case 6:
            var characters = Array(lines[index])
            characters.insert(contentsOf: random.pick(Self.junk), at: random.below(characters.count + 1))
            lines[index] = String(characters)
        case 7:
            var words = lines[index].split(separator: " ", omittingEmptySubsequences: false).map(String.init)
            if !words.isEmpty { words[random.below(words.count)] = random.pick(wordPool) }
            lines[index] = words.joined(separator: " ")
        case 8:
            lines[index] = Self.replacingUnit(in: lines[index], random: &random)
        case 9:
            // A statement repeated many times: long runs, many labels, many triggers.
            let count = 2 + random.below(60)
            lines.insert(contentsOf: Array(repeating: lines[index], count: count), at: index)
        default:
            var characters = Array(lines[index])
            if !characters.isEmpty { characters.remove(at: random.below(characters.count)) }
            lines[index] = String(characters)
        }
        return lines.joined(separator: "\n")
    }

    /// Replaces the digits of one number in the line with an extreme value.
    static func replacingNumber(in line: String, random: inout FuzzRandom) -> String {
        let characters = Array(line)
        let starts = characters.indices.filter {
            characters[$0].isNumber && ($0 == 0 || !characters[$0 - 1].isNumber)
        }
        guard !starts.isEmpty else { return line + " " + random.pick(extremeNumbers) }
        let start = random.pick(starts)
        var end = start
        while end < characters.count, characters[end].isNumber || characters[end] == "." { end += 1 }
        return String(characters[..<start]) + random.pick(extremeNumbers) + String(characters[end...])
    }

    /// Replaces the unit after a number (`30s` → `30GB`).
    static func replacingUnit(in line: String, random: inout FuzzRandom) -> String {
        let characters = Array(line)
        let ends = characters.indices.filter {
            characters[$0].isNumber && ($0 + 1 < characters.count && characters[$0 + 1].isLetter)
        }
        guard !ends.isEmpty else { return line }
        let end = random.pick(ends) + 1
        var stop = end
        while stop < characters.count, characters[stop].isLetter || characters[stop] == "%" { stop += 1 }
        return String(characters[..<end]) + random.pick(units) + String(characters[stop...])
    }
}
