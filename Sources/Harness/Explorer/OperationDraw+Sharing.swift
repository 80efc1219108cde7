import Kernel
import Scenario

extension OperationDraw {
    /// `share LABEL with ACCOUNT read-write` (one in four `read-only`): a model the device
    /// holds of a `sharable` entity, whose record is named, with an account the file
    /// declares other than the device's; nil when there is none. The cloud refuses what
    /// the device's account may not do, as it would the app.
    func share(
        _ operations: inout Xoshiro256StarStar, _ values: inout Xoshiro256StarStar
    ) -> ChaosAction? {
        let roots = run.plan.sharableEntityNames
        let world = run.world
        let own = world.devices[deviceIndex].account
        let accounts = run.plan.declaredAccounts.filter { $0 != own }
        guard !roots.isEmpty, !accounts.isEmpty else { return nil }
        world.labels.resolveNames(devices: world.devices)
        let named = held(roots).filter { world.labels.recordName(of: boundLabel(at: $0)) != nil }
        guard let target = pick(named, &operations), let account = pick(accounts, &operations)
        else { return nil }
        let permission: SharePermission = values.chance(1, in: 4) ? .readOnly : .readWrite
        return .sharing(device: device, .share(
            label: boundLabel(at: target), account: account, permission: permission))
    }

    /// A step that ends sharing a root an earlier step shared: on a device of the invited
    /// account, `leave share`; elsewhere `unshare` (two in three) or `remove ACCOUNT from`.
    /// The cloud refuses a device that may not take it.
    func unshare(_ operations: inout Xoshiro256StarStar) -> ChaosAction? {
        guard let shared = pick(run.shares, &operations) else { return nil }
        let step: ChaosSharingStep
        if run.world.devices[deviceIndex].account == shared.account {
            step = .leave(label: shared.label)
        } else if operations.chance(2, in: 3) {
            step = .unshare(label: shared.label)
        } else {
            step = .remove(account: shared.account, label: shared.label)
        }
        return .sharing(device: device, step)
    }
}
