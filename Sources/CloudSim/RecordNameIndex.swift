/// An open-addressing index from record names to dense positions: the one hash index of the
/// cloud's zone records (`RecordTable`) and the sds engine's table of names.
///
/// The owner keeps its entries in a dense array and their names; the index keeps, for each
/// position, one 8-byte slot: the position + 1 in the low 32 bits (0 for an empty slot) and the
/// low 32 bits of the name's hash (`RecordNameHash`) in the high ones. Linear probing from the
/// home slot (the hash masked), a power-of-two number of slots at most three quarters full.
/// A probe compares names only where the stored hashes agree, and growing or removing never
/// hashes a name again. A removal empties its slot by backward shift (no tombstones), and the
/// owner moves its last entry into the hole (`remove(at:movingLast:lastHash:)`).
///
/// Raw memory, freed by its owner (`deallocate()`), copied only by `copy()`: a lookup through an
/// owner's class then retains nothing. Its slots' order never shows (the index only answers
/// lookups); positions are the owner's and keep its order.
public struct RecordNameIndex: @unchecked Sendable {
    @usableFromInline var slots: UnsafeMutablePointer<UInt64>
    @usableFromInline var length: Int

    /// A power of two, or 0 before the first insertion.
    @inlinable
    public var slotCount: Int { length }

    /// An index without slots (no memory until the first insertion).
    @inlinable
    public init() {
        slots = UnsafeMutablePointer(bitPattern: MemoryLayout<UInt64>.alignment).unsafelyUnwrapped
        length = 0
    }

    /// The same slots in memory of their own, for an owner about to change.
    public func copy() -> RecordNameIndex {
        var copy = RecordNameIndex()
        guard slotCount > 0 else { return copy }
        copy.slots = .allocate(capacity: slotCount)
        copy.slots.initialize(from: slots, count: slotCount)
        copy.length = slotCount
        return copy
    }

    /// Frees the slots; the index is not used again.
    public func deallocate() {
        if slotCount > 0 { slots.deallocate() }
    }

    /// The high half of a slot: a hash's low 32 bits.
    @inlinable
    static func tag(_ hash: Int) -> UInt64 {
        UInt64(truncatingIfNeeded: UInt32(truncatingIfNeeded: hash)) &<< 32
    }

    // MARK: Lookup

    /// Where a lookup of one hash is: the slot it read last and the next one to read.
    public struct Probe {
        @usableFromInline var current: Int
        @usableFromInline var following: Int
        @usableFromInline let mask: Int
        @usableFromInline let tag: UInt64

        /// The slot of the candidate `next(_:)` returned last, or the empty slot that ended it.
        @inlinable
        public var slot: Int { current }

        @inlinable
        init(hash: Int, mask: Int) {
            current = -1
            following = hash & mask
            self.mask = mask
            tag = RecordNameIndex.tag(hash)
        }
    }

    /// A lookup of the positions filed under a hash; nil when the index has no slots yet.
    @inlinable
    public func probe(_ hash: Int) -> Probe? {
        slotCount == 0 ? nil : Probe(hash: hash, mask: slotCount &- 1)
    }

    /// The next position whose slot holds the probe's hash, for the owner to compare its name;
    /// nil at the empty slot that ends the run (the slot a new name of that hash would take).
    @inlinable
    public func next(_ probe: inout Probe) -> Int? {
        while true {
            let slot = probe.following
            probe.current = slot
            probe.following = (slot &+ 1) & probe.mask
            let value = slots[slot]
            if value == 0 { return nil }
            if value & 0xFFFF_FFFF_0000_0000 == probe.tag {
                return Int(truncatingIfNeeded: UInt32(truncatingIfNeeded: value)) &- 1
            }
        }
    }

    // MARK: Changing

    /// Files a position whose name the index does not hold, growing first when `count`
    /// positions (this one included) would fill more than three quarters of the slots.
    @inlinable
    public mutating func insert(_ position: Int, hash: Int, count: Int) {
        if count &* 4 > slotCount &* 3 { grow() }
        let mask = slotCount &- 1
        var slot = hash & mask
        while slots[slot] != 0 { slot = (slot &+ 1) & mask }
        slots[slot] = Self.tag(hash) | UInt64(UInt32(position + 1))
    }

    /// Doubles the slots (16 at first); each goes to its home by the hash it keeps.
    @usableFromInline
    mutating func grow() {
        let length = Swift.max(16, slotCount * 2)
        let grown = UnsafeMutablePointer<UInt64>.allocate(capacity: length)
        grown.initialize(repeating: 0, count: length)
        let mask = length - 1
        for old in 0..<slotCount where slots[old] != 0 {
            let value = slots[old]
            var slot = Int(truncatingIfNeeded: value >> 32) & mask
            while grown[slot] != 0 { slot = (slot + 1) & mask }
            grown[slot] = value
        }
        if slotCount > 0 { slots.deallocate() }
        slots = grown
        self.length = length
    }

    /// The slot that holds a position filed under `hash` (no name compared).
    @inlinable
    public func slot(of position: Int, hash: Int) -> Int {
        let mask = slotCount &- 1
        let number = UInt32(truncatingIfNeeded: position &+ 1)
        var slot = hash & mask
        var probes = 0
        while UInt32(truncatingIfNeeded: slots[slot]) != number {
            slot = (slot &+ 1) & mask
            probes &+= 1
            precondition(probes < slotCount, "record name index: position \(position) missing")
        }
        return slot
    }

    /// Removes the position in `slot` (from a probe or `slot(of:hash:)`); the owner moves its
    /// entry at `last` into that position, so the slot of `last` (filed under `lastHash`) is
    /// renumbered. `last` equal to the position removed: nothing moves.
    public mutating func remove(at slot: Int, movingLast last: Int, lastHash: Int) {
        let position = Int(truncatingIfNeeded: UInt32(truncatingIfNeeded: slots[slot])) &- 1
        unfile(at: slot)
        guard position != last else { return }
        let moved = self.slot(of: last, hash: lastHash)
        slots[moved] = slots[moved] & 0xFFFF_FFFF_0000_0000 | UInt64(UInt32(position + 1))
    }

    /// Empties a slot: the slots after it in its run move back when their home is not between
    /// the hole and where they are (backward-shift deletion).
    @usableFromInline
    func unfile(at slot: Int) {
        let mask = slotCount - 1
        var hole = slot
        var next = slot
        while true {
            next = (next + 1) & mask
            let value = slots[next]
            if value == 0 { break }
            let home = Int(truncatingIfNeeded: value >> 32) & mask
            if (next &- home) & mask >= (next &- hole) & mask {
                slots[hole] = value
                hole = next
            }
        }
        slots[hole] = 0
    }
}
