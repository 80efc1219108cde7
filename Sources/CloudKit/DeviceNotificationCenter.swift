import Foundation

/// `NotificationCenter.default` as each simulated device's app sees it: every device runs in
/// one process, yet an app's observers see only the notifications of their own process.
///
/// An observer a device's code adds on the default center (Apple's
/// `addObserver(forName:object:queue:using:)`, with a nil or class `object`, from a file that
/// imports CloudKit, where these overloads are the more specific) belongs to that launch of the
/// device: SyncLab keeps it, in the order added, and calls it only for notifications posted
/// on that device (`post(name:object:)`, `post(name:object:userInfo:)`, and SyncLab's own
/// `.CKAccountChanged`). Foundation would call every device's observers, in an order that
/// changes from process to process. Outside a device's code, the calls are Foundation's.
extension NotificationCenter {
    public func addObserver(
        forName name: NSNotification.Name?, object obj: AnyObject?, queue: OperationQueue?,
        using block: @escaping @Sendable (Notification) -> Void
    ) -> any NSObjectProtocol {
        guard self === NotificationCenter.default, let runtime = DeviceRuntime.current else {
            return addObserver(forName: name, object: obj as Any?, queue: queue, using: block)
        }
        let observer = DeviceObserver(name: name, object: obj, queued: queue != nil,
            block: block)
        runtime.observers.append(observer)
        return observer
    }

    public func post(name aName: NSNotification.Name, object anObject: AnyObject?) {
        post(name: aName, object: anObject, userInfo: nil)
    }

    public func post(
        name aName: NSNotification.Name, object anObject: AnyObject?,
        userInfo aUserInfo: [AnyHashable: Any]?
    ) {
        let notification = Notification(name: aName, object: anObject, userInfo: aUserInfo)
        guard self === NotificationCenter.default, let runtime = DeviceRuntime.current else {
            return post(notification)
        }
        runtime.deliver(notification)
    }

    public func removeObserver(_ observer: AnyObject) {
        removeObserver(observer, name: nil, object: nil)
    }

    public func removeObserver(
        _ observer: AnyObject, name aName: NSNotification.Name?, object anObject: AnyObject?
    ) {
        guard let observer = observer as? DeviceObserver else {
            return removeObserver(observer as Any, name: aName, object: anObject as Any?)
        }
        guard aName == nil || aName == observer.name,
            anObject == nil || anObject === observer.object
        else { return }
        observer.isRemoved = true
        observer.runtime?.observers.removeAll { $0 === observer }
    }
}

/// One observer a device's code added: what it listens for, and its block.
final class DeviceObserver: NSObject, @unchecked Sendable {
    // `@unchecked`: used on its device's thread only.
    let name: Notification.Name?
    let object: AnyObject?
    /// Given a queue, the block runs as a task of the device once the post returns (Apple
    /// adds it to the queue); without one, inside the post.
    let queued: Bool
    let block: @Sendable (Notification) -> Void
    weak var runtime: DeviceRuntime?
    var isRemoved = false

    init(name: Notification.Name?, object: AnyObject?, queued: Bool,
        block: @escaping @Sendable (Notification) -> Void) {
        self.name = name
        self.object = object
        self.queued = queued
        self.block = block
        runtime = DeviceRuntime.current
    }

    func matches(_ notification: Notification) -> Bool {
        (name == nil || name == notification.name)
            && (object == nil || object === notification.object as AnyObject?)
    }
}

/// A notification handed to a task of the same device.
private struct Posted: @unchecked Sendable {
    // `@unchecked`: the task runs on the device's executor, as the post did.
    let notification: Notification
}

extension DeviceRuntime {
    /// Calls the device's observers of `notification`, in the order they were added.
    func deliver(_ notification: Notification) {
        for observer in observers where observer.matches(notification) {
            guard !observer.isRemoved else { continue }
            if observer.queued {
                let block = observer.block
                let queued = Posted(notification: notification)
                Task { block(queued.notification) }
            } else {
                observer.block(notification)
            }
        }
    }

    /// Posts `.CKAccountChanged` on this device, from a task of its own (Apple's container
    /// posts it on a queue of its own), after the sync engines heard of the change.
    func postAccountChanged() {
        // No observer, no task: a sweep's account changes cost the app nothing then.
        guard !observers.isEmpty else { return }
        _ = start { NotificationCenter.default.post(name: .CKAccountChanged, object: nil) }
    }
}
