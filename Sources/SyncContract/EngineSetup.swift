import LocalStore

/// What a device tells its profile when it launches an engine.
public struct EngineSetup: Sendable {
    /// What this process synchronizes (an extension or an older version: fewer models/keys).
    public var schema: Schema
    /// What the app records changes of (an extension follows its app's version).
    public var recordingSchema: Schema
    /// Everything the scenario's schema synchronizes.
    public var fullSchema: Schema
    /// The process is an extension sharing its app's disk (app group).
    public var isExtension: Bool
    /// Records per page of a zone download (`cloud page-size`).
    public var pageSize: Int
    /// Test-only switches of the engine's mechanisms, by the names the profile lists.
    public var mechanisms: [String: Bool]

    public init(
        schema: Schema,
        recordingSchema: Schema,
        fullSchema: Schema,
        isExtension: Bool,
        pageSize: Int,
        mechanisms: [String: Bool] = [:]
    ) {
        self.schema = schema
        self.recordingSchema = recordingSchema
        self.fullSchema = fullSchema
        self.isExtension = isExtension
        self.pageSize = pageSize
        self.mechanisms = mechanisms
    }
}
