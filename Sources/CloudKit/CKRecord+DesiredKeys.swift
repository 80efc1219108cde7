extension CKRecord {
    /// The record as a fetch with `desiredKeys` returns it (Apple, `records(for:desiredKeys:)`:
    /// "To include all fields, specify `nil`; to fetch only system fields, specify an empty
    /// array"): the fields not listed are dropped, the system fields kept. The simulated cloud
    /// answers with whole records and the facade drops the rest, so the bandwidth a subset
    /// saves is not modelled. Nothing is marked changed: a save sends only what the app edits.
    func keepingOnly(_ desiredKeys: [CKRecord.FieldKey]?) -> CKRecord {
        guard let desiredKeys else { return self }
        let kept = Set(desiredKeys)
        fields = fields.filter { kept.contains($0.key) }
        encryptedKeys.formIntersection(kept)
        return self
    }
}
