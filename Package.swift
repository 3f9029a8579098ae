// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "Lodestone",
    products: [
        .library(name: "LodestoneCore", targets: ["LodestoneCore"]),
        .library(name: "LodestoneIIO", targets: ["LodestoneIIO"]),
        .executable(name: "lodestone", targets: ["lodestone"]),
    ],
    targets: [
        // Pure: geometry, samples, attitude, heading, filters. No I/O.
        .target(name: "LodestoneCore"),
        .executableTarget(
            name: "lodestone",
            dependencies: ["LodestoneCore"],
            path: "tools/lodestone"
        ),
        // libiio 0.24 (Debian libiio-dev) through pkg-config.
        .systemLibrary(
            name: "CLibIIO",
            pkgConfig: "libiio",
            providers: [.apt(["libiio-dev"])]
        ),
        // Edge: IIO sensors through libiio (discovery, scaling, mount matrices, capture).
        .target(name: "LodestoneIIO", dependencies: ["LodestoneCore", "CLibIIO"]),
        // Edge: fake sysfs trees of real boards, fed from a known attitude (tests, demo).
        .target(name: "LodestoneSimulatedBoard", dependencies: ["LodestoneCore", "LodestoneIIO"]),
        // Test-only: opens an IIOSensorSource and prints samples as JSON lines.
        .executableTarget(
            name: "iio-probe",
            dependencies: ["LodestoneIIO", "LodestoneCore"],
            path: "Tests/IIOProbe"
        ),
        // Test-only helpers (reference-data lookup, fixtures); not a product.
        .target(name: "LodestoneTestSupport", path: "Tests/Support"),
        .testTarget(name: "LodestoneCoreTests", dependencies: ["LodestoneCore", "LodestoneTestSupport"]),
        .testTarget(
            name: "LodestoneIIOTests",
            dependencies: ["LodestoneIIO", "LodestoneSimulatedBoard", "LodestoneCore", "LodestoneTestSupport", "iio-probe"]
        ),
    ],
    swiftLanguageModes: [.v6]
)
