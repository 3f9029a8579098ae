import Foundation
import LodestoneCalibrationStore
import LodestoneCommandLine
import LodestoneCore
import LodestoneIIO
import LodestoneJSON
import LodestoneNetwork
import LodestoneSession
import LodestoneTestSupport
import Testing
@testable import LodestoneService

@Suite struct ConfigurationTests {
    func apply(_ json: String, base: ServiceConfiguration = .init(), directory: String = "/etc/lodestone") throws -> ServiceConfiguration {
        try base.applying(json: JSONParser.parse(json), baseDirectory: directory)
    }

    func failure(_ json: String) -> ConfigurationError? {
        do {
            _ = try apply(json)
            return nil
        } catch {
            return error as? ConfigurationError
        }
    }

    @Test func theExampleFileInToolsIsValid() throws {
        let path = SharedData.packageRoot.appendingPathComponent("tools/lodestone.example.json").path
        let c = try ServiceConfiguration().applying(file: path)
        guard case .iio(let iio) = c.heading.source else { Issue.record("not iio: \(c.heading.source)"); return }
        #expect(iio.rate == 100 && iio.mode == .auto && iio.boardRotation == .identity)
        #expect(c.heading.position == .gpsd(Endpoint(host: "localhost", port: 2947)))
        #expect(c.nmea.listen == Endpoint(host: "127.0.0.1", port: 10110))
        #expect(c.nmea.rate == 2)
        #expect(c.socketPath == "/run/lodestone/lodestone.sock" && c.socketMode == 0o660)
        // No "calibration" key: the profiles made for the devices opened, as the CLI finds them.
        #expect(c.heading.session.calibration == .automatic)
    }

    /// The listeners with threads of their own are off unless asked for.
    @Test func dbusAndHTTPAreOffByDefaultAndTakeTheirKeys() throws {
        let defaults = try apply("{}")
        #expect(!defaults.dbus.enable && defaults.http == nil)
        #expect(defaults.dbus.compass.bus == .system && defaults.dbus.compass.allowedUsers == ["root", "geoclue"])
        let c = try apply(#"{"dbus":{"enable":true,"address":"unix:path=/tmp/bus","allowedUsers":["geoclue"],"allowedGroups":[],"#
                          + #""headingFilter":2,"maximumRate":5},"http":{"listen":":8081","allowedHosts":["board.local"],"maxClients":4}}"#)
        #expect(c.dbus.enable && c.dbus.compass.bus == .address("unix:path=/tmp/bus"))
        #expect(c.dbus.compass.allowedUsers == ["geoclue"] && c.dbus.compass.allowedGroups.isEmpty)
        #expect(c.dbus.compass.headingFilter == 2 && c.dbus.compass.maximumRate == 5)
        #expect(c.http?.listen == Endpoint(host: "127.0.0.1", port: 8081) && c.http?.allowedHosts == ["board.local"] && c.http?.maxClients == 4)
        #expect(try apply(#"{"http":{"listen":"0.0.0.0:0"}}"#).http?.listen == Endpoint(host: "0.0.0.0", port: 0))
        #expect(try apply(#"{"http":null}"#).http == nil)
    }

    @Test func dbusAndHTTPFlags() throws {
        func flags(_ a: [String]) throws -> ServiceConfiguration {
            try ServeCommandLine.configuration(CommandLineArguments(a, options: ServeCommandLine.options))
        }
        #expect(try flags(["--http", ":0"]).http?.listen == Endpoint(host: "127.0.0.1", port: 0))
        #expect(try flags(["--http", "8080"]).http?.listen == Endpoint(host: "127.0.0.1", port: 8080))
        #expect(try flags(["--http", "none"]).http == nil)
        #expect(try flags(["--dbus"]).dbus.enable)
        let other = try flags(["--dbus-address", "unix:path=/tmp/bus"])
        #expect(other.dbus.enable && other.dbus.compass.bus == .address("unix:path=/tmp/bus"))
        #expect(throws: UsageError.self) { try flags(["--http", "[::1"]) }
    }

    @Test func calibrationTakesOneOrTwoProfilesOrNull() throws {
        #expect(try apply(#"{"calibration":null}"#).heading.session.calibration == CalibrationChoice.none)
        #expect(try apply(#"{"calibration":["mag.json","/var/lib/lodestone/accel.json"]}"#).heading.session.calibration
                == .files(["/etc/lodestone/mag.json", "/var/lib/lodestone/accel.json"]))
        for bad in [#"{"calibration":[]}"#, #"{"calibration":["a","b","c"]}"#, #"{"calibration":[1]}"#, #"{"calibration":true}"#] {
            #expect(throws: ConfigurationError.self) { try apply(bad) }
        }
    }

