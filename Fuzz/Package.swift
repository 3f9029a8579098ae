// swift-tools-version:6.0
import PackageDescription

/// libFuzzer targets, one per parser. Built only by `tools/fuzz`, with
/// `-Xswiftc -sanitize=fuzzer,address` (see docs/fuzzing.md).
let package = Package(
    name: "LodestoneFuzz",
    dependencies: [.package(name: "Lodestone", path: "..")],
    targets: [
        .target(name: "CFuzzerDriver"),
        .target(name: "FuzzSupport", dependencies: ["CFuzzerDriver"]),
        .executableTarget(name: "fuzz-json", dependencies: ["FuzzSupport", .product(name: "LodestoneJSON", package: "Lodestone")]),
        .executableTarget(name: "fuzz-command", dependencies: ["FuzzSupport", .product(name: "LodestoneService", package: "Lodestone")]),
        .executableTarget(name: "fuzz-config", dependencies: ["FuzzSupport", .product(name: "LodestoneService", package: "Lodestone"), .product(name: "LodestoneJSON", package: "Lodestone")]),
        .executableTarget(name: "fuzz-log", dependencies: ["FuzzSupport", .product(name: "LodestoneLogs", package: "Lodestone")]),
        .executableTarget(name: "fuzz-profile", dependencies: ["FuzzSupport", .product(name: "LodestoneCalibration", package: "Lodestone")]),
        .executableTarget(name: "fuzz-gpsd", dependencies: ["FuzzSupport", .product(name: "LodestoneService", package: "Lodestone")]),
        .executableTarget(name: "fuzz-iio", dependencies: ["FuzzSupport", .product(name: "LodestoneIIO", package: "Lodestone")]),
        .executableTarget(name: "fuzz-nmea", dependencies: ["FuzzSupport", .product(name: "LodestoneLocation", package: "Lodestone")]),
        .executableTarget(name: "fuzz-gpx", dependencies: ["FuzzSupport", .product(name: "LodestoneLocation", package: "Lodestone")]),
        .executableTarget(name: "fuzz-regions", dependencies: ["FuzzSupport", .product(name: "LodestoneLocation", package: "Lodestone")]),
    ],
    swiftLanguageModes: [.v6]
)
