// True heading and turn advice toward a landmark, from the simulated board (the default)
// or from the board's IIO sensors (`TrueHeading iio`; try it on a simulated IIO board:
// `sudo lodestone simulated-board mpu9250 -- .build/debug/TrueHeading iio`).
//
//   swift run TrueHeading [iio] [--count N] [--filter DEGREES]
#if canImport(Glibc)
import Glibc
#endif
import Lodestone

let arguments = Array(CommandLine.arguments.dropFirst())
let source: HeadingSource = arguments.contains("iio") ? .iio(IIOSourceConfiguration()) : .simulated()
let count = value(after: "--count").flatMap { Int($0) } ?? 10

let manager = HeadingManager(source)
guard manager.headingAvailable else {
    print("no magnetometer and accelerometer here; run without 'iio' for the simulated board")
    exit(3)
}
manager.position = .fixed(latitude: 52.5163, longitude: 13.3777, height: 74)            // the Brandenburg Gate
manager.steeringTarget = try GeoCoordinate(latitude: 52.5208, longitude: 13.4094)       // the TV tower
manager.headingFilter = value(after: "--filter").flatMap { Double($0) } ?? 2

var printed = 0
for await update in manager.updates() {
    let heading = update.heading
    let trueHeading = heading.trueHeading.map { format($0) + "°" } ?? "unknown"
    var line = "true heading \(trueHeading) ±\(format(heading.headingAccuracy))°"
    if let advice = update.advice {
        line += "; TV tower \(format(advice.distance / 1000, 2)) km at \(format(advice.bearing))°"
        line += advice.arrived ? ": arrived" : ": \(advice.turn?.rawValue ?? "hold")"
    }
    print(line)
    printed += 1
    if printed == count { manager.stopUpdatingHeading() }
}

/// The argument after `option`, if given.
func value(after option: String) -> String? {
    arguments.firstIndex(of: option).flatMap { $0 + 1 < arguments.count ? arguments[$0 + 1] : nil }
}

/// A number with `digits` decimals.
func format(_ value: Double, _ digits: Int = 1) -> String {
    var scale = 1.0
    for _ in 0..<digits { scale *= 10 }
    let r = (value * scale).rounded() / scale
    return digits == 0 ? String(Int(r)) : String(r)
}
