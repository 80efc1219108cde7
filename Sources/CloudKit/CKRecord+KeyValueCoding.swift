import Foundation

/// Key-value coding of a record's fields, as older CloudKit code writes it
/// (`record.setValue(title, forKey: "title")`): on Apple platforms `CKRecord` is KVC-compliant
/// for its fields; swift-corelibs-foundation has no KVC, so these are the record's own. A value
/// a record cannot store stops the run, as Apple's raises an exception.
extension CKRecord {
    public func value(forKey key: String) -> Any? {
        object(forKey: key)
    }

    public func setValue(_ value: Any?, forKey key: String) {
        guard let value else { return setObject(nil, forKey: key) }
        guard let stored = value as? any CKRecordValueProtocol else {
            preconditionFailure("CKRecord: a \(type(of: value)) cannot be stored in field '\(key)'")
        }
        setObject(stored, forKey: key)
    }

    public func setValuesForKeys(_ keyedValues: [String: Any]) {
        // Sorted: the order of the sets is the order of `changedKeys()`.
        for key in keyedValues.keys.sorted() { setValue(keyedValues[key], forKey: key) }
    }

    public func dictionaryWithValues(forKeys keys: [String]) -> [String: Any] {
        var values: [String: Any] = [:]
        for key in keys { values[key] = value(forKey: key) ?? NSNull() }
        return values
    }
}
