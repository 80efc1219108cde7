import CloudKit
import Foundation

/// An app that scenario files and the explorer can drive: SyncLab launches it on each
/// device, hands it the scenario's edits (`phone: insert Note n1 text="milk"`), and reads its
/// models back for every check (`expect laptop: n1 text="milk"`, `expect converged`, the
/// explorer's checkers). The app keeps its own data in its own files; SyncLab keeps only the
/// names that tie the scenario's labels to the app's record names.
public protocol ScenarioApp: AnyObject, Sendable {
    /// The app launched on a device whose files are in `container` (they survive a kill).
    static func launch(in container: AppContainer) async -> Self
    /// The app's own edits, in the order the scenario made them, as one save.
    func apply(_ edits: [ScenarioEdit]) async throws
    /// Every model the app holds now.
    func models() async -> [ScenarioModel]
}

/// A value of a model's attribute, as scenario files write them.
public enum ScenarioValue: Hashable, Sendable {
    case string(String)
    case int(Int)
    case double(Double)
    case bool(Bool)
    case date(Date)
    case uuid(String)
    case url(String)
    case data(Data)
}

/// One edit of a scenario's save.
public struct ScenarioEdit: Hashable, Sendable {
    public enum Kind: Hashable, Sendable {
        case insert(entity: String)
        case update
        case delete
    }

    /// The model's record name (the app names its record so).
    public let id: String
    public let kind: Kind
    /// The attributes set (an update: only the changed ones).
    public let values: [String: ScenarioValue]
}

/// A model as the app holds it.
public struct ScenarioModel: Hashable, Sendable {
    /// The record name the model is synchronized as.
    public let id: String
    public let entity: String
    public let values: [String: ScenarioValue]

    public init(id: String, entity: String, values: [String: ScenarioValue]) {
        self.id = id
        self.entity = entity
        self.values = values
    }
}
