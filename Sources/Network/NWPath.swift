/// Network's `NWPath`: whether the device can reach the network now. A simulated device is
/// online (one Wi-Fi interface, `en0`) or offline (none), as its scenario's `online` and
/// `offline` actions set it; no path is expensive or constrained.
public struct NWPath: Equatable, Sendable, CustomDebugStringConvertible {
    public enum Status: Equatable, Sendable {
        case satisfied
        case unsatisfied
        case requiresConnection
    }

    public enum UnsatisfiedReason: Equatable, Sendable {
        case notAvailable
        case cellularDenied
        case wifiDenied
        case localNetworkDenied
        case vpnInactive
    }

    public let status: Status
    public let availableInterfaces: [NWInterface]

    /// The path of a device that is online or not.
    package init(online: Bool) {
        status = online ? .satisfied : .unsatisfied
        availableInterfaces = online ? [NWInterface(name: "en0", type: .wifi, index: 1)] : []
    }

    public var unsatisfiedReason: UnsatisfiedReason { .notAvailable }
    public var isExpensive: Bool { false }
    public var isConstrained: Bool { false }
    public var supportsIPv4: Bool { status == .satisfied }
    public var supportsIPv6: Bool { status == .satisfied }
    public var supportsDNS: Bool { status == .satisfied }

    public func usesInterfaceType(_ type: NWInterface.InterfaceType) -> Bool {
        availableInterfaces.contains { $0.type == type }
    }

    public var debugDescription: String {
        status == .satisfied ? "satisfied (Interface: en0)" : "unsatisfied (No network route)"
    }
}

/// Network's `NWInterface`.
public struct NWInterface: Hashable, Sendable, CustomDebugStringConvertible {
    public enum InterfaceType: Hashable, Sendable {
        case other
        case wifi
        case cellular
        case wiredEthernet
        case loopback
    }

    public let name: String
    public let type: InterfaceType
    public let index: Int

    public var debugDescription: String { name }
}
