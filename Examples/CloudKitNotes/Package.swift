// swift-tools-version:6.0
// A notes app's own sync engine, written on Apple's CloudKit as for Apple platforms, and its
// tests on SyncLab's driver (docs/BRING-YOUR-OWN-ENGINE.md).
import PackageDescription

let package = Package(
    name: "CloudKitNotes",
    products: [
        // `synclab`'s command line on the app: `swift run -c release notes-lab explore --swarm
        // Scenarios/notes-base.scenario --engine notes --seeds 1000 --jobs 2`.
        .executable(name: "notes-lab", targets: ["notes-lab"]),
    ],
    dependencies: [
        .package(name: "SyncLab", path: "../.."),
    ],
    targets: [
        .target(name: "CloudKitNotes", dependencies: [
            .product(name: "SyncLabCloudKit", package: "SyncLab"),
        ]),
        // How scenario files and the explorer drive the app (`ScenarioApp`), and its lab.
        .target(name: "NotesLab", dependencies: [
            "CloudKitNotes",
            .product(name: "SyncLabCloudKit", package: "SyncLab"),
            .product(name: "SyncLab", package: "SyncLab"),
        ]),
        .executableTarget(name: "notes-lab", dependencies: [
            "NotesLab",
            .product(name: "SyncLabCLI", package: "SyncLab"),
        ]),
        .testTarget(name: "CloudKitNotesTests", dependencies: [
            "CloudKitNotes",
            "NotesLab",
            .product(name: "SyncLabCloudKit", package: "SyncLab"),
            .product(name: "SyncLab", package: "SyncLab"),
            .product(name: "SyncLabCLI", package: "SyncLab"),
        ]),
    ]
)
