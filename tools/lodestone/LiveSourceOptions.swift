import LodestoneIIO

/// The options that open a live IIO source for `calibrate`.
///
/// A subset of the shared IIO source options; kept small on purpose until the
/// shared `SourceOptions` (devices, watch, record) is in, then replaced by it.
struct LiveSourceOptions {
    static let options: [CommandLineArguments.Option] = [
        .value("uri", "URI", "Live: libiio context, e.g. local: (default), ip:192.168.1.20."),
        .value("magn", "DEV", "Live: the magnetometer device (name, label or iio:deviceN)."),
        .value("accel", "DEV", "Live: the accelerometer device."),
        .value("mode", "MODE", "Live: auto (default), buffered or polled capture."),
        .value("rate", "HZ", "Live: sample rate (default 50)."),
    ]

    static let names = options.map(\.name)

    var configuration = IIOSourceConfiguration()

    init(_ arguments: CommandLineArguments) throws(UsageError) {
        if let uri = arguments.string("uri") { configuration.uri = uri }
        configuration.magnetometerDevice = arguments.string("magn")
        configuration.accelerometerDevice = arguments.string("accel")
        configuration.useGyroscope = true
        if let text = arguments.string("mode") {
            guard let mode = IIOCaptureMode(rawValue: text) else {
                throw UsageError("--mode must be auto, buffered or polled; got '\(text)'")
            }
            configuration.mode = mode
        }
        if let rate = try arguments.double("rate", in: 0.1...10_000) { configuration.rate = rate }
    }

    /// True when any live option was given.
    static func given(_ arguments: CommandLineArguments) -> Bool {
        names.contains { arguments.string($0) != nil }
    }
}
