import Foundation

/// Apple's `notifications(named:object:)`, which swift-corelibs-foundation lacks: the
/// notifications of one name as an `AsyncSequence`, for `for await _ in center.notifications(
/// named: .CKAccountChanged) { … }`.
///
/// Made in a device's code on the default center, the sequence observes that launch of the
/// device (`DeviceNotificationCenter`): it keeps the device's matching notifications from
/// its creation on, in posting order, until they are read, and a waiting loop resumes as a
/// task of the device. When the launch ends the sequence ends too: a kill drops the loop
/// waiting in it with the process, and a later launch iterating it gets nil at once.
/// Elsewhere it is a plain observer of the center, removed when the sequence goes.
extension NotificationCenter {
    public func notifications(
        named name: Notification.Name, object: AnyObject? = nil
    ) -> Notifications {
        guard self === NotificationCenter.default, let runtime = DeviceRuntime.current else {
            return Notifications(center: self, name: name, object: object)
        }
        let inbox = NotificationInbox()
        let observer = DeviceObserver(name: name, object: object, queued: false) { posted in
            inbox.receive(posted)
        }
        runtime.observers.append(observer)
        return Notifications(device: observer, inbox: inbox)
    }

    /// The notifications of one name, in posting order (Apple's type of the same name).
    public final class Notifications: AsyncSequence, @unchecked Sendable {
        // `@unchecked`: a device's sequence is used on its device's thread only; the other
        // is an `AsyncStream`'s iterator behind a Foundation observer.
        public typealias Element = Notification
        public typealias Failure = Never

        private enum Source {
            case device(DeviceObserver, NotificationInbox)
            case center(NotificationCenter, any NSObjectProtocol, AsyncStream<Delivered>)
        }

        private let source: Source

        fileprivate init(device observer: DeviceObserver, inbox: NotificationInbox) {
            source = .device(observer, inbox)
        }

        fileprivate init(center: NotificationCenter, name: Notification.Name,
            object: AnyObject?) {
            let (stream, continuation) = AsyncStream<Delivered>.makeStream()
            let yielder = Yielder(continuation: continuation)
            let token = center.addObserver(forName: name, object: object as Any?, queue: nil) {
                yielder.continuation.yield(Delivered(notification: $0))
            }
            source = .center(center, token, stream)
        }

        deinit {
            switch source {
            case .device(let observer, let inbox):
                NotificationCenter.default.removeObserver(observer)
                inbox.close()
            case .center(let center, let token, _):
                center.removeObserver(token as Any)
            }
        }

        public func makeAsyncIterator() -> Iterator {
            switch source {
            case .device(let observer, let inbox):
                Iterator(sequence: self, inbox: inbox, runtime: observer.runtime)
            case .center(_, _, let stream):
                Iterator(sequence: self, stream: stream.makeAsyncIterator())
            }
        }

        public struct Iterator: AsyncIteratorProtocol, @unchecked Sendable {
            // `@unchecked`: as its sequence, which it keeps alive while it iterates.
            public typealias Element = Notification
            public typealias Failure = Never

            private let sequence: Notifications
            private let inbox: NotificationInbox?
            private weak var runtime: DeviceRuntime?
            private var stream: AsyncStream<Delivered>.Iterator?

            fileprivate init(sequence: Notifications, inbox: NotificationInbox,
                runtime: DeviceRuntime?) {
                self.sequence = sequence
                self.inbox = inbox
                self.runtime = runtime
            }

            fileprivate init(sequence: Notifications,
                stream: AsyncStream<Delivered>.Iterator) {
                self.sequence = sequence
                inbox = nil
                self.stream = stream
            }

            public mutating func next() async -> Notification? {
                guard let inbox else { return await stream?.next()?.notification }
                return await inbox.next(runtime: runtime)
            }

            public mutating func next(
                isolation actor: isolated (any Actor)?
            ) async -> Notification? {
                guard let inbox else { return await stream?.next(isolation: actor)?.notification }
                return await inbox.next(runtime: runtime)
            }
        }
    }
}

/// A notification on its way to the loop reading it, in the thread or task that posted it.
struct Delivered: @unchecked Sendable {
    // `@unchecked`: read by one loop, which reads it after the post handed it over.
    let notification: Notification
}

/// Foundation's observer block is `@Sendable`; the continuation it yields to is too.
private struct Yielder: @unchecked Sendable {
    // `@unchecked`: `Continuation` of a non-`Sendable` element, used by the observer only.
    let continuation: AsyncStream<Delivered>.Continuation
}

/// What a device's sequence holds between a post and the read: the notifications not read
/// yet, in posting order, and the loops waiting for the next one.
final class NotificationInbox: @unchecked Sendable {
    // `@unchecked`: posts and reads run on the device's executor, one job at a time.
    private var kept: [Notification] = []
    private var waiting: [(id: Int, continuation: UnsafeContinuation<Delivered?, Never>)] =
        []
    private var waitCount = 0
    private var isClosed = false

    /// Called inside the post, on the device: a waiting loop resumes as a task of it.
    func receive(_ notification: Notification) {
        guard !isClosed else { return }
        guard waiting.isEmpty else {
            let reader = waiting.removeFirst()
            return reader.continuation.resume(returning: Delivered(notification: notification))
        }
        kept.append(notification)
    }

    func close() {
        isClosed = true
    }

    /// The next notification kept, else waits for one; nil once the launch ended or the
    /// waiting task is cancelled.
    func next(runtime: DeviceRuntime?) async -> Notification? {
        if !kept.isEmpty { return kept.removeFirst() }
        guard !isClosed, let runtime, runtime.isRunning, !Task.isCancelled else { return nil }
        waitCount += 1
        let wait = Wait(inbox: self, id: waitCount)
        return await withTaskCancellationHandler {
            await withUnsafeContinuation {
                (continuation: UnsafeContinuation<Delivered?, Never>) in
                // The cancellation may come before the wait starts (the task hopped here).
                if wait.isCancelled {
                    continuation.resume(returning: nil)
                } else {
                    waiting.append((wait.id, continuation))
                }
            }?.notification
        } onCancel: {
            wait.cancel()
        }
    }

    /// Resumes one waiting loop with nil: its task was cancelled.
    fileprivate func cancelWait(_ id: Int) {
        guard let index = waiting.firstIndex(where: { $0.id == id }) else { return }
        waiting.remove(at: index).continuation.resume(returning: nil)
    }
}

/// One loop's wait, for its cancellation handler (run on the device's thread by the task
/// that cancels it).
private final class Wait: @unchecked Sendable {
    // `@unchecked`: used on the device's thread, one job at a time.
    let inbox: NotificationInbox
    let id: Int
    private(set) var isCancelled = false

    init(inbox: NotificationInbox, id: Int) {
        self.inbox = inbox
        self.id = id
    }

    func cancel() {
        isCancelled = true
        inbox.cancelWait(id)
    }
}
