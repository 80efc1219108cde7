/// Who points at whom, built once per save that deletes, so that the derived to-many sides
/// of deleted models and the pointers left dangling are found without a scan per deletion.
struct PointerIndex {
    struct Pointer: Hashable {
        var source: ModelID
        var entity: String
        var relationship: String
    }

    /// For each target, the pointers at it, sorted by source then relationship name.
    private var pointersByTarget: [ModelID: [Pointer]] = [:]

    init(_ models: ModelTable) {
        var index = PointerIndex()
        models.forEachInOrder { model in
            let id = model.id
            // Sorted maps: walked in relationship-name order without sorting their keys.
            for (name, target) in model.toOne { // tidy: ordered a sorted map
                let pointer = Pointer(source: id, entity: model.entity, relationship: name)
                index.add(pointer, at: target)
            }
            for (name, targets) in model.toMany { // tidy: ordered a sorted map
                let pointer = Pointer(source: id, entity: model.entity, relationship: name)
                for target in targets {
                    index.add(pointer, at: target)
                }
            }
        }
        self = index
    }

    private init() {}

    private mutating func add(_ pointer: Pointer, at target: ModelID) {
        pointersByTarget[target, default: []].append(pointer)
    }

    /// Every pointer at a model, sorted by source.
    func pointers(at target: ModelID) -> [Pointer] {
        pointersByTarget[target] ?? []
    }

    /// The models of `entity` whose relationship `relationship` points at `target`, sorted.
    func sources(
        pointingAt target: ModelID,
        through relationship: String,
        of entity: String
    ) -> [ModelID] {
        pointers(at: target)
            .filter { $0.entity == entity && $0.relationship == relationship }
            .map(\.source)
    }
}
