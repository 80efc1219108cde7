import Foundation

/// `%@` arguments of `NSPredicate(format:_:)`. On Apple platforms every `NSObject` is a
/// `CVarArg`; swift-corelibs-foundation gives that conformance to `NSString` only, so the
/// objects an app passes to a query's predicate get it here: records, record IDs and
/// references, and the `NSDate`, `NSNumber` and `NSArray` that Apple's examples bridge dates,
/// numbers and arrays to. A predicate reads the object itself (`PredicateArguments`).
extension CKRecord: CVarArg {
    public var _cVarArgEncoding: [Int] { FormattedObject.encoding(describing: self) }
}

extension CKRecordID: CVarArg {
    public var _cVarArgEncoding: [Int] { FormattedObject.encoding(describing: self) }
}

extension CKReference: CVarArg {
    public var _cVarArgEncoding: [Int] { FormattedObject.encoding(describing: self) }
}

extension NSDate: @retroactive CVarArg {
    public var _cVarArgEncoding: [Int] { FormattedObject.encoding(describing: self) }
}

extension NSNumber: @retroactive CVarArg {
    public var _cVarArgEncoding: [Int] { FormattedObject.encoding(describing: self) }
}

extension NSArray: @retroactive CVarArg {
    public var _cVarArgEncoding: [Int] { FormattedObject.encoding(describing: self) }
}

/// On Apple platforms `date as CVarArg` bridges to `NSDate` and a Swift array is a `CVarArg`
/// (bridged to `NSArray`), the idioms Apple's predicate examples use; these make that code
/// compile on Linux, where Foundation does not bridge.
extension Date: @retroactive CVarArg {
    public var _cVarArgEncoding: [Int] {
        FormattedObject.encoding(describing: NSDate(timeIntervalSinceReferenceDate:
            timeIntervalSinceReferenceDate))
    }
}

extension Array: @retroactive CVarArg {
    public var _cVarArgEncoding: [Int] {
        FormattedObject.encoding(describing: _bridgeToObjectiveC())
    }
}

/// What a C formatter (`String(format:)`, `%@`) reads for these objects: Linux's formatter
/// prints only `NSString`s, so it gets the object's description as one. That string is kept
/// for the process: no autorelease pool ends its life after the call, as on Apple platforms.
enum FormattedObject {
    static func encoding(describing object: AnyObject) -> [Int] {
        let text = NSString(string: String(describing: object))
        return Unmanaged.passRetained(text).takeUnretainedValue()._cVarArgEncoding
    }
}
