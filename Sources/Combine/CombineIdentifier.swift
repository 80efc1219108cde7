import Synchronization

/// Combine's `CombineIdentifier`: what tells one subscriber or subscription from another; a
/// class's is its object, a value's a number drawn once from a process-wide count.
public struct CombineIdentifier: Hashable, CustomStringConvertible {
    private let value: UInt64

    public init() {
        value = combineIdentifierCount.add(1, ordering: .relaxed).newValue
    }

    public init(_ object: AnyObject) {
        value = UInt64(UInt(bitPattern: Unmanaged.passUnretained(object).toOpaque()))
    }

    public var description: String {
        "0x" + String(value, radix: 16)
    }
}

/// Numbers for `CombineIdentifier()`: one count for the process, as Apple's, so two values
/// never share one; its order is the order values were made in, never a decision's input.
private let combineIdentifierCount = Atomic<UInt64>(0)

/// Combine's `CustomCombineIdentifierConvertible`: every subscriber and subscription has a
/// `combineIdentifier`; a class gets its own object's.
public protocol CustomCombineIdentifierConvertible {
    var combineIdentifier: CombineIdentifier { get }
}

extension CustomCombineIdentifierConvertible where Self: AnyObject {
    public var combineIdentifier: CombineIdentifier {
        CombineIdentifier(self)
    }
}
