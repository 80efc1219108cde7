extension Optional {
    /// Whether the optional holds no value, told by its case alone.
    ///
    /// `x == nil` (or `!= nil`) on an optional of an `Equatable` type picks Equatable's `==`:
    /// the nil literal becomes an optional of that type, and both are copied into a pair to
    /// compare, the value destroyed again after, through the runtime's generic value
    /// witnesses for a type with many fields (a change token, say). The engine's hot paths
    /// ask this instead.
    @inline(__always)
    var isNil: Bool {
        if case .none = self { return true }
        return false
    }
}
