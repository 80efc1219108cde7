import CloudSim

extension CKDatabase {
    /// After a save: the invitations and removals of each share saved, one share step each,
    /// and the share as the cloud then keeps it in the save's result.
    func sendShareSteps(
        of saved: [CKRecord], into results: inout [CKRecord.ID: Result<CKRecord, any Error>],
        runtime: DeviceRuntime
    ) async {
        let account = runtime.account ?? ""
        for case let share as CKShare in saved {
            guard case .success? = results[share.recordID] else { continue }
            let steps = share.steps(account: account)
            for (zone, target, action) in steps { // tidy: ordered (an array)
                let response = await runtime.request(.share(zone: zone, target: target,
                    action: action))
                guard case .shareModified(_, let records) = response else {
                    results[share.recordID] = .failure(Self.error(response, runtime))
                    break
                }
                if let stored = records.first(where: \.isShare) {
                    results[share.recordID] = .success(CKRecord.from(stored,
                        account: runtime.account))
                }
            }
            if case .success? = results[share.recordID] {
                share.invited = []
                share.removed = []
                share.serverPublicPermission = share.publicPermission
            }
        }
    }
}
