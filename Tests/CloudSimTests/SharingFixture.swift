import CloudSim
import Kernel
import Testing

/// Sharing shorthands on top of `CloudFixture`.
///
/// alice owns the app zone; bob (`desktop`, `bobPhone`) and carol (`carolPad`) are the other
/// accounts. `makeTree()` stores, in alice's zone: the folder `f1` with `n1` and `n2` below
/// it and `n3` below `n1`; the folder `f2` with `m1` below it; and `x1` on its own.
extension CloudFixture {
    var bobPhone: CloudClient { CloudClient(device: "bobPhone", account: "bob") }
    var carolPad: CloudClient { CloudClient(device: "carolPad", account: "carol") }

    /// The records of `makeTree()`, in the order they are saved.
    static let treeNames = ["f1", "f2", "m1", "n1", "n2", "n3", "x1"]

    func makeTree() {
        let results = insert(
            note("f1", ["name": .string("Inbox")], type: "Folder"),
            note("f2", ["name": .string("Work")], type: "Folder"),
            note("m1", ["title": .string("M1")], parent: "f2"),
            note("n1", ["title": .string("N1")], parent: "f1"),
            note("n2", ["title": .string("N2")], parent: "f1"),
            note("n3", ["title": .string("N3")], parent: "n1"),
            note("x1", ["title": .string("X1")]))
        #expect(results.allSatisfy { $0.savedRecord != nil }, "\(results)")
    }

    /// alice's phone shares `root` with an account.
    @discardableResult
    func share(
        _ root: String = "f1", with account: String = "bob",
        _ permission: SharePermission = .readWrite, by client: CloudClient? = nil
    ) -> CloudOutcome {
        let outcome = cloud.share(
            rootRecordName: root, in: zone, with: account, permission: permission,
            by: client ?? phone, now: now)
        now += .milliseconds(1)
        return outcome
    }

    /// A share step on alice's zone by any client.
    @discardableResult
    func step(
        _ action: ShareAction, on target: ShareTarget = .rootRecord("f1"), by client: CloudClient
    ) -> CloudOutcome {
        let outcome = cloud.shareAction(action, on: target, in: zone, by: client, now: now)
        now += .milliseconds(1)
        return outcome
    }

    /// Shares `root` with bob and has bob's desktop accept.
    func shareAndAccept(
        _ root: String = "f1", _ permission: SharePermission = .readWrite
    ) {
        #expect(share(root, with: "bob", permission).response.failure == nil)
        #expect(step(.accept, on: .rootRecord(root), by: desktop).response.failure == nil)
    }

    /// One page of alice's zone through a client's shared database.
    func fetchShared(
        after token: ZoneChangeToken?, limit: Int = 0, zone: ZoneID? = nil,
        from client: CloudClient? = nil
    ) -> CloudOutcome {
        send(
            .fetchZoneChanges(
                scope: .sharedDatabase, zone: zone ?? self.zone, token: token, resultsLimit: limit),
            from: client ?? desktop)
    }

    func fetchSharedDatabase(
        after token: DatabaseChangeToken?, from client: CloudClient? = nil
    ) -> CloudResponse {
        send(.fetchDatabaseChanges(scope: .sharedDatabase, token: token), from: client ?? desktop)
            .response
    }

    /// A write into alice's zone through a client's shared database.
    @discardableResult
    func modifyShared(
        saves: [RecordSave] = [], deletes: [String] = [],
        policy: SavePolicy = .ifServerRecordUnchanged, atomic: Bool = false,
        from client: CloudClient? = nil
    ) -> CloudOutcome {
        send(
            .modifyRecords(
                scope: .sharedDatabase, zone: zone, saves: saves, deletes: deletes,
                policy: policy, atomic: atomic),
            from: client ?? desktop)
    }

    /// Every record name a client reads of alice's zone through its shared database, from a
    /// nil token to the end.
    func sharedNames(of client: CloudClient? = nil) -> [String] {
        guard let page = fetchShared(after: nil, limit: 1000, from: client).response.page else {
            return []
        }
        return names(page.records).sorted()
    }
}

extension CloudResponse {
    /// The answer to a `.share` request.
    var shareModified: (share: ShareInfo?, records: [CloudRecord])? {
        if case .shareModified(let share, let records) = self { return (share, records) }
        return nil
    }
}

extension CloudOutcome {
    /// The `reason` of every `access.refused` note, in order.
    var refusalReasons: [String] {
        notes("access.refused").compactMap { $0.detail("reason") }
    }
}

extension ShareInfo {
    /// `account:status:permission` of every participant, in order.
    var summary: [String] {
        participants.map { "\($0.account):\($0.acceptanceStatus):\($0.permission)" }
    }
}
