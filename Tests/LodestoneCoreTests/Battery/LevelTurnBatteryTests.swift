import LodestoneSimulation
import Testing

/// Level turns from 0.05 to 100 °/s, at IMU rates of 25–1000 Hz, with a 20 Hz
/// magnetometer held against a 200 Hz IMU, and with a 1 °/s gyro bias: a slow
/// steady rotation must not be learned as gyro bias.
@Suite struct LevelTurnBatteryTests {
    /// Issue 11's target: heading RMSE ≤ 1.0° after the first 10 s, any rate,
    /// any IMU rate. Where the simulated calibration residual alone puts the
    /// compass beyond it (turn-0.1: 1.05°, turn-2: 1.39°, without the compass
    /// mode's lag), the fusion must at least not be worse than the compass
    /// (within its noise, as in ``BatteryRun/checkCommonTargets()``). On
    /// turn-0.1, 30° of turn in five minutes, the 1.0° is not met: no turn shows
    /// the compass's deviation there.
    static let targetRMSE = 1.0

    @Test(arguments: SimulationBattery.cases.filter { $0.kind == .levelTurn }.map(\.name))
    func levelTurn(_ name: String) throws {
        let (fused, compass) = try BatteryRun(name).checkCommonTargets()
        let bound = max(Self.targetRMSE, compass.rmse * 1.05 + 0.05)
        #expect(fused.rmse <= bound, "\(name): heading RMSE \(BatteryRun.Score.fixed(fused.rmse))° (≤ \(bound)° wanted)")
    }

    /// Two turns at 2 °/s: the calibration's residual puts the compass up to 2°
    /// off, a deviation with heading that the fusion's compass-error state (which
    /// decorrelates every 45°) can only follow. Swung against the gyro
    /// (``CompassDeviation``), it is taken out once the first turn and a half
    /// has shown it: from 200 s on, 1.2° before.
    @Test func turningRoundLearnsTheCompassDeviation() throws {
        let run = try BatteryRun("turn-2")
        let compass = run.score(.ecompass, from: 200), fused = run.score(.auto, from: 200)
        #expect(compass.rmse > Self.targetRMSE, "the compass alone from 200 s: \(compass)")
        #expect(fused.rmse <= 0.7, "fused from 200 s: \(fused)")
        #expect(fused.beyondShare <= 0.01, "fused from 200 s: \(fused)")
    }
}
