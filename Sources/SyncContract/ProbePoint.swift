/// A point of a synchronization where the engine stops, lets triggers act, and continues at
/// the same simulated time.
public struct ProbePoint: Hashable, Sendable {
    public var name: String
    /// What has happened when the engine passes it (`synclab probes`).
    public var meaning: String

    public init(_ name: String, _ meaning: String) {
        self.name = name
        self.meaning = meaning
    }

    /// The contract's probe points, in the order one synchronization passes them: every
    /// engine passes all ten, in this order, so triggers written for one engine work on all.
    public static let contractOrder = [
        "sync.start", "download.start", "download.page.fetched", "download.page.stored",
        "download.page.saved", "download.done", "upload.start", "upload.sent", "upload.done",
        "sync.done",
    ]
}
