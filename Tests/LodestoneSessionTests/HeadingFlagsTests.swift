import LodestoneCalibrationStore
import LodestoneCommandLine
import LodestoneCore
import LodestoneGeomagnetism
import LodestoneIIO
import LodestoneNetwork
import LodestoneSession
import Testing

@Suite struct HeadingFlagsTests {
    static let all = HeadingFlags.sourceChoice + HeadingFlags.iio + HeadingFlags.pipeline + HeadingFlags.position + HeadingFlags.livePosition

    func configuration(_ arguments: [String]) throws -> HeadingConfiguration {
        try HeadingFlags.configuration(CommandLineArguments(arguments, options: Self.all))
    }

    func usageError(_ arguments: [String]) -> String? {
        do {
            _ = try configuration(arguments)
            return nil
        } catch {
            return "\(error)"
        }
    }

    @Test func everyFlagLandsInTheTypedConfiguration() throws {
        let c = try configuration(["--uri", "ip:10.0.0.2", "--magn", "lis3mdl", "--accel", "iio:device1", "--gyro", "bmi160",
                                   "--mode", "polled", "--rate", "200", "--board-rotation", "90",
                                   "--heading-filter", "2.5", "--forward", "-x", "--fusion", "ecompass", "--no-smoothing",
                                   "--calibration", "m.json,a.json", "--auto-calibrate",
                                   "--gpsd", "gps.local:3000", "--max-fix-age", "4", "--year", "2027.5", "--model", "wmmhr",
                                   "--allow-extrapolation"])
        guard case .iio(let iio) = c.source else { Issue.record("not iio"); return }
        #expect(iio.uri == "ip:10.0.0.2" && iio.magnetometerDevice == "lis3mdl" && iio.accelerometerDevice == "iio:device1")
        #expect(iio.gyroscopeDevice == "bmi160" && iio.mode == .polled && iio.rate == 200)
        #expect(iio.boardRotation == BoardRotation.aboutZ(degrees: 90))
        let s = c.session
        #expect(s.headingFilter == 2.5 && s.estimator.forwardAxis == .minusX && s.estimator.fusion == .ecompass && s.estimator.smoothing == nil)
        #expect(s.calibration == .files(["m.json", "a.json"]) && s.hardIronTracking)
        #expect(s.trueNorth.position == .gpsd(Endpoint(host: "gps.local", port: 3000)) && s.trueNorth.maxFixAge == 4)
        #expect(s.trueNorth.model == .wmmhr && s.trueNorth.allowExtrapolation)
        #expect(s.trueNorth.modelDate == DecimalYear.unixTime(fromDecimalYear: 2027.5))
    }

    @Test func theDefaultsAreTheSameForEveryCommand() throws {
        let c = try configuration([])
        guard case .iio(let iio) = c.source else { Issue.record("not iio"); return }
        #expect(iio.rate == 100 && SourceConfiguration.defaultRate == 100 && SourceConfiguration.rates.upperBound == 10_000)
        #expect(c.session == HeadingSession.Settings())
        #expect(c.session.headingFilter == 1 && c.session.calibration == .automatic && !c.session.hardIronTracking)
        #expect(c.session.trueNorth.position == .none)
    }

    @Test func sourcesOtherThanIIO() throws {
        #expect(try configuration(["--source", "replay:walk.lslog", "--loop", "--speed", "max"]).source
                == .replay(ReplaySettings(path: "walk.lslog", loop: true, speed: nil)))
        #expect(try configuration(["--source", "simulated", "--rate", "50"]).source == .simulated(SimulatedSettings(rate: 50)))
        #expect(try configuration(["--lat", "-33.86", "--lon", "151.21", "--alt-m", "40"]).position
                == .fixed(latitude: -33.86, longitude: 151.21, height: 40))
    }

    @Test(arguments: [
        (["--rate", "20000"], "--rate must be between 0.1 and 10000.0, got 20000.0"),
        (["--mode", "dma"], "--mode must be auto, buffered or polled; got 'dma'"),
        (["--board-rotation", "up"], "--board-rotation must be degrees about z"),
        (["--source", "replay:x", "--uri", "local:"], "--uri does not apply to a replay"),
        (["--source", "simulated", "--loop"], "--loop and --speed apply to --source replay:FILE"),
        (["--lat", "10"], "--lat and --lon go together"),
        (["--lat", "10", "--lon", "10", "--gpsd", "localhost"], "give one position source: --lat/--lon or --gpsd, not both"),
        (["--alt-m", "3"], "--alt-m goes with --lat and --lon"),
        (["--date", "2026-01-01", "--year", "2026"], "give --date or --year, not both"),
        (["--year", "2031"], "date: 2031-01-01T00:00:00Z is outside WMM2025's validity"),
        (["--heading-filter", "-1"], "--heading-filter must be ≥ 0 degrees"),
        (["--calibration", "a,b,c"], "--calibration takes FILE, or MAGNETOMETER_FILE,ACCELEROMETER_FILE, or none"),
        (["--gpsd", "host:port"], "--gpsd: 'host:port' is not HOST:PORT"),
        (["--max-fix-age", "0"], "--max-fix-age must be > 0 seconds"),
    ])
    func badFlagsAreRefusedWithTheReason(arguments: [String], message: String) {
        let e = usageError(arguments)
        #expect(e?.hasPrefix(message) == true, "\(e ?? "accepted")")
    }

    @Test func aRefusedOptionSaysWhyAndIsNotInTheHelp() {
        let options = HeadingFlags.pipeline.filter { $0.name != "forward" } + [.refused("forward", "the heading error does not depend on the forward axis")]
        #expect(throws: UsageError.self) { try CommandLineArguments(["--forward", "+x"], options: options) }
        do {
            _ = try CommandLineArguments(["--forward", "+x"], options: options)
        } catch {
            #expect(error.description == "--forward does not apply here: the heading error does not depend on the forward axis")
        }
        #expect(!CommandHelp.text(usage: "x", summary: "", discussion: "", options: [.refused("forward", "no")]).contains("--forward"))
    }
}
