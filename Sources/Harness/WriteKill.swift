/// A kill right after one of a device's disk writes: the `write`-th write its engines made
/// since the run began (counted across launches), so a kill can fall between any two writes.
public struct WriteKill: Hashable, Sendable {
    public var device: String
    public var write: Int

    public init(device: String, write: Int) {
        precondition(write > 0, "writes are counted from 1")
        self.device = device
        self.write = write
    }
}
