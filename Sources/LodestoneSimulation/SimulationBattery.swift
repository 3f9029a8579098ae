import LodestoneCore

/// One case of the scenario battery: a motion, the sensors that ride it, their
/// rates, the place, and the calibration the user would have.
///
/// `lodestone simulate --battery DIR` writes every case as a log, and the test
/// suite runs the same cases in process, so figures measured on the logs (with
/// VQF, say) apply to the tests bit for bit.
public struct BatteryCase: Sendable {
    /// What kind of motion, for choosing the pass threshold.
    public enum Kind: String, CaseIterable, Sendable {
        case levelTurn, tumble, drive, driveWithSpeed, boat, walk
    }

    public var name: String
    public var kind: Kind
    public var scenario: Scenario
    public var sensors: SensorSuite
    public var environment: SimulatedEnvironment
    /// IMU rate, Hz.
    public var rate: Double
    public var seed: UInt64
    /// The calibration profile's quality as the user's calibration would
    /// report it (its fit error includes the sensor's noise, as a real fit's
    /// does): the magnetometer's readings carry the residual errors of that
    /// calibration (a small hard and soft iron), with no further correction.
    public var calibrationStatus: CalibrationStatus

    /// The samples, from the start.
    public func recording() -> ScenarioRecording {
        ScenarioRecording(scenario: scenario, sensors: sensors, environment: environment, rate: rate, seed: seed)
    }

    /// One line for listings.
    public var summary: String {
        var rates = "\(Self.number(rate)) Hz"
        if let m = sensors.magnetometer.rate { rates += ", magnetometer \(Self.number(m)) Hz held" }
        let b = sensors.gyroscope.bias * Angle.degreesPerRadian
        return "\(scenario.summary); \(rates); gyro bias (\(Self.number(b.x)), \(Self.number(b.y)), \(Self.number(b.z))) °/s"
            + (sensors.groundSpeed == nil ? "" : "; with ground speed and track")
    }

    static func number(_ x: Double) -> String { decimal(x) }
}

/// The scenario battery of issue 11: level turns from 0.05 to 100 °/s at IMU
/// rates of 25–1000 Hz and with a magnetometer at 20 Hz held against 200 Hz;
/// ten-minute tumbles; a car drive with and without ground speed; a boat in a
/// seaway; a walk; and gyro biases of up to 1 °/s with a random walk.
public enum SimulationBattery {
    public static let cases: [BatteryCase] = makeCases()

    public static func named(_ name: String) -> BatteryCase? {
        cases.first { $0.name == name }
    }

    /// A turn-on bias such as a calibrated board shows, °/s.
    static let moderateBias = Vector3(0.25, -0.15, 0.2)
    /// The largest the battery asks for: 1 °/s on the vertical axis of a level board.
    static let largeBias = Vector3(0.7, -0.6, 1.0)
    /// Where the drives are: a mid-latitude road.
    static let road = SimulatedEnvironment(fieldStrength: 49, dip: 60, latitude: 45, declination: 3.5)

    static func makeCases() -> [BatteryCase] {
        var cases: [BatteryCase] = []
        func add(_ name: String, _ kind: BatteryCase.Kind, _ scenario: Scenario, rate: Double = 100,
                 bias: Vector3 = moderateBias, magnetometerRate: Double? = nil, speed: Bool = false,
                 environment: SimulatedEnvironment = .init(), seed: UInt64) {
            cases.append(makeCase(name, kind, scenario, rate: rate, bias: bias, magnetometerRate: magnetometerRate,
                                  speed: speed, environment: environment, seed: seed))
        }
        for (i, r) in [0.05, 0.1, 0.3, 1, 2, 10, 100].enumerated() {
            add("turn-\(BatteryCase.number(r))", .levelTurn, .levelTurn(.init(rate: r)), seed: 100 + UInt64(i))
        }
        for r in [0.3, 100.0] {
            for hz in [25.0, 50, 400, 1000] {
                add("turn-\(BatteryCase.number(r))-\(Int(hz))hz", .levelTurn, .levelTurn(.init(rate: r, startHeading: 200)),
                    rate: hz, seed: 200 + UInt64(hz))
            }
        }
        for r in [0.3, 10.0, 100.0] {
            add("turn-\(BatteryCase.number(r))-mag20hz", .levelTurn, .levelTurn(.init(rate: -r, startHeading: 300)),
                rate: 200, magnetometerRate: 20, seed: 300 + UInt64(r))
        }
        add("turn-0.1-bias1", .levelTurn, .levelTurn(.init(rate: 0.1, startHeading: 100)), bias: largeBias, seed: 401)
        let tumbleField = SimulatedEnvironment(fieldStrength: 48, dip: 67)
        add("tumble", .tumble, .tumble(.init(seed: 11)), environment: tumbleField, seed: 11)
        add("tumble-bias1", .tumble, .tumble(.init(seed: 12)), bias: largeBias, environment: tumbleField, seed: 12)
        add("tumble-mag20hz", .tumble, .tumble(.init(seed: 13)), rate: 200, magnetometerRate: 20,
            environment: tumbleField, seed: 13)
        add("drive", .drive, .drive(.init(seed: 21)), environment: road, seed: 21)
        add("drive-bias1", .drive, .drive(.init(seed: 23)), bias: largeBias, environment: road, seed: 23)
        add("drive-speed", .driveWithSpeed, .drive(.init(seed: 21)), speed: true, environment: road, seed: 21)
        add("drive-speed-bias1", .driveWithSpeed, .drive(.init(seed: 22)), bias: largeBias, speed: true, environment: road, seed: 22)
        let sea = SimulatedEnvironment(fieldStrength: 46, dip: 55, latitude: 40)
        add("boat", .boat, .boat(.init(seed: 31)), environment: sea, seed: 31)
        add("boat-bias1", .boat, .boat(.init(seed: 32)), bias: largeBias, environment: sea, seed: 32)
        let town = SimulatedEnvironment(fieldStrength: 50, dip: 66, latitude: 52)
        add("walk", .walk, .walk(.init(seed: 41)), environment: town, seed: 41)
        add("walk-bias1", .walk, .walk(.init(seed: 42)), bias: largeBias, environment: town, seed: 42)
        return cases
    }

    static func makeCase(_ name: String, _ kind: BatteryCase.Kind, _ scenario: Scenario, rate: Double, bias: Vector3,
                         magnetometerRate: Double?, speed: Bool, environment: SimulatedEnvironment,
                         seed: UInt64) -> BatteryCase {
        var sensors = SensorSuite.typical
        sensors.gyroscope.bias = bias * Angle.radiansPerDegree
        var residuals = RandomSource(seed: seed ^ 0x6361_6C69_62)
        let calibration = CalibrationResidual(random: &residuals)
        sensors.magnetometer.hardIron = calibration.hardIron
        sensors.magnetometer.softIron = calibration.softIron
        sensors.magnetometer.rate = magnetometerRate
        if speed { sensors.groundSpeed = .typical }
        var scenario = scenario
        scenario.name = name
        return BatteryCase(name: name, kind: kind, scenario: scenario, sensors: sensors, environment: environment,
                           rate: rate, seed: seed,
                           calibrationStatus: CalibrationStatus(
                               fitErrorPercent: calibration.fitErrorPercent(fieldStrength: environment.fieldStrength,
                                                                               noise: sensors.magnetometer.noise),
                               fieldStrength: environment.fieldStrength, dip: environment.dip, coveragePercent: 90))
    }
}
