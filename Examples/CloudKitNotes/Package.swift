// swift-tools-version:6.0
// A notes app's own sync engine, written on Apple's CloudKit as for Apple platforms, and its
// tests on SyncLab's driver (docs/BRING-YOUR-OWN-ENGINE.md).
import PackageDescription

let package = Package(
    name: "CloudKitNotes",
    dependencies: [
        .package(name: "SyncLab", path: "../.."),
    ],
    targets: [
        .target(name: "CloudKitNotes", dependencies: [
            .product(name: "SyncLabCloudKit", package: "SyncLab"),
        ]),
        .testTarget(name: "CloudKitNotesTests", dependencies: [
            "CloudKitNotes",
            .product(name: "SyncLabCloudKit", package: "SyncLab"),
            .product(name: "SyncLab", package: "SyncLab"),
        ]),
    ]
)
