// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "Lodestone",
    products: [
        .library(name: "Lodestone", targets: ["Lodestone"]),
        .library(name: "LodestoneCore", targets: ["LodestoneCore"]),
        .library(name: "LodestoneLogs", targets: ["LodestoneLogs"]),
        .library(name: "LodestoneSimulation", targets: ["LodestoneSimulation"]),
        .executable(name: "lodestone", targets: ["lodestone"]),
    ],
    targets: [
        // Pure: geometry, samples, attitude, heading, filters. No I/O.
        .target(name: "LodestoneCore"),
        // Pure: synthetic sensors with known truth, for tests, demos and benchmarks.
        .target(name: "LodestoneSimulation", dependencies: ["LodestoneCore"]),
        // Edge: reading and writing logs.
        .target(name: "LodestoneLogs", dependencies: ["LodestoneCore"]),
        // The Swift API: HeadingManager, in the manner of CLLocationManager.
        .target(name: "Lodestone", dependencies: ["LodestoneCore"]),
        .executableTarget(
            name: "lodestone",
            dependencies: ["LodestoneCore", "LodestoneLogs", "LodestoneSimulation"],
            path: "tools/lodestone"
        ),
        // Test-only helpers (reference-data lookup, fixtures); not a product.
        .target(name: "LodestoneTestSupport", path: "Tests/Support"),
        .testTarget(name: "LodestoneCoreTests", dependencies: ["LodestoneCore", "LodestoneSimulation", "LodestoneTestSupport"]),
        .testTarget(name: "LodestoneSimulationTests", dependencies: ["LodestoneSimulation"]),
        .testTarget(name: "LodestoneLogsTests", dependencies: ["LodestoneLogs", "LodestoneSimulation", "LodestoneTestSupport"]),
        .testTarget(name: "LodestoneTests", dependencies: ["Lodestone", "LodestoneLogs", "LodestoneSimulation"]),
        // Runs the built `lodestone` executable end to end.
        .testTarget(name: "LodestoneCLITests", dependencies: ["lodestone"]),
    ],
    swiftLanguageModes: [.v6]
)
