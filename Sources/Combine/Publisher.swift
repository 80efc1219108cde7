/// Combine's `Publisher`, for app code written for Apple platforms and run under SyncLab on
/// Linux: a value stream a subscriber attaches to. Values are delivered synchronously, on the
/// executor that sends (a simulated device's, where its code runs), except through a
/// scheduler, which hands them on as tasks of the same device: a run's order is fixed by the
/// code alone.
public protocol Publisher<Output, Failure> {
    associatedtype Output
    associatedtype Failure: Error

    func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure
}

/// Combine's `Subscriber`: it is given a subscription, asks it for values, and receives them
/// and at most one completion.
public protocol Subscriber<Input, Failure>: CustomCombineIdentifierConvertible {
    associatedtype Input
    associatedtype Failure: Error

    func receive(subscription: any Subscription)
    func receive(_ input: Input) -> Subscribers.Demand
    func receive(completion: Subscribers.Completion<Failure>)
}

/// Combine's `Cancellable`.
public protocol Cancellable {
    func cancel()
}

/// Combine's `Subscription`: the link a subscriber asks for values through.
public protocol Subscription: Cancellable, CustomCombineIdentifierConvertible {
    func request(_ demand: Subscribers.Demand)
}

/// Combine's namespace of subscribers, demand and completion.
public enum Subscribers {
    /// How many more values a subscriber wants: a count, or unlimited.
    public struct Demand: Equatable, Hashable, Sendable, Comparable {
        /// The count; nil for unlimited.
        public let max: Int?

        public static let unlimited = Demand(max: nil)
        public static let none = Demand(max: 0)

        public static func max(_ value: Int) -> Demand {
            precondition(value >= 0, "a demand is not negative")
            return Demand(max: value)
        }

        private init(max: Int?) { self.max = max }

        public static func + (lhs: Demand, rhs: Demand) -> Demand {
            guard let left = lhs.max, let right = rhs.max else { return .unlimited }
            return Demand(max: left + right)
        }

        public static func += (lhs: inout Demand, rhs: Demand) { lhs = lhs + rhs }

        public static func - (lhs: Demand, rhs: Demand) -> Demand {
            guard let left = lhs.max else { return .unlimited }
            guard let right = rhs.max else { return .none }
            return Demand(max: Swift.max(0, left - right))
        }

        public static func -= (lhs: inout Demand, rhs: Demand) { lhs = lhs - rhs }

        public static func < (lhs: Demand, rhs: Demand) -> Bool {
            guard let right = rhs.max else { return lhs.max != nil }
            guard let left = lhs.max else { return false }
            return left < right
        }
    }

    /// How a stream ended.
    public enum Completion<Failure: Error> {
        case finished
        case failure(Failure)
    }
}

extension Subscribers.Completion: Equatable where Failure: Equatable {}
extension Subscribers.Completion: Hashable where Failure: Hashable {}
extension Subscribers.Completion: Sendable where Failure: Sendable {}
