import Foundation

/// `%@` arguments of `NSPredicate(format:_:)`. On Apple platforms every `NSObject` is a
/// `CVarArg`; swift-corelibs-foundation gives none that conformance, so the objects an app
/// passes to a query's predicate get it here: records, record IDs and references, and the
/// `NSDate`, `NSNumber` and `NSArray` that Apple's examples bridge dates, numbers and arrays
/// to. Each is encoded as Apple encodes an object: its address.
extension CKRecord: CVarArg {
    public var _cVarArgEncoding: [Int] { [ObjectAddress.of(self)] }
}

extension CKRecordID: CVarArg {
    public var _cVarArgEncoding: [Int] { [ObjectAddress.of(self)] }
}

extension CKReference: CVarArg {
    public var _cVarArgEncoding: [Int] { [ObjectAddress.of(self)] }
}

extension NSDate: @retroactive CVarArg {
    public var _cVarArgEncoding: [Int] { [ObjectAddress.of(self)] }
}

extension NSNumber: @retroactive CVarArg {
    public var _cVarArgEncoding: [Int] { [ObjectAddress.of(self)] }
}

extension NSArray: @retroactive CVarArg {
    public var _cVarArgEncoding: [Int] { [ObjectAddress.of(self)] }
}

enum ObjectAddress {
    static func of(_ object: AnyObject) -> Int {
        Int(bitPattern: Unmanaged.passUnretained(object).toOpaque())
    }
}
