import Combine
import Foundation

/// Combine's `NotificationCenter.Publisher`: the notifications of one name (and object),
/// observed through `addObserver(forName:object:queue:using:)`, so on the default center a
/// device's subscriber hears only its own device's notifications, in the order posted.
extension NotificationCenter {
    public struct Publisher: Combine.Publisher {
        public typealias Output = Notification
        public typealias Failure = Never
        public let center: NotificationCenter
        public let name: Notification.Name
        public let object: AnyObject?

        public init(center: NotificationCenter, name: Notification.Name,
                    object: AnyObject? = nil) {
            self.center = center
            self.name = name
            self.object = object
        }

        public func receive<S: Subscriber>(subscriber: S)
        where S.Input == Notification, S.Failure == Never {
            let link = NotificationLink(deliver: subscriber.receive(_:))
            link.token = center.addObserver(forName: name, object: object, queue: nil) {
                [link] notification in link.offer(notification)
            }
            link.center = center
            subscriber.receive(subscription: link)
        }
    }

    public func publisher(for name: Notification.Name, object: AnyObject? = nil) -> Publisher {
        Publisher(center: self, name: name, object: object)
    }
}

/// One subscriber's observation: what it still wants, and the observer to remove on cancel.
private final class NotificationLink: Subscription, @unchecked Sendable {
    // `@unchecked`: posted to and cancelled on the simulation's one thread.
    let deliver: (Notification) -> Subscribers.Demand
    var demand = Subscribers.Demand.none
    var token: (any NSObjectProtocol)?
    weak var center: NotificationCenter?

    init(deliver: @escaping (Notification) -> Subscribers.Demand) {
        self.deliver = deliver
    }

    func request(_ more: Subscribers.Demand) { demand += more }

    func offer(_ notification: Notification) {
        guard token != nil, demand > .none else { return }
        demand -= .max(1)
        demand += deliver(notification)
    }

    func cancel() {
        guard let token else { return }
        self.token = nil
        center?.removeObserver(token)
    }
}
