// swift-tools-version:6.0
// SyncLab: a deterministic multi-device simulator for CloudKit sync engines.
// Targets depend one way (README.md, "How it is built"): Kernel at the bottom, the CLI on top,
// Scenario apart (text to checked syntax tree, no simulation).
import PackageDescription

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
        .target(name: "Kernel"),
        // A map of a few keys as one sorted array of pairs: a model's values and a record's
        // fields; it depends on nothing.
        .target(name: "SortedMaps"),
        // Writes each engine's catalogue in Swift from its docs page, the only source
        // (`swift run catalogue-gen`, docs/ENGINE-CONTRACT.md); it depends on nothing.
        .target(name: "CatalogueGen"),
        .executableTarget(name: "catalogue-gen", dependencies: ["CatalogueGen"]),
        .target(name: "CloudSim", dependencies: ["Kernel", "SortedMaps"]),
        .target(name: "LocalStore", dependencies: ["Kernel", "SortedMaps"]),
        // The engine contract: events, effects, profile, observation; it knows no engine.
        .target(name: "SyncContract", dependencies: ["Kernel", "CloudSim", "LocalStore"]),
        // What engines share beyond the contract (docs/ENGINE-CONTRACT.md, "The toolkit").
        .target(name: "EngineKit", dependencies: ["Kernel", "CloudSim", "LocalStore", "SyncContract"]),
        // One target per engine, each depending on the contract (and the toolkit) only.
        .target(name: "SDS", dependencies: ["Kernel", "CloudSim", "LocalStore", "SyncContract"]),
        .target(name: "Naive", dependencies: ["Kernel", "CloudSim", "LocalStore", "SyncContract", "EngineKit"]),
        .target(name: "History", dependencies: ["Kernel", "CloudSim", "LocalStore", "SyncContract", "EngineKit"]),
        .target(name: "Mirror", dependencies: ["Kernel", "CloudSim", "LocalStore", "SyncContract", "EngineKit"]),
        // A simulated CKSyncEngine for engines written on it (docs/CKSYNCENGINE.md); no engine.
        .target(name: "CKSyncEngineSim", dependencies: ["Kernel", "CloudSim", "SyncContract"]),
        // The outbox engine on the simulated CKSyncEngine (docs/OUTBOX.md).
        .target(name: "Outbox", dependencies: ["Kernel", "CloudSim", "LocalStore", "SyncContract", "CKSyncEngineSim", "EngineKit"]),
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
        .target(name: "Engines", dependencies: ["SyncContract", "SDS", "Naive", "Outbox", "History", "Mirror"]),
        .target(name: "Device", dependencies: ["Kernel", "CloudSim", "LocalStore", "SyncContract"]),
        .target(name: "Scenario"),
        // The explorer's invariant checkers: they read a snapshot of a world and the save
        // ledger, never the world or a device.
        .target(
            name: "Checkers", dependencies: ["Kernel", "CloudSim", "LocalStore", "SyncContract"]
        ),
        .target(
            name: "Harness",
            dependencies: [
                "Kernel", "CloudSim", "LocalStore", "SyncContract", "Device", "Scenario",
                "Checkers",
            ]
        ),
        .target(name: "Reporting", dependencies: ["Kernel", "Harness", "Scenario"]),
        // The library: run a scenario on a registered engine, get a typed result.
        .target(
            name: "SyncLab",
            dependencies: ["Kernel", "SyncContract", "Engines", "Harness", "Reporting", "Scenario"]
        ),
        // The command line as a library: `SyncLabCLI.main(arguments, lab:)` runs it on the
        // engines of a lab, SyncLab's own or an app's (docs/BRING-YOUR-OWN-ENGINE.md).
        .target(
            name: "SyncLabCLI",
            dependencies: ["Kernel", "SyncContract", "Engines", "Harness", "Reporting", "Scenario",
                           "SyncLab"]
        ),
        .executableTarget(name: "synclab", dependencies: ["SyncLabCLI"]),
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
