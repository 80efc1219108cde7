import Kernel
import Scenario

extension OperationDraw {
    /// `batch-delete ENTITY` of the entity of a model the device holds; half the times a
    /// `Bool` attribute outside its identity is drawn, `where` it has a drawn value.
    func batchDelete(
        _ operations: inout Xoshiro256StarStar, _ values: inout Xoshiro256StarStar
    ) -> ChaosAction? {
        guard let target = pick(held(workloadEntities), &operations),
            let entity = run.plan.entity(named: boundEntity(at: target)) else { return nil }
        let flags = entity.attributes.filter { attribute in
            attribute.type == .bool
                && !entity.identity.contains { $0.value == attribute.name.value }
        }
        var filter: [ChaosAssignment] = []
        if let flag = pick(flags, &operations), values.chance(1, in: 2) {
            filter.append(
                ValueDraw.value(for: flag, step: step, isIdentity: false, random: &values))
        }
        return .batchDelete(device: device, entity: entity.name.value, filter: filter)
    }
}