    @Test func everyKeyIsApplied() throws {
        let c = try apply("""
            {"source":{"type":"replay","path":"logs/walk.lslog","loop":true,"speed":"max"},
             "forward":"-x","smoothing":false,"fusion":"ecompass","calibration":"mag.json","autoCalibrate":true,"headingFilter":2.5,
             "position":{"lat":-33.86,"lon":151.21,"altM":40,"maxFixAge":3},"model":"wmmhr","allowExtrapolation":true,"date":"2027-06-01",
             "socket":"/tmp/l.sock","socketMode":"0600","listen":["127.0.0.1:2948","[::1]:2949"],
             "nmea":{"listen":":10111","serial":"/dev/ttyUSB0","baud":38400,"rate":5,"talker":"II"},
             "limits":{"maxClients":4,"maxLineLength":256,"clientQueueBytes":8192}}
            """)
        #expect(c.heading.source == .replay(ReplaySettings(path: "/etc/lodestone/logs/walk.lslog", loop: true, speed: nil)))
        let s = c.heading.session
        #expect(s.estimator.forwardAxis == .minusX && s.estimator.smoothing == nil && s.estimator.fusion == .ecompass)
        #expect(s.calibration == .files(["/etc/lodestone/mag.json"]))
        #expect(s.hardIronTracking)
        #expect(!ServiceConfiguration().heading.session.hardIronTracking, "hard-iron tracking must be off by default")
        #expect(failure(#"{"autoCalibrate":"yes"}"#)?.description.contains("autoCalibrate") == true)
        #expect(s.headingFilter == 2.5)
        #expect(c.heading.position == .fixed(latitude: -33.86, longitude: 151.21, height: 40))
        #expect(s.trueNorth.maxFixAge == 3 && s.trueNorth.model == .wmmhr && s.trueNorth.allowExtrapolation)
        #expect(s.trueNorth.modelDate == WallClockTime.parse("2027-06-01"))
        #expect(c.socketPath == "/tmp/l.sock" && c.socketMode == 0o600)
        #expect(c.tcpListeners == [Endpoint(host: "127.0.0.1", port: 2948), Endpoint(host: "::1", port: 2949)])
        #expect(c.nmea.listen == Endpoint(host: "127.0.0.1", port: 10111))
        #expect(c.nmea.serial == "/dev/ttyUSB0" && c.nmea.baud == 38400 && c.nmea.rate == 5 && c.nmea.talker == "II")
        #expect(c.limits.maxClients == 4 && c.limits.maxLineLength == 256 && c.limits.clientQueueBytes == 8192)
    }

