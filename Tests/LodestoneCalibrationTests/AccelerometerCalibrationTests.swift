import LodestoneCore
import Testing
import LodestoneSimulation
@testable import LodestoneCalibration

@Suite struct AccelerometerCalibrationTests {
    static let g = 9.80665

    /// A 100 Hz log: each position held 3 s, then 2 s of shaky motion to the next.
    static func log(positions: [Vector3], gain: Matrix3, bias: Vector3, rng: inout RandomSource)
        -> (times: [Double], raw: [Vector3], rates: [Vector3]) {
        var times: [Double] = [], raw: [Vector3] = [], rates: [Vector3] = []
        var t = 0.0
        func sample(_ a: Vector3, _ w: Vector3, _ rng: inout RandomSource) {
            times.append(t)
            raw.append(gain * a + bias + Vector3(rng.gaussian(), rng.gaussian(), rng.gaussian()) * 0.01)
            rates.append(w)
            t += 0.01
        }
        for (i, p) in positions.enumerated() {
            let a = p.normalized * g
            for _ in 0..<300 { sample(a, Vector3(rng.gaussian(), rng.gaussian(), rng.gaussian()) * 0.003, &rng) }
            let next = positions[(i + 1) % positions.count].normalized * g
            for k in 0..<200 {
                let s = Double(k) / 200
                let shake = Vector3(rng.gaussian(), rng.gaussian(), rng.gaussian()) * 1.5
                sample((a * (1 - s) + next * s).normalized * g + shake, Vector3(0.8, -0.5, 0.3), &rng)
            }
        }
        return (times, raw, rates)
    }

    static let sixFaces = [Vector3.unitX, -.unitX, .unitY, -.unitY, .unitZ, -.unitZ]

    @Test func sixPositionsRecoverOffsetsAndScales() throws {
        var rng = RandomSource(seed: 41)
        let gain = Matrix3(diagonal: Vector3(1.02, 0.97, 1.035))
        let bias = Vector3(0.15, -0.08, 0.3)
        let log = Self.log(positions: Self.sixFaces, gain: gain, bias: bias, rng: &rng)
        let (fit, segments) = try AccelerometerCalibrator().fit(times: log.times, accelerations: log.raw, angularRates: log.rates)
        #expect(segments.count == 6)
        // 3 s holds, less up to half a window (0.25 s) at each end.
        #expect(segments.allSatisfy { $0.duration > 2.4 && $0.duration < 3 })
        #expect(fit.model == .diagonal)
        #expect((fit.offset - bias).length < 0.01)
        let scales = Vector3(fit.matrix[0, 0], fit.matrix[1, 1], fit.matrix[2, 2])
        let truth = Vector3(1 / 1.02, 1 / 0.97, 1 / 1.035)
        #expect((scales - truth).length < 0.001)
        #expect(abs(fit.matrix[0, 1]) < 1e-12 && abs(fit.matrix[1, 2]) < 1e-12)
        let corrected = fit.accelerometerCalibration.apply(gain * Vector3(0, 0, Self.g) + bias)
        #expect(abs(corrected.length - Self.g) < 0.005)
    }

    /// Fourteen positions (faces and corners) with cross-axis coupling: the full model.
    @Test func manyPositionsRecoverCrossAxisTerms() throws {
        var rng = RandomSource(seed: 42)
        var positions = Self.sixFaces
        for x in [-1.0, 1] { for y in [-1.0, 1] { for z in [-1.0, 1] { positions.append(Vector3(x, y, z)) } } }
        let gain = Matrix3(1.02, 0.01, -0.008, 0.01, 0.97, 0.006, -0.008, 0.006, 1.035)
        let bias = Vector3(-0.2, 0.1, 0.05)
        let log = Self.log(positions: positions, gain: gain, bias: bias, rng: &rng)
        let (fit, segments) = try AccelerometerCalibrator().fit(times: log.times, accelerations: log.raw)
        #expect(segments.count == 14)
        #expect(fit.model == .full)
        #expect((fit.offset - bias).length < 0.01)
        #expect(relativeDifference(fit.matrix, try #require(gain.inverse)) < 0.002)
    }

    @Test func fiveFacesAreNotEnoughForAxisScales() throws {
        let bias = Vector3(0.1, -0.05, 0.2)
        let positions = Array(Self.sixFaces.prefix(5)).map { $0 * (Self.g * 1.01) + bias }
        // Five positions: only the sphere model (offset, common scale) has enough of them.
        let fit = try AccelerometerCalibrator().fit(positions: positions)
        #expect(fit.model == .sphere)
        #expect((fit.offset - bias).length < 1e-9)
        #expect(abs(fit.matrix[0, 0] - 1 / 1.01) < 1e-9)
        #expect(throws: CalibrationRejection.tooFewSamples(count: 3, needed: 4)) {
            try AccelerometerCalibrator().fit(positions: Array(positions.prefix(3)))
        }
    }

    /// Gyro rates above the limit make a quiet accelerometer not still (a smooth turn).
    @Test func detectorHonoursAngularRate() {
        let times = (0..<500).map { Double($0) * 0.01 }
        let acc = [Vector3](repeating: Vector3(0, 0, 9.8), count: 500)
        let turning = [Vector3](repeating: Vector3(0, 0, 0.5), count: 500)
        let d = StillSegmentDetector()
        #expect(d.segments(times: times, accelerations: acc).count == 1)
        #expect(d.segments(times: times, accelerations: acc, angularRates: turning).isEmpty)
        // Too short a rest is not a position.
        #expect(d.segments(times: Array(times.prefix(50)), accelerations: Array(acc.prefix(50))).isEmpty)
    }
}
