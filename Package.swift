// swift-tools-version:6.2
// SyncLab: a deterministic multi-device simulator for CloudKit sync engines.
// Targets depend one way (README.md, "How it is built"): Kernel at the bottom, the CLI on top,
// Scenario apart (text to checked syntax tree, no simulation).
import PackageDescription

// Release builds of what runs a simulation make generic metadata through direct accessors, not
// mangled-name lookups that scan every conformance record of the program on first use
// (docs/BENCH.md). SwiftPM accepts such flags in a dependency from tools version 6.2.
let simulationSpeed: [SwiftSetting] = [
    .unsafeFlags(["-Xfrontend", "-disable-concrete-type-metadata-mangled-name-accessors"],
                 .when(configuration: .release)),
]

let package = Package(
    name: "SyncLab",
    products: [
        .executable(name: "synclab", targets: ["synclab"]),
        // Run scenarios from your own tests (README, "From your own tests").
        .library(name: "SyncLab", targets: ["SyncLab"]),
        // `synclab`'s command line on your own engines: an executable of one call,
        // `SyncLabCLI.main(arguments, lab:)` (README, "Your CloudKit code, unchanged").
        .library(name: "SyncLabCLI", targets: ["SyncLabCLI"]),
        // For engine authors: the contract and the simulated parts it speaks in.
        .library(
            name: "SyncContract",
            targets: ["SyncContract", "CloudSim", "LocalStore", "SortedMaps", "Kernel"]
        ),
        // Apple's CloudKit API over the simulated cloud and CKSyncEngine, importable as
        // `CloudKit` (with `os.log` and `OSLog`, the part of Combine sync code uses, SwiftUI's
        // import and Network's path monitor), and the test driver that holds the devices (docs/BRING-YOUR-OWN-ENGINE.md).
        .library(name: "SyncLabCloudKit", targets: ["CloudKit", "os", "OSLog", "Combine", "SwiftUI", "Network", "SyncLabTesting"]),
    ],
    targets: [
        .target(name: "Kernel", swiftSettings: simulationSpeed),
        // A map of a few keys as one sorted array of pairs: a model's values and a record's
        // fields; it depends on nothing.
        .target(name: "SortedMaps", swiftSettings: simulationSpeed),
        // Writes each engine's catalogue in Swift from its docs page, the only source
        // (`swift run catalogue-gen`, docs/ENGINE-CONTRACT.md); it depends on nothing.
        .target(name: "CatalogueGen"),
        .executableTarget(name: "catalogue-gen", dependencies: ["CatalogueGen"]),
        .target(name: "CloudSim", dependencies: ["Kernel", "SortedMaps"],
                swiftSettings: simulationSpeed),
        .target(name: "LocalStore", dependencies: ["Kernel", "SortedMaps"],
                swiftSettings: simulationSpeed),
        // The engine contract: events, effects, profile, observation; it knows no engine.
        .target(name: "SyncContract", dependencies: ["Kernel", "CloudSim", "LocalStore"],
                swiftSettings: simulationSpeed),
        // What engines share beyond the contract (docs/ENGINE-CONTRACT.md, "The toolkit").
        .target(name: "EngineKit", dependencies: ["Kernel", "CloudSim", "LocalStore", "SyncContract"],
                swiftSettings: simulationSpeed),
        // One target per engine, each depending on the contract (and the toolkit) only.
        .target(name: "SDS", dependencies: ["Kernel", "CloudSim", "LocalStore", "SyncContract"],
                swiftSettings: simulationSpeed),
        .target(name: "Naive", dependencies: ["Kernel", "CloudSim", "LocalStore", "SyncContract", "EngineKit"],
                swiftSettings: simulationSpeed),
        .target(name: "History", dependencies: ["Kernel", "CloudSim", "LocalStore", "SyncContract", "EngineKit"],
                swiftSettings: simulationSpeed),
        .target(name: "Mirror", dependencies: ["Kernel", "CloudSim", "LocalStore", "SyncContract", "EngineKit"],
                swiftSettings: simulationSpeed),
        // A simulated CKSyncEngine for engines written on it (docs/CKSYNCENGINE.md); no engine.
        .target(name: "CKSyncEngineSim", dependencies: ["Kernel", "CloudSim", "SyncContract"],
                swiftSettings: simulationSpeed),
        // The outbox engine on the simulated CKSyncEngine (docs/OUTBOX.md).
        .target(name: "Outbox", dependencies: ["Kernel", "CloudSim", "LocalStore", "SyncContract", "CKSyncEngineSim", "EngineKit"],
                swiftSettings: simulationSpeed),
        // `import os.log` on Linux: a Clang module `os` with the submodule `log`, and its Swift
        // overlay (`os`) that holds Logger.
        .systemLibrary(name: "OSLogModuleMap", path: "Sources/OSLogModuleMap"),
        .target(name: "os", dependencies: ["OSLogModuleMap"]),
        // `import OSLog`: the `os` overlay under the name Apple's newer samples import.
        .target(name: "OSLog", dependencies: ["os"]),
        .target(name: "Combine"),
        .target(name: "SwiftUI", dependencies: ["Combine"]),
        // `import Network`: NWPathMonitor, told when its device goes online or offline.
        .target(name: "Network"),
        // The Swift runtime's executor hooks by name, found in a static runtime too.
        .target(name: "ConcurrencyHookShim"),
        .target(
            name: "CloudKit",
            dependencies: ["Kernel", "CloudSim", "LocalStore", "SortedMaps", "SyncContract", "CKSyncEngineSim", "Combine",
                           "Network", "ConcurrencyHookShim"]
        ),
        .target(
            name: "SyncLabTesting",
            dependencies: ["CloudKit", "Kernel", "CloudSim", "LocalStore", "SortedMaps", "SyncContract", "Harness", "Scenario"]
        ),
        // The registry: the one place that lists the engines.
        .target(name: "Engines", dependencies: ["SyncContract", "SDS", "Naive", "Outbox", "History", "Mirror"],
                swiftSettings: simulationSpeed),
        .target(name: "Device", dependencies: ["Kernel", "CloudSim", "LocalStore", "SyncContract"],
                swiftSettings: simulationSpeed),
        .target(name: "Scenario", swiftSettings: simulationSpeed),
        // The explorer's invariant checkers: they read a snapshot of a world and the save
        // ledger, never the world or a device.
        .target(
            name: "Checkers", dependencies: ["Kernel", "CloudSim", "LocalStore", "SyncContract"],
            swiftSettings: simulationSpeed
        ),
        .target(
            name: "Harness",
            dependencies: [
                "Kernel", "CloudSim", "LocalStore", "SyncContract", "Device", "Scenario",
                "Checkers",
            ],
            swiftSettings: simulationSpeed
        ),
        .target(name: "Reporting", dependencies: ["Kernel", "Harness", "Scenario"],
                swiftSettings: simulationSpeed),
        // The library: run a scenario on a registered engine, get a typed result.
        .target(
            name: "SyncLab",
            dependencies: ["Kernel", "SyncContract", "Engines", "Harness", "Reporting", "Scenario"],
            swiftSettings: simulationSpeed
        ),
        // The command line as a library: `SyncLabCLI.main(arguments, lab:)` runs it on the
        // engines of a lab, SyncLab's own or an app's (docs/BRING-YOUR-OWN-ENGINE.md).
        .target(
            name: "SyncLabCLI",
            dependencies: ["Kernel", "SyncContract", "Engines", "Harness", "Reporting", "Scenario",
                           "SyncLab"],
            swiftSettings: simulationSpeed
        ),
        // Linked at a fixed address, so the loader relocates far less at each start.
        .executableTarget(
            name: "synclab", dependencies: ["SyncLabCLI"],
            linkerSettings: [.unsafeFlags(["-Xclang-linker", "-no-pie"], .when(configuration: .release))]
        ),
        // The engine rig (EngineRig.swift) drives any engine of the contract over a real cloud.
        .target(
            name: "TestSupport", dependencies: ["Kernel", "CloudSim", "LocalStore", "SyncContract"],
            path: "Tests/TestSupport"
        ),
        .testTarget(name: "KernelTests", dependencies: ["Kernel", "TestSupport"]),
        .testTarget(name: "SortedMapsTests", dependencies: ["SortedMaps"]),
        .testTarget(name: "CatalogueGenTests", dependencies: ["CatalogueGen", "TestSupport"]),
        .testTarget(name: "CloudSimTests", dependencies: ["CloudSim", "TestSupport"]),
        .testTarget(name: "LocalStoreTests", dependencies: ["LocalStore", "TestSupport"]),
        .testTarget(name: "SyncContractTests", dependencies: ["SyncContract", "TestSupport"]),
        .testTarget(name: "EngineKitTests", dependencies: ["EngineKit", "SyncContract", "CloudSim", "LocalStore"]),
        .testTarget(name: "SDSTests", dependencies: ["SDS", "SyncContract", "TestSupport"]),
        .testTarget(
            name: "NaiveTests",
            dependencies: ["Naive", "SyncContract", "CloudSim", "LocalStore", "Kernel", "TestSupport"]
        ),
        .testTarget(
            name: "HistoryTests",
            dependencies: ["History", "SyncContract", "CloudSim", "LocalStore", "Kernel", "TestSupport"]
        ),
        .testTarget(
            name: "MirrorTests",
            dependencies: ["Mirror", "SyncContract", "CloudSim", "LocalStore", "Kernel", "TestSupport"]
        ),
        .testTarget(
            name: "CKSyncEngineSimTests",
            dependencies: ["CKSyncEngineSim", "SyncContract", "CloudSim", "Kernel", "TestSupport"]
        ),
        .testTarget(
            name: "OutboxTests",
            dependencies: ["Outbox", "SyncContract", "synclab", "TestSupport"]
        ),
        .testTarget(name: "DeviceTests", dependencies: ["Device", "SDS", "SyncContract", "TestSupport"]),
        .testTarget(name: "ScenarioTests", dependencies: ["Scenario", "TestSupport"]),
        .testTarget(
            name: "HarnessTests",
            dependencies: ["Harness", "Checkers", "Engines", "SDS", "SyncContract", "TestSupport"]
        ),
        .testTarget(name: "ReportingTests", dependencies: ["Reporting", "Engines", "SyncContract", "TestSupport"]),
        // The example of docs/BRING-YOUR-OWN-ENGINE.md, also built here so this package's tests
        // run it (its own package, Examples/CloudKitNotes, tests it as a user would).
        .target(
            name: "CloudKitNotes", dependencies: ["CloudKit", "os", "Combine"],
            path: "Examples/CloudKitNotes/Sources/CloudKitNotes"
        ),
        // Prints the trace of a story of the CloudKit example (the cross-process check).
        .executableTarget(
            name: "cloudkit-notes-trace", dependencies: ["SyncLabTesting", "CloudKitNotes"],
            path: "Tests/CloudKitNotesTrace"
        ),
        .testTarget(
            name: "SyncLabCloudKitTests",
            dependencies: [
                "SyncLabTesting", "SyncLab", "CloudKit", "CloudKitNotes", "cloudkit-notes-trace",
                "TestSupport", "OSLog",
            ]
        ),
        .testTarget(
            name: "SynclabTests",
            dependencies: [
                "synclab", "SyncLabCLI", "SyncLab", "SDS", "SyncContract", "Engines", "Harness", "Scenario",
                "Reporting", "CloudSim", "LocalStore", "SortedMaps", "Kernel", "TestSupport",
            ]
        ),
    ]
)
