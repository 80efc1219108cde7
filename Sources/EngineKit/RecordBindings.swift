import LocalStore

/// Which record stands for which local model, both ways: what every engine keeps on its disk
/// once it names a model's record (the names are the engine's own: UUIDs, `<Entity>_<UUID>`).
///
/// Binding a model again keeps its old name's entry pointing at it, and forgetting a model
/// leaves a name that another model took since: both as the engines always kept the pair.
public struct RecordBindings: Hashable, Sendable {
    /// Model → record name.
    @usableFromInline var names: [ModelID: String] = [:]
    /// Record name → model.
    @usableFromInline var models: [String: ModelID] = [:]

    public init() {}

    /// The record name of a model, once the engine named it.
    @inlinable
    public func name(of model: ModelID) -> String? { names[model] }

    /// The model a record stands for, if the engine knows one.
    @inlinable
    public func model(named name: String) -> ModelID? { models[name] }

    /// Whether the model has a record name.
    @inlinable
    public func isBound(_ model: ModelID) -> Bool { names[model] != nil }

    /// Whether a model stands for the record.
    @inlinable
    public func isBound(name: String) -> Bool { models[name] != nil }

    /// How many models have a record name.
    @inlinable
    public var count: Int { names.count }

    @inlinable
    public var isEmpty: Bool { names.isEmpty }

    /// Names a model's record (both directions).
    @inlinable
    public mutating func bind(_ model: ModelID, to name: String) {
        names[model] = name
        models[name] = model
    }

    /// Forgets a model's record name; returns the name it had.
    @inlinable @discardableResult
    public mutating func forget(_ model: ModelID) -> String? {
        guard let name = names.removeValue(forKey: model) else { return nil }
        if models[name] == model { models[name] = nil }
        return name
    }

    /// The named models in ascending order (a walk whose order may reach an output).
    @inlinable
    public var sortedModels: [ModelID] { names.keys.sorted() }

    /// The record names that stand for a model, in ascending order.
    @inlinable
    public var sortedNames: [String] { models.keys.sorted() }
}
