/// One plain value per device, changed in place through a pointer: a list the world changes
/// or reads at every event (in-line passes, outstanding events, writes, the devices
/// unretained), where an `Array` property checked its buffer's uniqueness at each change.
///
/// A class held in a `let`: every copy of it is the same list.
final class DeviceValues<Element: BitwiseCopyable> {
    private var base: UnsafeMutablePointer<Element>
    private(set) var count = 0
    private var capacity: Int

    init() {
        capacity = 4
        base = .allocate(capacity: capacity)
    }

    deinit {
        base.deallocate()
    }

    func append(_ value: Element) {
        if count == capacity {
            let larger = UnsafeMutablePointer<Element>.allocate(capacity: capacity * 2)
            larger.initialize(from: base, count: count)
            base.deallocate()
            base = larger
            capacity *= 2
        }
        (base + count).initialize(to: value)
        count += 1
    }

    subscript(index: Int) -> Element {
        @inline(__always) get {
            precondition(index >= 0 && index < count, "no such device")
            return base[index]
        }
        @inline(__always) set {
            precondition(index >= 0 && index < count, "no such device")
            base[index] = newValue
        }
    }
}
