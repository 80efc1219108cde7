// swift-tools-version:6.0
// A third-party sync engine written on CKSyncEngine, tested under SyncLab from its own
// `swift test` (docs/BRING-YOUR-OWN-ENGINE.md in the SyncLab repository).
import PackageDescription

let package = Package(
    name: "NotesSyncEngine",
    dependencies: [
        .package(name: "SyncLab", path: "../.."),
    ],
    targets: [
        .target(name: "NotesSyncEngine", dependencies: [
            .product(name: "SyncLabEngineKit", package: "SyncLab"),
        ]),
        .testTarget(name: "NotesSyncEngineTests", dependencies: [
            "NotesSyncEngine",
            .product(name: "SyncLab", package: "SyncLab"),
            .product(name: "SyncLabEngineKit", package: "SyncLab"),
        ]),
    ]
)
