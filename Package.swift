// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "Lodestone",
    products: [
        .library(name: "Lodestone", targets: ["Lodestone"]),
        .library(name: "LodestoneCore", targets: ["LodestoneCore"]),
        .library(name: "LodestoneJSON", targets: ["LodestoneJSON"]),
        .library(name: "LodestoneLogs", targets: ["LodestoneLogs"]),
        .library(name: "LodestoneSimulation", targets: ["LodestoneSimulation"]),
        .library(name: "LodestoneIIO", targets: ["LodestoneIIO"]),
        .library(name: "LodestoneGeomagnetism", targets: ["LodestoneGeomagnetism"]),
        .library(name: "LodestoneCalibration", targets: ["LodestoneCalibration"]),
        .library(name: "LodestoneCalibrationStore", targets: ["LodestoneCalibrationStore"]),
        .library(name: "LodestoneSteering", targets: ["LodestoneSteering"]),
        .library(name: "LodestoneLocation", targets: ["LodestoneLocation"]),
        .library(name: "LodestoneService", targets: ["LodestoneService"]),
        .library(name: "LodestoneDBus", targets: ["LodestoneDBus"]),
        .library(name: "LodestoneHTTP", targets: ["LodestoneHTTP"]),
        .executable(name: "lodestone", targets: ["lodestone"]),
        .executable(name: "lodestone-serve", targets: ["lodestone-serve"]),
    ],
    targets: [
        // Pure: geometry, samples, attitude, heading, filters. No I/O.
        .target(name: "LodestoneCore"),
        // Pure: synthetic sensors with known truth, for tests, demos and benchmarks.
        .target(name: "LodestoneSimulation", dependencies: ["LodestoneCore"]),
        // Pure: the small command-line parser of `lodestone` and `lodestone-serve`.
        .target(name: "LodestoneCommandLine"),
        // Pure: the one JSON reader (strict parser) and writer of the package; no Foundation.
        .target(name: "LodestoneJSON", dependencies: ["LodestoneCore"]),
        // Edge: sockets, endpoints, line framing and the plumbing of poll loops (wake pipe, thread,
        // clocks) for the service, its listeners and the gpsd client; no Foundation.
        .target(name: "LodestoneNetwork"),
        // Edge: positions for true heading and speed aiding: the fix type, gpsd (reconnecting), a fixed source.
        .target(name: "LodestonePosition", dependencies: ["LodestoneCore", "LodestoneJSON", "LodestoneNetwork", "LodestoneLocation"]),
        // Edge: reading and writing logs.
        .target(name: "LodestoneLogs", dependencies: ["LodestoneCore", "LodestoneJSON", "LodestoneSteering"]),
        // The heading session: the pipeline assembled once (calibration profiles, hard-iron
        // tracking, true north, speed aiding, events), the source runner, the sources and the
        // one typed configuration with its flag and JSON parsers. No Foundation.
        .target(
            name: "LodestoneSession",
            dependencies: ["LodestoneCore", "LodestoneJSON", "LodestoneCommandLine", "LodestoneLogs", "LodestoneSimulation",
                           "LodestoneIIO", "LodestoneGeomagnetism", "LodestoneCalibration", "LodestoneCalibrationStore",
                           "LodestoneNetwork", "LodestonePosition", "LodestoneLocation"]
        ),
        // The Swift API: HeadingManager, in the manner of CLLocationManager.
        .target(name: "Lodestone", dependencies: ["LodestoneCore", "LodestoneSession", "LodestoneSteering", "LodestoneIIO",
                                                  "LodestonePosition", "LodestoneLocation", "LodestoneCalibrationStore"]),
        // Pure: bundled World Magnetic Model (WMM2025, WMMHR2025) evaluation. No I/O.
        .target(name: "LodestoneGeomagnetism", dependencies: ["LodestoneCore"], exclude: ["README.md"]),
        // Pure: magnetometer/accelerometer calibration fits, coverage, profile format, SVG report.
        .target(name: "LodestoneCalibration", dependencies: ["LodestoneCore", "LodestoneJSON"]),
        // Edge: calibration profile files (atomic writes, reading with checks, per-device names),
        // and the choice of profiles for a source's devices (`SourceDevices`; the session
        // makes them from IIO sensors or a log's header).
        .target(name: "LodestoneCalibrationStore", dependencies: ["LodestoneCalibration", "LodestoneJSON"]),
        // Pure: geodesics on WGS84 and the turn advisor (bearing, distance, turn, arrival).
        .target(name: "LodestoneSteering", dependencies: ["LodestoneCore"]),
        // Pure: the location half of Core Location: fixes and their filter, region monitoring,
        // route recording, GPX and NMEA reading, offline place names (bundled GeoNames table).
        .target(name: "LodestoneLocation", dependencies: ["LodestoneCore", "LodestoneSteering", "LodestoneJSON"],
                exclude: ["Geocoding/Generated/NOTICE.md"]),
        .executableTarget(
            name: "lodestone",
            dependencies: ["LodestoneCore", "LodestoneLogs", "LodestoneSimulation", "LodestoneGeomagnetism",
                           "LodestoneCalibration", "LodestoneCalibrationStore", "LodestoneIIO", "LodestoneSimulatedBoard",
                           "LodestoneSteering", "LodestoneService", "LodestoneCommandLine", "LodestoneSession", "LodestoneHTTP",
                           "LodestoneLocation", "LodestonePosition", "LodestoneNetwork"],
            path: "tools/lodestone"
        ),
        // libiio 0.24 (Debian libiio-dev) through pkg-config.
        .systemLibrary(
            name: "CLibIIO",
            pkgConfig: "libiio",
            providers: [.apt(["libiio-dev"])]
        ),
        // libsystemd's sd-bus (Debian libsystemd-dev) through pkg-config.
        .systemLibrary(
            name: "CSystemd",
            pkgConfig: "libsystemd",
            providers: [.apt(["libsystemd-dev"])]
        ),
        // Edge: the desktop's compass on D-Bus (iio-sensor-proxy's net.hadess.SensorProxy.Compass) through sd-bus.
        .target(name: "LodestoneDBus", dependencies: ["LodestoneCore", "LodestoneNetwork", "CSystemd"]),
        // Edge: the live web view: one self-contained page and its Server-Sent Events stream over HTTP/1.1; no Foundation.
        .target(name: "LodestoneHTTP", dependencies: ["LodestoneCore", "LodestoneJSON", "LodestoneNetwork"]),
        // Edge: IIO sensors through libiio (discovery, scaling, mount matrices, capture).
        .target(name: "LodestoneIIO", dependencies: ["LodestoneCore", "CLibIIO"]),
        // Edge: the heading daemon (`lodestone serve`): client protocol over sockets, gpsd
        // client, NMEA 0183 output, on-demand sensor use, systemd integration.
        .target(
            name: "LodestoneService",
            dependencies: ["LodestoneCore", "LodestoneJSON", "LodestoneLogs", "LodestoneSimulation", "LodestoneGeomagnetism",
                           "LodestoneIIO", "LodestoneSteering", "LodestoneCalibration", "LodestoneCalibrationStore", "LodestoneCommandLine",
                           "LodestoneNetwork", "LodestonePosition", "LodestoneSession", "LodestoneLocation", "LodestoneDBus",
                           "LodestoneHTTP"]
        ),
        // The daemon alone, without the CLI's Foundation: `lodestone serve` execs it.
        .executableTarget(name: "lodestone-serve", dependencies: ["LodestoneService", "LodestoneCommandLine"], path: "tools/lodestone-serve"),
        // Edge: fake sysfs trees of real boards, fed from a known attitude (tests, demo).
        .target(name: "LodestoneSimulatedBoard", dependencies: ["LodestoneCore", "LodestoneIIO"]),
        // Test-only helpers (reference-data lookup, fixtures); not a product.
        .target(name: "LodestoneTestSupport", dependencies: ["LodestoneCore"], path: "Tests/Support"),
        .testTarget(name: "LodestoneJSONTests", dependencies: ["LodestoneJSON"]),
        .testTarget(name: "LodestoneCommandLineTests", dependencies: ["LodestoneCommandLine"]),
        .testTarget(name: "LodestoneNetworkTests", dependencies: ["LodestoneNetwork"]),
        .testTarget(name: "LodestonePositionTests", dependencies: ["LodestonePosition", "LodestoneCore", "LodestoneLocation"]),
        .testTarget(
            name: "LodestoneSessionTests",
            dependencies: ["LodestoneSession", "LodestoneCore", "LodestoneCalibration", "LodestoneCalibrationStore", "LodestoneCommandLine",
                           "LodestoneGeomagnetism", "LodestoneIIO", "LodestoneJSON", "LodestoneLogs", "LodestoneNetwork",
                           "LodestonePosition", "LodestoneLocation", "LodestoneSimulation", "LodestoneSteering", "LodestoneTestSupport"]
        ),
        .testTarget(name: "LodestoneCoreTests", dependencies: ["LodestoneCore", "LodestoneSimulation", "LodestoneTestSupport"]),
        .testTarget(name: "LodestoneSimulationTests", dependencies: ["LodestoneSimulation"]),
        .testTarget(name: "LodestoneLogsTests", dependencies: ["LodestoneLogs", "LodestoneSimulation", "LodestoneTestSupport"]),
        // The Swift API, and the example package under Examples/ built and run as a user would.
        .testTarget(name: "LodestoneTests", dependencies: ["Lodestone", "LodestoneLogs", "LodestoneSimulation", "LodestoneGeomagnetism",
                                                           "LodestoneTestSupport"]),
        // Runs the built `lodestone` executable end to end.
        .testTarget(
            name: "LodestoneCLITests",
            dependencies: ["lodestone", "lodestone-serve", "LodestoneCore", "LodestoneSimulation", "LodestoneSimulatedBoard", "LodestoneTestSupport"]
        ),
        .testTarget(
            name: "LodestoneIIOTests",
            dependencies: ["LodestoneIIO", "LodestoneSimulatedBoard", "LodestoneCore", "LodestoneLogs", "LodestoneTestSupport", "LodestoneGeomagnetism",
                           "lodestone"]
        ),
        .testTarget(
            name: "LodestoneGeomagnetismTests",
            dependencies: ["LodestoneGeomagnetism", "LodestoneTestSupport"],
            exclude: ["Fixtures"]
        ),
        .testTarget(
            name: "LodestoneCalibrationTests",
            dependencies: ["LodestoneCalibration", "LodestoneCore", "LodestoneSimulation", "LodestoneTestSupport"]
        ),
        .testTarget(name: "LodestoneCalibrationStoreTests", dependencies: ["LodestoneCalibrationStore", "LodestoneCalibration", "LodestoneCore", "LodestoneTestSupport"]),
        .testTarget(name: "LodestoneSteeringTests", dependencies: ["LodestoneSteering", "LodestoneSimulation", "LodestoneTestSupport"]),
        .testTarget(name: "LodestoneLocationTests",
                    dependencies: ["LodestoneLocation", "LodestoneSteering", "LodestoneJSON", "LodestoneSimulation", "LodestoneTestSupport"],
                    exclude: ["Fixtures"]),
        // The D-Bus compass on a private dbus-daemon, with busctl, gdbus and GDBus (PyGObject) as clients.
        .testTarget(name: "LodestoneDBusTests", dependencies: ["LodestoneDBus", "LodestoneCore", "LodestoneTestSupport"]),
        // The live view's server over real sockets (its page in a real browser: LodestoneServiceTests, against serve).
        .testTarget(name: "LodestoneHTTPTests", dependencies: ["LodestoneHTTP", "LodestoneCore", "LodestoneTestSupport"]),
        // Unit tests of the service's pure parts, and `lodestone serve` end to end: with gpsd/gpsfake,
        // gpsd's own clients, a private dbus-daemon, and its live view in headless Chromium.
        .testTarget(
            name: "LodestoneServiceTests",
            dependencies: ["LodestoneService", "LodestoneCore", "LodestoneJSON", "LodestoneLogs", "LodestoneSimulation", "LodestoneCalibrationStore",
                           "LodestoneGeomagnetism", "LodestoneSimulatedBoard", "LodestoneTestSupport", "LodestoneSession", "LodestoneNetwork",
                           "LodestoneIIO", "LodestoneCommandLine", "LodestoneLocation", "lodestone", "lodestone-serve"]
        ),
    ],
    swiftLanguageModes: [.v6]
)
