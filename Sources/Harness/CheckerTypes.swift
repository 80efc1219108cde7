import Checkers

/// The Checkers target's public types under the names Harness always gave them, so code that
/// imports Harness alone still reads them.
public typealias InvariantCheck = Checkers.InvariantCheck
public typealias InvariantViolation = Checkers.InvariantViolation
public typealias ISODate = Checkers.ISODate
