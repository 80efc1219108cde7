import Device
import Kernel

/// The network between the devices and the cloud: latencies and their random streams, push
/// delivery, and which devices are online.
struct NetworkState {
    /// One-way latency of a device without its own.
    var cloudLatency: Latency {
        didSet { noteLatencies() }
    }
    var pushLatency: Latency
    /// The chance that `push drop` loses a push, in parts per million.
    var pushDropPerMillion: UInt64
    /// Each device's `isOnline`, as `World.setOnline` (the `offline` and `online` actions)
    /// left it: read for every request, answer and push, instead of the device's own property
    /// (the compiler checks the exclusivity of another module's class property on each read).
    var online: [Bool] = []
    /// Each device's own one-way latency, if any, as declared (`drawLatency`).
    private(set) var ownLatencies: [Latency?] = []
    /// Whether a push is on its way to each device (later ones are coalesced into it).
    var pushScheduled: [Bool] = []
    /// Whether each device missed a push while offline (it gets one when back online).
    var pushMissed: [Bool] = []
    private var latencyStreams: [Xoshiro256StarStar] = []
    /// Per device, whether every latency drawn from `latency(of:)` is above zero, kept with
    /// the latencies (the world asks before every event that may pass probe points in line).
    private(set) var latencyStaysAboveZero: [Bool] = []
    private var pushStreams: [Xoshiro256StarStar] = []

    init(cloudLatency: Latency, pushLatency: Latency, pushDropPerMillion: UInt64) {
        self.cloudLatency = cloudLatency
        self.pushLatency = pushLatency
        self.pushDropPerMillion = pushDropPerMillion
    }

    /// Adds the next device: its own latency, whether it is online, and its two streams.
    mutating func addDevice(
        latency: Latency?, online isOnline: Bool, latencyStream: Xoshiro256StarStar,
        pushStream: Xoshiro256StarStar
    ) {
        ownLatencies.append(latency)
        latencyStaysAboveZero.append(Self.staysAboveZero(latency ?? cloudLatency))
        online.append(isOnline)
        latencyStreams.append(latencyStream)
        pushStreams.append(pushStream)
        pushScheduled.append(false)
        pushMissed.append(false)
    }

    /// The one-way latency of a device: its own, else the cloud's.
    private mutating func noteLatencies() {
        for index in ownLatencies.indices {
            latencyStaysAboveZero[index] = Self.staysAboveZero(latency(of: index))
        }
    }

    /// Whether every latency drawn from `latency` is above zero.
    private static func staysAboveZero(_ latency: Latency) -> Bool {
        switch latency {
        case .fixed(let value): return value > .zero
        case .range(let low, let high): return min(low, high) > .zero
        }
    }

    func latency(of index: Int) -> Latency {
        ownLatencies[index] ?? cloudLatency
    }

    /// One way across the network for a device, drawn from its stream.
    mutating func drawLatency(for index: Int) -> SimTime {
        let latency = ownLatencies[index] ?? cloudLatency
        return latency.draw(&latencyStreams[index])
    }

    /// How long a push takes to reach the device, drawn from its push stream.
    mutating func drawPushLatency(for index: Int) -> SimTime {
        pushLatency.draw(&pushStreams[index])
    }

    /// Whether `push drop` loses a push to the device, drawn from its push stream.
    mutating func dropsPush(to index: Int) -> Bool {
        pushDropPerMillion > 0 && pushStreams[index].chance(pushDropPerMillion, in: 1_000_000)
    }
}
