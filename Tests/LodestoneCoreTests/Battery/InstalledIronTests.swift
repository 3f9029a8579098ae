import LodestoneCore
@testable import LodestoneSimulation
import Testing

/// A board calibrated on the bench, then fixed in a car or a boat whose steel
/// adds a hard iron its profile does not hold (``HardIronSwing``). Before,
/// the heading was as wrong as that compass for the whole trip: on e895d04,
/// `lodestone simulate --scenario drive|boat --gyro --hard-iron 8,-5,6 --seed 3`
/// with a bench profile was 17.9° and 23.7° off; the accuracy knew, but nothing
/// learned the offset.
@Suite struct InstalledIronTests {
    struct Trip {
        var rmseAfter: Double
        var beyondShare: Double
        var swung: [MagneticEvent]
    }

    /// The battery's case `name` with `iron` µT added to its magnetometer, run
    /// with the battery's own profile; heading RMSE scored from `after` s on.
    static func trip(_ name: String, iron: Vector3, after: Double, fusion: FusionMode = .auto) throws -> Trip {
        var battery = try #require(SimulationBattery.named(name))
        battery.sensors.magnetometer.hardIron += iron
        let run = BatteryRun(battery)
        var settings = HeadingEstimator.Settings(fusion: fusion)
        settings.calibrationStatus = battery.calibrationStatus
        var pipeline = HeadingPipeline(settings: settings, headingFilter: 0)
        var late = BatteryRun.Score(), whole = BatteryRun.Score()
        var swung: [MagneticEvent] = []
        for (i, s) in run.samples.enumerated() {
            let h = pipeline.process(s)
            if pipeline.hasEvents {
                swung += pipeline.takeEvents().filter { if case .hardIronSwung = $0 { true } else { false } }
            }
            guard let h, s.time >= battery.scenario.settlingTime else { continue }
            let error = headingError(h.attitude, run.truth[i])
            whole.add(error: error, accuracy: h.headingAccuracy)
            if s.time >= after { late.add(error: error, accuracy: h.headingAccuracy) }
        }
        print("\(name) (\(fusion)) with a hard iron of \(iron) µT: from \(after) s \(late); whole trip \(whole); \(swung)")
        return Trip(rmseAfter: late.rmse, beyondShare: whole.beyondShare, swung: swung)
    }

    @Test(arguments: ["drive", "boat"])
    func theVehiclesIronIsSwungOut(_ name: String) throws {
        let trip = try Self.trip(name, iron: Vector3(8, -5, 6), after: 240)
        #expect(!trip.swung.isEmpty, "\(name): no hard iron swung out")
        #expect(trip.rmseAfter <= 1.5, "\(name): heading RMSE from 240 s \(BatteryRun.Score.fixed(trip.rmseAfter))°")
        #expect(trip.beyondShare <= 0.01,
                "\(name): \(BatteryRun.Score.fixed(100 * trip.beyondShare))% beyond 3 × accuracy over the trip")
    }

    /// Compass mode swings the same offset out: the swing reads only the
    /// calibrated field and the board's up, whichever way the attitude is made.
    /// From then on the compass is within 0.5° of its own on the clean boat
    /// (a boat's accelerations tilt it by a few degrees either way).
    @Test func theCompassSwingsItOutToo() throws {
        let trip = try Self.trip("boat", iron: Vector3(8, -5, 6), after: 240, fusion: .ecompass)
        let clean = try Self.trip("boat", iron: .zero, after: 240, fusion: .ecompass)
        #expect(!trip.swung.isEmpty, "no hard iron swung out in compass mode")
        #expect(trip.rmseAfter <= clean.rmseAfter + 0.5,
                "heading RMSE from 240 s \(BatteryRun.Score.fixed(trip.rmseAfter))° against \(BatteryRun.Score.fixed(clean.rmseAfter))° clean")
    }

    /// The battery's own calibration residual (about 0.5 µT) is within what its
    /// profile states: left to the fusion. With an offset that had to turn the
    /// heading by one compass error rather than three, turn-2 was 1.16 → 0.94°
    /// but drive-speed-bias1 0.65 → 1.09°, whose offset was found 0.7 µT off.
    @Test(arguments: ["turn-2", "drive-speed-bias1", "walk"])
    func aResidualWithinTheProfileIsLeftAlone(_ name: String) throws {
        let trip = try Self.trip(name, iron: .zero, after: 0)
        #expect(trip.swung.isEmpty, "\(name): \(trip.swung)")
    }
}
