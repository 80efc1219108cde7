import LocalStore

/// A set of model identifiers read in identifier order, kept as one bit per identifier.
///
/// The store hands identifiers out densely from 1 (`Store.makeModelID`), so a bit per
/// identifier is small (125 KB for a million) and a read in order costs the identifiers'
/// range / 64 words plus what it visits, with no sorting: what lets an upload of N models
/// take the next 400 in order per request without sorting N each time. Identifiers beyond
/// `denseLimit` (none the store makes in practice) are kept in a set and sorted when read.
public struct OrderedModelIDs: Sendable, Sequence {
    /// Identifiers below this are kept as bits (8 MB of words at most).
    static let denseLimit: UInt64 = 1 << 26

    private var words: [UInt64] = []
    private var outliers: Set<ModelID> = []
    public private(set) var count = 0

    public init() {}

    public func contains(_ id: ModelID) -> Bool {
        guard id.rawValue < Self.denseLimit else { return outliers.contains(id) }
        let word = Int(id.rawValue / 64)
        return word < words.count && words[word] & (1 << (id.rawValue % 64)) != 0
    }

    public mutating func insert(_ id: ModelID) {
        guard id.rawValue < Self.denseLimit else {
            if outliers.insert(id).inserted { count += 1 }
            return
        }
        let word = Int(id.rawValue / 64)
        if word >= words.count {
            words.append(contentsOf: repeatElement(0, count: word - words.count + 1))
        }
        let bit: UInt64 = 1 << (id.rawValue % 64)
        if words[word] & bit == 0 {
            words[word] |= bit
            count += 1
        }
    }

    public mutating func remove(_ id: ModelID) {
        guard id.rawValue < Self.denseLimit else {
            if outliers.remove(id) != nil { count -= 1 }
            return
        }
        let word = Int(id.rawValue / 64)
        guard word < words.count else { return }
        let bit: UInt64 = 1 << (id.rawValue % 64)
        if words[word] & bit != 0 {
            words[word] &= ~bit
            count -= 1
        }
    }

    public func makeIterator() -> Iterator {
        Iterator(words: words, outliers: outliers.isEmpty ? [] : outliers.sorted())
    }

    /// The identifiers in ascending order: the bits word by word, then the outliers.
    public struct Iterator: IteratorProtocol {
        private let words: [UInt64]
        private let outliers: [ModelID]
        private var wordIndex = 0
        private var current: UInt64
        private var outlierIndex = 0

        init(words: [UInt64], outliers: [ModelID]) {
            self.words = words
            self.outliers = outliers
            current = words.first ?? 0
        }

        public mutating func next() -> ModelID? {
            while current == 0 {
                wordIndex += 1
                guard wordIndex < words.count else {
                    guard outlierIndex < outliers.count else { return nil }
                    outlierIndex += 1
                    return outliers[outlierIndex - 1]
                }
                current = words[wordIndex]
            }
            let bit = UInt64(current.trailingZeroBitCount)
            current &= current - 1
            return ModelID(UInt64(wordIndex) * 64 + bit)
        }
    }
}
