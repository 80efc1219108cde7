/// Who points at whom, built at most once per save that deletes, so that the derived to-many
/// sides of deleted models and the pointers left dangling are found without a scan per
/// deletion.
///
/// Built at the first lookup that could find a pointer: a model whose entity no stored relationship
/// has as its destination has none pointing at it (every save checks that a target is of its
/// relationship's destination), and most deleting saves delete only such models (the swarm's notes
/// are pointed at by no stored pointer), so most never build it. Built later than the delete rules
/// begin, it lacks the models the cascade removed meanwhile: every caller keeps only pointers from
/// models that remain, so the answers are the same.
///
/// One array of (target, pointer) sorted by target, searched by bisection: a store holds a
/// few dozen pointers, and a `[ModelID: [Pointer]]` would hash every target and allocate an
/// array for each, a table and a dozen arrays built and freed for each deleting save.
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
    /// then as the source's relationships are walked. Nil until a lookup needs it.
    private var entries: [Entry]?

    init() {}

    private static func entries(of models: ModelTable) -> [Entry] {
        var entries: [Entry] = []
        // Only the models with relationships, read where they are stored.
        models.forEachRelatedInOrder { id, entity, toOne, toMany in
            // Sorted maps: walked in relationship-name order without sorting their keys.
            for (name, target) in toOne { // tidy: ordered a sorted map
                let pointer = Pointer(source: id, entity: entity, relationship: name)
                entries.append(Entry(target: target, found: entries.count, pointer: pointer))
            }
            for (name, targets) in toMany { // tidy: ordered a sorted map
                let pointer = Pointer(source: id, entity: entity, relationship: name)
                for target in targets {
                    entries.append(Entry(target: target, found: entries.count, pointer: pointer))
                }
            }
        }
        entries.sort { ($0.target, $0.found) < ($1.target, $1.found) }
        return entries
    }

    /// Every pointer at a model of `entity` in `models` (the draft's, as they are now),
    /// sorted by source; models the delete rules removed since an earlier lookup may still
    /// appear among the sources.
    mutating func pointers(
        at target: ModelID,
        of entity: String,
        in models: ModelTable,
        schema: Schema
    ) -> [Pointer] {
        if entries == nil {
            guard schema.isPointedAt(entity) else { return [] }
            entries = Self.entries(of: models)
        }
        guard let entries else { preconditionFailure("the pointer index was not built") }
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

    /// The models of `entity` whose relationship `relationship` points at `target` (a model
    /// of `targetEntity`), sorted; as `pointers(at:of:in:schema:)`, models removed since an
    /// earlier lookup may appear.
    mutating func sources(
        pointingAt target: ModelID,
        of targetEntity: String,
        through relationship: String,
        of entity: String,
        in models: ModelTable,
        schema: Schema
    ) -> [ModelID] {
        pointers(at: target, of: targetEntity, in: models, schema: schema)
            .filter { $0.entity == entity && $0.relationship == relationship }
            .map(\.source)
    }
}
