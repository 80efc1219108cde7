/// Who points at whom, built once per save that deletes, so that the derived to-many sides
/// of deleted models and the pointers left dangling are found without a scan per deletion.
///
/// One array of (target, pointer) sorted by target, searched by bisection. Issue 19: a
/// `[ModelID: [Pointer]]` hashed every target and allocated an array for each, a table and
/// a dozen arrays built and freed for each deleting save, where a store holds a few dozen
/// pointers.
struct PointerIndex {
    struct Pointer: Hashable {
        var source: ModelID
        var entity: String
        var relationship: String
    }

    /// One pointer at a target, with the position it was found at (the tie-break of the
    /// sort, which keeps each target's pointers in the order found).
    private struct Entry {
        var target: ModelID
        var found: Int
        var pointer: Pointer
    }

    /// Every pointer, sorted by target; a target's pointers in the order found: by source,
    /// then as the source's relationships are walked.
    private var entries: [Entry]

    init(_ models: ModelTable) {
        var entries: [Entry] = []
        models.forEachInOrder { model in
            let id = model.id
            // Sorted maps: walked in relationship-name order without sorting their keys.
            for (name, target) in model.toOne { // tidy: ordered a sorted map
                let pointer = Pointer(source: id, entity: model.entity, relationship: name)
                entries.append(Entry(target: target, found: entries.count, pointer: pointer))
            }
            for (name, targets) in model.toMany { // tidy: ordered a sorted map
                let pointer = Pointer(source: id, entity: model.entity, relationship: name)
                for target in targets {
                    entries.append(Entry(target: target, found: entries.count, pointer: pointer))
                }
            }
        }
        entries.sort { ($0.target, $0.found) < ($1.target, $1.found) }
        self.entries = entries
    }

    /// Every pointer at a model, sorted by source.
    func pointers(at target: ModelID) -> [Pointer] {
        var low = 0
        var high = entries.count
        while low < high {
            let middle = (low + high) / 2
            if entries[middle].target < target { low = middle + 1 } else { high = middle }
        }
        var pointers: [Pointer] = []
        while low < entries.count, entries[low].target == target {
            pointers.append(entries[low].pointer)
            low += 1
        }
        return pointers
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
