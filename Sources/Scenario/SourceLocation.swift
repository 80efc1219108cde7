/// A position in a scenario file: 1-based line, 1-based column counted in Unicode scalars.
///
/// Columns count Unicode scalars (not UTF-8 bytes) so that a position reads the same as the
/// character a person counts to in an editor for the letters and symbols scenarios use.
///
/// Stored in 32 bits each (8 bytes, not 16): every token, name and value of the syntax tree
/// carries one, and a generated script has millions. A larger number is kept as the largest
/// 32-bit one (2,147,483,647), which only a line or file of gigabytes could reach.
public struct SourceLocation: Hashable, Sendable, Comparable, CustomStringConvertible {
    private var storedLine: Int32
    private var storedColumn: Int32

    public var line: Int {
        get { Int(storedLine) }
        set { storedLine = Int32(clamping: newValue) }
    }

    public var column: Int {
        get { Int(storedColumn) }
        set { storedColumn = Int32(clamping: newValue) }
    }

    public init(line: Int, column: Int) {
        storedLine = Int32(clamping: line)
        storedColumn = Int32(clamping: column)
    }

    /// The start of a file, where diagnostics about the whole file sit.
    public static let start = SourceLocation(line: 1, column: 1)

    public static func < (lhs: SourceLocation, rhs: SourceLocation) -> Bool {
        (lhs.storedLine, lhs.storedColumn) < (rhs.storedLine, rhs.storedColumn)
    }

    public var description: String { "\(line):\(column)" }
}

/// A value together with where it was written, so that later passes can point at it.
public struct Located<Value: Sendable>: Sendable {
    public var value: Value
    public var location: SourceLocation

    public init(_ value: Value, at location: SourceLocation) {
        self.value = value
        self.location = location
    }
}

extension Located: Equatable where Value: Equatable {}
extension Located: Hashable where Value: Hashable {}
