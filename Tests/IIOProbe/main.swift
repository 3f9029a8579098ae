// iio-probe: test-only. Opens an IIOSensorSource and prints JSON lines:
// {"metadata":…} once, then {"t":…,"m":[…],"a":[…],"g":[…]|null,"raw":{…}} per sample,
// {"error":"…","transient":true|false} on errors, and {"diagnostics":…} at the end.
// `lodestone watch` will replace it once the CLI framework lands.
import Foundation
import LodestoneCore
import LodestoneIIO

func fail(_ text: String) -> Never {
    FileHandle.standardError.write(Data("iio-probe: \(text)\n".utf8))
    exit(2)
}

var config = IIOSourceConfiguration()
var count = 100
var wait = 0.0
var maxErrors = 20
var list = false
var quiet = false
var args = Array(CommandLine.arguments.dropFirst())
while !args.isEmpty {
    let a = args.removeFirst()
    func value() -> String {
        guard !args.isEmpty else { fail("\(a) needs a value") }
        return args.removeFirst()
    }
    switch a {
    case "--uri": config.uri = value()
    case "--mode": guard let m = IIOCaptureMode(rawValue: value()) else { fail("--mode auto|buffered|polled") }; config.mode = m
    case "--rate": guard let r = Double(value()), r > 0 else { fail("--rate HZ") }; config.rate = r
    case "--magn-rate": guard let r = Double(value()), r > 0 else { fail("--magn-rate HZ") }; config.magnetometerRate = r
    case "--count": guard let c = Int(value()) else { fail("--count N") }; count = c
    case "--board-rotation": guard let m = BoardRotation.parse(value()) else { fail("--board-rotation DEG|MATRIX") }; config.boardRotation = m
    case "--magn": config.magnetometerDevice = value()
    case "--accel": config.accelerometerDevice = value()
    case "--gyro": config.gyroscopeDevice = value()
    case "--no-gyro": config.useGyroscope = false
    case "--wait": wait = Double(value()) ?? 0
    case "--max-errors": maxErrors = Int(value()) ?? 20
    case "--timeout": config.readTimeout = Double(value()) ?? 2
    case "--list": list = true
    case "--quiet": quiet = true
    case "--stuck-after": config.stuckSampleCount = Int(value()) ?? 100
    default: fail("unknown argument \(a)")
    }
}

let encoder = JSONEncoder()
encoder.outputFormatting = [.sortedKeys]
func emit(_ line: String) {
    FileHandle.standardOutput.write(Data((line + "\n").utf8))
}
func json<T: Encodable>(_ v: T) -> String { String(decoding: try! encoder.encode(v), as: UTF8.self) }
func vec(_ v: Vector3) -> String { "[\(v.x),\(v.y),\(v.z)]" }

if list {
    let deadline = Date().addingTimeInterval(wait)
    while true {
        do {
            emit("{\"devices\":\(json(try IIODeviceCatalog.list(uri: config.uri)))}")
            exit(0)
        } catch {
            if case .contextUnavailable = error, Date() < deadline { usleep(100_000); continue }
            emit("{\"error\":\(json(error.description)),\"transient\":\(error.isTransient),\"fatal\":true}")
            exit(1)
        }
    }
}

// Open, retrying while the context is not there yet (iiod starting up).
var source: IIOSensorSource
let deadline = Date().addingTimeInterval(wait)
while true {
    do {
        source = try IIOSensorSource(configuration: config)
        break
    } catch {
        if case .contextUnavailable = error, Date() < deadline {
            usleep(100_000)
            continue
        }
        emit("{\"error\":\(json(error.description)),\"transient\":\(error.isTransient),\"fatal\":true}")
        exit(1)
    }
}
emit("{\"metadata\":\(json(source.metadata))}")

var emitted = 0
var errors = 0
var startUsage = rusage()
getrusage(RUSAGE_SELF.rawValue, &startUsage)
let startWall = Date()
while emitted < count {
    do {
        guard let s = try source.nextSample() else { break }
        if quiet { emitted += 1; continue }
        let r = source.latestRaw!
        emit("{\"t\":\(s.time),\"wall\":\(source.startWallClock ?? 0),\"m\":\(vec(s.magneticField)),\"a\":\(vec(s.acceleration)),\"g\":\(s.angularRate.map(vec) ?? "null"),\"raw\":\(json(r)),\"flags\":\(json(source.diagnostics.flags))}")
        emitted += 1
    } catch {
        errors += 1
        emit("{\"error\":\(json(error.description)),\"transient\":\(error.isTransient)}")
        if !error.isTransient || errors > maxErrors { break }
        usleep(200_000)
    }
}
var endUsage = rusage()
getrusage(RUSAGE_SELF.rawValue, &endUsage)
func seconds(_ t: timeval) -> Double { Double(t.tv_sec) + Double(t.tv_usec) / 1e6 }
let cpu = seconds(endUsage.ru_utime) + seconds(endUsage.ru_stime) - seconds(startUsage.ru_utime) - seconds(startUsage.ru_stime)
emit("{\"summary\":{\"samples\":\(emitted),\"cpuSeconds\":\(cpu),\"wallSeconds\":\(Date().timeIntervalSince(startWall)),\"maxRSSKiB\":\(endUsage.ru_maxrss)}}")
emit("{\"diagnostics\":\(json(source.diagnostics))}")
source.close()
exit(emitted == count ? 0 : 1)
