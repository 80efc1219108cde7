import Kernel

/// The operation kinds a swarm world's mix may add, drawn from a stream of their own
/// (`swarm/steps`): a world that draws none of them is the one its seed drew before they
/// existed. Sharing (`share`, `unshare`: a sharable folder and a device on a second
/// account) and batch deletes.
struct SwarmSteps {
    let sharing: Bool
    let batchDelete: Bool
    private let sharePercent: Int64
    private let unsharePercent: Int64
    private let batchDeletePercent: Int64

    /// `sharing`: whether the engine carries out the sharing steps.
    init(seed: UInt64, sharing allowed: Bool) {
        var random = RandomStreams(seed: seed).stream("swarm/steps")
        // Each drawn whatever the engine, so that the engine changes none of the others.
        let shares = random.chance(40, in: 100)
        batchDelete = random.chance(25, in: 100)
        sharePercent = random.int(in: 3...8)
        unsharePercent = random.int(in: 1...4)
        batchDeletePercent = random.int(in: 1...3)
        sharing = shares && allowed
    }

    /// The mix's added kinds with their percentages; `sharing` says whether the world could
    /// share (it has a folder).
    func shares(sharing drawn: Bool) -> [(kind: String, percent: Int64)] {
        var shares: [(kind: String, percent: Int64)] = []
        if drawn { shares += [("share", sharePercent), ("unshare", unsharePercent)] }
        if batchDelete { shares.append(("batch-delete", batchDeletePercent)) }
        return shares
    }
}