    @Test func absentKeysKeepTheBase() throws {
        var base = ServiceConfiguration()
        base.heading.session.headingFilter = 7
        let c = try apply(#"{"forward":"+x"}"#, base: base)
        #expect(c.heading.session.headingFilter == 7 && c.heading.session.estimator.forwardAxis == .plusX)
        #expect(try apply("{}") == ServiceConfiguration())
        #expect(try apply(#"{"socket":null,"listen":["2948"]}"#).socketPath == nil)
        #expect(try apply(#"{"position":{"gpsd":true}}"#).heading.position == .gpsd(PositionSetting.defaultGPSD))
    }

    @Test(arguments: [
        (#"{"sourse":{}}"#, "sourse", "unknown key; did you mean source?"),
        (#"{"source":{"type":"iio","rate":"fast"}}"#, "source.rate", "must be a number, not a string"),
        (#"{"source":{"type":"iio","rate":0}}"#, "source.rate", "must be between 0.1 and 10000 Hz, not 0.0"),
        (#"{"source":{"type":"iio","rate":20000}}"#, "source.rate", "must be between 0.1 and 10000 Hz, not 20000.0"),
        (#"{"source":{"type":"iio","boardRotation":"sideways"}}"#, "source.boardRotation", "'sideways' is not degrees about z nor a rotation matrix"),
        (#"{"date":"June"}"#, "date", "must be \"YYYY-MM-DD\", not 'June'"),
        (#"{"source":{"type":"iio","mode":"dma"}}"#, "source.mode", "must be auto, buffered or polled, not 'dma'"),
        (#"{"source":{"type":"replay"}}"#, "source.path", "is required for a replay source: the log to replay"),
        (#"{"source":{"type":"replay","path":"a","uri":"local:"}}"#, "source.uri", "does not apply here: they belong to an iio source"),
        (#"{"source":{"type":"replay","path":"a","speed":0}}"#, "source.speed", "must be a number > 0, or \"max\" for as fast as possible"),
        (#"{"source":{"type":"usb"}}"#, "source.type", "must be iio, replay or simulated, not 'usb'"),
        (#"{"forward":"up"}"#, "forward", "must be one of +y, +x, -y, -x, -z or +z, not 'up'"),
        (#"{"headingFilter":-1}"#, "headingFilter", "must be a number of degrees ≥ 0, not -1.0"),
        (#"{"position":{"lat":52}}"#, "position.lon", "lat and lon go together"),
        (#"{"position":{"lat":95,"lon":0}}"#, "position.lat", "must be between -90 and 90 degrees, not 95.0"),
        (#"{"position":{"lat":1,"lon":2,"gpsd":true}}"#, "position", "give one of lat/lon (a fixed position), gpsd or log, not more"),
        (#"{"position":{"gpsd":"host:port"}}"#, "position.gpsd", "'host:port' is not HOST:PORT (the port must be a number 1–65535)"),
        (#"{"position":{"maxFixAge":0}}"#, "position.maxFixAge", "must be a number of seconds > 0, not 0.0"),
        (#"{"socketMode":"rw"}"#, "socketMode", "must be an octal mode such as \"0660\", not 'rw'"),
        (#"{"socket":null}"#, "socket", "no listener: give a Unix socket path or a TCP listener (listen)"),
        (#"{"listen":"127.0.0.1:1"}"#, "listen", "must be an array of \"HOST:PORT\" strings, not a string"),
        (#"{"listen":["::1:2948"]}"#, "listen[0]", "'::1:2948' is not HOST:PORT (put an IPv6 address in brackets, e.g. [::1]:2947)"),
        (#"{"nmea":{"rate":100}}"#, "nmea.rate", "must be between 0 and 50 sentence groups per second, not 100.0"),
        (#"{"nmea":{"baud":1200}}"#, "nmea.baud", "must be one of 4800, 9600, 19200, 38400, 57600, 115200, not 1200"),
        (#"{"nmea":{"talker":"hc"}}"#, "nmea.talker", "must be two upper-case letters such as HC, not 'hc'"),
        (#"{"limits":{"maxClients":2.5}}"#, "limits.maxClients", "must be a whole number, not 2.5"),
        (#"{"limits":{"clientQueueBytes":10}}"#, "limits.clientQueueBytes", "must be between 4096 and 67108864 bytes, not 10"),
        (#"[]"#, "(file)", "must be a JSON object, not an array"),
        (#"{"dbus":{"headingFilter":-1}}"#, "dbus.headingFilter", "must be between 0 and 180 degrees, not -1.0"),
        (#"{"dbus":{"maximumRate":0}}"#, "dbus.maximumRate", "must be between 0 and 100 signals per second, not 0.0"),
        (#"{"dbus":{"allowedUsers":"geoclue"}}"#, "dbus.allowedUsers", "must be an array of names, not a string"),
        (#"{"dbus":{"adress":"unix:path=/x"}}"#, "dbus.adress", "unknown key; did you mean address?"),
        (#"{"http":{"listen":"[::1"}}"#, "http.listen", "'[::1' is not HOST:PORT (an IPv6 address needs a closing ']')"),
        (#"{"http":{"maxClients":0}}"#, "http.maxClients", "must be between 1 and 1024, not 0"),
    ])
    func errorsNameTheKey(json: String, key: String, message: String) {
        let e = failure(json)
        #expect(e?.key == key)
        #expect(e?.message.hasPrefix(message) == true, "\(e?.message ?? "no error")")
    }

    @Test func fileErrorsNameTheFileAndTheLine() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("lodestone-config-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let bad = dir.appendingPathComponent("bad.json").path
        try "{\n  \"headingFilter\": 1,\n  \"forward\": +y\n}\n".write(toFile: bad, atomically: true, encoding: .utf8)
        #expect(throws: ConfigurationError(key: "(file)", "not valid JSON: line 3, column 14: expected a value, found '+'", origin: bad)) {
            try ServiceConfiguration().applying(file: bad)
        }
        let missing = dir.appendingPathComponent("missing.json").path
        // A file that cannot be read is an access problem (exit 3), not a bad value (1).
        #expect(throws: ConfigurationError(key: "(file)", "cannot be read: No such file or directory", origin: missing, isAccessProblem: true)) {
            try ServiceConfiguration().applying(file: missing)
        }
        let typo = dir.appendingPathComponent("typo.json").path
        try #"{"nmea":{"rte":2}}"#.write(toFile: typo, atomically: true, encoding: .utf8)
        do {
            _ = try ServiceConfiguration().applying(file: typo)
            Issue.record("accepted an unknown key")
        } catch {
            #expect(error.description == "\(typo): nmea.rte: unknown key; did you mean rate? (known: listen, serial, baud, rate, talker)")
        }
    }
}
