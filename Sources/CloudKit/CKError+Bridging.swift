import Foundation

// `error as NSError` reads these, so an app's error handling written against `NSError` sees
// what it sees on Apple platforms: domain, the code's raw value, the documented keys.
extension CKError: CustomNSError {
    public var errorUserInfo: [String: Any] { userInfo }
}

// Foundation on Linux casts an `NSError` to a Swift error through this conformance only (its
// own `CocoaError` does the same), so `nsError as? CKError` and `catch let error as CKError`
// work for an `NSError` of `CKErrorDomain`, as Apple's bridging does.
extension CKError: _ObjectiveCBridgeable {
    public typealias _ObjectiveCType = NSError

    public func _bridgeToObjectiveC() -> NSError {
        NSError(domain: Self.errorDomain, code: errorCode, userInfo: userInfo)
    }

    public static func _forceBridgeFromObjectiveC(_ source: NSError, result: inout CKError?) {
        result = _unconditionallyBridgeFromObjectiveC(source)
    }

    public static func _conditionallyBridgeFromObjectiveC(_ source: NSError,
        result: inout CKError?) -> Bool {
        result = CKError(bridging: source)
        return result != nil
    }

    public static func _unconditionallyBridgeFromObjectiveC(_ source: NSError?) -> CKError {
        source.flatMap(CKError.init(bridging:)) ?? CKError(.internalError)
    }

    /// The error an `NSError` of CloudKit's domain stands for; nil for another domain or an
    /// unknown code.
    private init?(bridging error: NSError) {
        guard error.domain == Self.errorDomain, let code = Code(rawValue: error.code) else {
            return nil
        }
        self.init(code, userInfo: error.userInfo)
    }
}
