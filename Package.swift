// swift-tools-version:6.0
// SyncLab: a deterministic multi-device simulator for CloudKit sync engines.
// Targets depend one way (README.md, "How it is built"): Kernel at the bottom, the CLI on top,
// Scenario apart (text to checked syntax tree, no simulation).
import PackageDescription

let package = Package(
    name: "SyncLab",
    products: [
        .executable(name: "synclab", targets: ["synclab"]),
    ],
    targets: [
        .target(name: "Kernel"),
        .target(name: "CloudSim", dependencies: ["Kernel"]),
        .target(name: "LocalStore", dependencies: ["Kernel"]),
        .target(name: "Engines", dependencies: ["Kernel", "CloudSim", "LocalStore"]),
        .target(name: "Device", dependencies: ["Kernel", "CloudSim", "LocalStore", "Engines"]),
        .target(name: "Scenario"),
        .target(
            name: "Harness",
            dependencies: ["Kernel", "CloudSim", "LocalStore", "Engines", "Device", "Scenario"]
        ),
        .target(name: "Reporting", dependencies: ["Kernel", "Harness", "Scenario"]),
        .executableTarget(
            name: "synclab",
            dependencies: ["Kernel", "Harness", "Reporting", "Scenario"]
        ),
        .target(name: "TestSupport", path: "Tests/TestSupport"),
        .testTarget(name: "KernelTests", dependencies: ["Kernel", "TestSupport"]),
        .testTarget(name: "CloudSimTests", dependencies: ["CloudSim", "TestSupport"]),
        .testTarget(name: "LocalStoreTests", dependencies: ["LocalStore", "TestSupport"]),
        .testTarget(name: "EnginesTests", dependencies: ["Engines", "TestSupport"]),
        .testTarget(name: "DeviceTests", dependencies: ["Device", "TestSupport"]),
        .testTarget(name: "ScenarioTests", dependencies: ["Scenario", "TestSupport"]),
        .testTarget(name: "HarnessTests", dependencies: ["Harness", "TestSupport"]),
        .testTarget(name: "ReportingTests", dependencies: ["Reporting", "TestSupport"]),
        .testTarget(
            name: "SynclabTests",
            dependencies: ["synclab", "Engines", "Harness", "Scenario", "TestSupport"]
        ),
    ]
)
