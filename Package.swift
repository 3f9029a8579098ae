// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "Lodestone",
    products: [
        .library(name: "LodestoneCore", targets: ["LodestoneCore"]),
        .executable(name: "lodestone", targets: ["lodestone"]),
    ],
    targets: [
        // Pure: geometry, samples, attitude, heading, filters. No I/O.
        .target(name: "LodestoneCore"),
        // Pure: geodesics on WGS84 and the turn advisor (bearing, distance, turn, arrival).
        .target(name: "LodestoneSteering", dependencies: ["LodestoneCore"]),
        .executableTarget(
            name: "lodestone",
            dependencies: ["LodestoneCore"],
            path: "tools/lodestone"
        ),
        // Test-only helpers (reference-data lookup, fixtures); not a product.
        .target(name: "LodestoneTestSupport", path: "Tests/Support"),
        .testTarget(name: "LodestoneCoreTests", dependencies: ["LodestoneCore", "LodestoneTestSupport"]),
        .testTarget(name: "LodestoneSteeringTests", dependencies: ["LodestoneSteering", "LodestoneTestSupport"]),
    ],
    swiftLanguageModes: [.v6]
)
