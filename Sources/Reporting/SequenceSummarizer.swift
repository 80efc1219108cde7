/// Keeps a long run's diagram readable: repeated exchanges collapse, and the diagram stops
/// at a cap.
///
/// A retry loop or a long paged download repeats the same few rows; the first and the last
/// repetition show what happened, and a note counts the ones between. Rows are "the same"
/// when they differ only in numbers (request IDs, times, counts), which is what varies
/// between two turns of a loop.
struct SequenceSummarizer {
    let limits: DiagramLimits

    func summarize(_ steps: [SequenceStep]) -> [SequenceStep] {
        cap(collapse(steps))
    }

    // MARK: Repetitions

    /// Replaces every run of at least `minimumRepeats` equal blocks by its first block, a
    /// gap note and its last block; the block length that hides the most rows wins.
    func collapse(_ steps: [SequenceStep]) -> [SequenceStep] {
        let shapes = interned(steps.map(Self.signature))
        var result: [SequenceStep] = []
        var index = 0
        while index < steps.count {
            guard let (period, repeats) = bestRepetition(in: shapes, at: index) else {
                result.append(steps[index])
                index += 1
                continue
            }
            let middle = (index + period)..<(index + (repeats - 1) * period)
            let lastBlock = middle.upperBound..<(middle.upperBound + period)
            result += steps[index..<middle.lowerBound]
            result.append(.gap(gap(hiding: Array(steps[middle]), count: repeats - 2)))
            result += steps[lastBlock]
            index = lastBlock.upperBound
        }
        return result
    }

    /// The block length and number of consecutive repetitions starting at `index` that
    /// hide the most rows, if any hides at least two.
    private func bestRepetition(in shapes: [Int], at index: Int) -> (Int, Int)? {
        var best: (period: Int, repeats: Int)?
        var bestHidden = 1
        let longest = min(limits.maxPeriod, (shapes.count - index) / limits.minimumRepeats)
        guard longest >= 1 else { return nil }
        for period in 1...longest {
            var repeats = 1
            while index + (repeats + 1) * period <= shapes.count,
                  blocksEqual(shapes, index, index + repeats * period, period) {
                repeats += 1
            }
            let hidden = (repeats - 2) * period
            if repeats >= limits.minimumRepeats && hidden > bestHidden {
                best = (period, repeats)
                bestHidden = hidden
            }
        }
        return best.map { ($0.period, $0.repeats) }
    }

    private func blocksEqual(_ shapes: [Int], _ first: Int, _ second: Int, _ length: Int) -> Bool {
        for offset in 0..<length where shapes[first + offset] != shapes[second + offset] {
            return false
        }
        return true
    }

    private func gap(hiding steps: [SequenceStep], count: Int) -> SequenceGap {
        let start = steps.first?.time ?? 0
        let end = steps.last?.time ?? start
        let arrows = SequenceStep.messageCount(steps)
        let word = arrows == 0 ? "step" : "exchange"
        let noun = count == 1 ? word : word + "s"
        let arrowText = arrows == 0 ? "" : ", \(arrows) arrows"
        let span = Self.span(start, end)
        return SequenceGap(time: start,
            text: "… \(count) similar \(noun) \(span)\(arrowText) …")
    }

    /// Small integers standing for equal signatures, so blocks compare cheaply.
    private func interned(_ signatures: [String]) -> [Int] {
        var numbers: [String: Int] = [:]
        return signatures.map { signature in
            if let number = numbers[signature] { return number }
            let number = numbers.count
            numbers[signature] = number
            return number
        }
    }

    /// What a row looks like with its numbers blanked out.
    static func signature(_ step: SequenceStep) -> String {
        switch step {
        case .message(let message):
            return "m|\(message.from)|\(message.to)|\(message.style.rawValue)|"
                + withoutNumbers(message.text)
        case .note(let note):
            let lines = note.lines.map { $0.rules.joined(separator: ",") + " " + $0.text }
            return "n|\(note.over.joined(separator: ","))|\(note.kind.rawValue)|"
                + withoutNumbers(lines.joined(separator: "\n"))
        case .highlight(let block):
            return "h|\(block.kind.rawValue)|"
                + block.steps.map(signature).joined(separator: "\u{1E}")
        case .gap(let gap):
            return "g|" + withoutNumbers(gap.text)
        }
    }

    /// Every run of decimal digits replaced by `#`.
    static func withoutNumbers(_ text: String) -> String {
        var result = ""
        var inNumber = false
        for scalar in text.unicodeScalars {
            if scalar.isASCIIDigit {
                if !inNumber { result.append("#") }
                inNumber = true
            } else {
                inNumber = false
                result.unicodeScalars.append(scalar)
            }
        }
        return result
    }

    /// `at 3s` or `from 3s to 40.5s`.
    static func span(_ start: Int64, _ end: Int64) -> String {
        let first = ReportTime.text(microseconds: start)
        guard start != end else { return "at \(first)" }
        return "from \(first) to \(ReportTime.text(microseconds: end))"
    }

    // MARK: Cap

    /// Keeps rows until the next one would pass a limit, then one note for the rest.
    func cap(_ steps: [SequenceStep]) -> [SequenceStep] {
        var messages = 0
        var rows = 0
        for (index, step) in steps.enumerated() {
            let stepMessages = SequenceStep.messageCount([step])
            let stepRows = SequenceStep.rowCount([step])
            if messages + stepMessages > limits.maxMessages || rows + stepRows >= limits.maxRows {
                return Array(steps[..<index]) + [.gap(cut(Array(steps[index...])))]
            }
            messages += stepMessages
            rows += stepRows
        }
        return steps
    }

    private func cut(_ rest: [SequenceStep]) -> SequenceGap {
        let start = rest.first?.time ?? 0
        let end = rest.last?.time ?? start
        let arrows = SequenceStep.messageCount(rest)
        let rows = SequenceStep.rowCount(rest)
        let range = Self.span(start, end)
        return SequenceGap(
            time: start,
            text: "… diagram cut here: \(rows) more rows (\(arrows) arrows) \(range);"
                + " the trace has every event …")
    }
}
