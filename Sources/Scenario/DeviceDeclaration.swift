/// `account NAME`: an iCloud account devices can sign into.
public struct AccountDeclaration: Hashable, Sendable {
    public var name: Located<String>
    public var location: SourceLocation

    public init(name: Located<String>, location: SourceLocation) {
        self.name = name
        self.location = location
    }
}

/// `device NAME [on ACCOUNT] [latency D]`: one app process, launched at time 0.
public struct DeviceDeclaration: Hashable, Sendable {
    public var name: Located<String>
    /// The account signed in at launch; nil means the device starts signed out.
    public var account: Located<String>?
    /// This device's one-way request latency; nil means the cloud's latency applies.
    public var latency: Located<DurationSpecification>?
    public var location: SourceLocation

    public init(
        name: Located<String>,
        account: Located<String>? = nil,
        latency: Located<DurationSpecification>? = nil,
        location: SourceLocation
    ) {
        self.name = name
        self.account = account
        self.latency = latency
        self.location = location
    }
}
