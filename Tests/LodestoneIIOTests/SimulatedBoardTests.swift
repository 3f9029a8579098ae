import Foundation
import Testing
import LodestoneCore
import LodestoneIIO
import LodestoneSimulatedBoard
import LodestoneTestSupport

/// Integration: every layout × capture mode × backend, through libiio on a fake sysfs
/// in a private namespace. Fails in CI when namespaces cannot be made, skips elsewhere.
@Suite(.serialized, .enabled(if: Probe.problem == nil || SharedData.isInCI, "skipped: \(Probe.problem ?? "")"))
struct SimulatedBoardTests {
    /// A static attitude away from every axis: yaw 37°, pitch 12°, roll −21°.
    static let attitude = Quaternion(axis: .unitZ, angle: 37 * Angle.radiansPerDegree)
        * Quaternion(axis: .unitX, angle: 12 * Angle.radiansPerDegree)
        * Quaternion(axis: .unitY, angle: -21 * Angle.radiansPerDegree)

    static let cases: [(String, IIOCaptureMode, SimulatedBoard.Backend)] = SimulatedLayout.all.flatMap { l in
        [IIOCaptureMode.buffered, .polled].flatMap { m in SimulatedBoard.Backend.allCases.map { (l.id, m, $0) } }
    }

    func requireNamespace() throws {
        try #require(Probe.problem == nil, "namespace tests cannot run: \(Probe.problem ?? "")")
    }

    /// Per-axis units per count of the magnetometer and accelerometer in the layout.
    func resolution(_ layout: SimulatedLayout, _ kind: IIOSensorKind) -> Double {
        layout.parts.flatMap(\.sensors).first { $0.kind == kind }.map { s in
            s.scaleText.map { (IIOText.double($0) ?? 0) * s.physicalScaleFactor * kind.unitFactor }.max()!
        } ?? 0
    }

    func check(_ run: ProbeRun, board: SimulatedBoard, count: Int, label: String) {
        #expect(run.exitCode == 0, "\(label): exit \(run.exitCode), errors \(run.errors.map(\.text)), stderr \(run.stderr.suffix(600))")
        #expect(run.samples.count == count, "\(label): \(run.samples.count) samples")
        guard !run.samples.isEmpty else { return }
        let truth = board.bodyTruth()
        let layout = board.layout
        // Quantisation ±0.5 count plus dither ±noise counts on each axis.
        let magTol = (board.noise + 0.5) * resolution(layout, .magnetometer) * 3.0.squareRoot() * 1.01
        let accTol = (board.noise + 0.5) * resolution(layout, .accelerometer) * 3.0.squareRoot() * 1.01
        var worstM = 0.0, worstA = 0.0
        var mSum = Vector3.zero, aSum = Vector3.zero
        for s in run.samples {
            worstM = max(worstM, (s.m - truth.magneticField).length)
            worstA = max(worstA, (s.a - truth.acceleration).length)
            mSum += s.m
            aSum += s.a
        }
        #expect(worstM <= magTol, "\(label): magnetometer off by \(worstM) µT (tolerance \(magTol)); truth \(truth.magneticField), first \(run.samples[0].m)")
        #expect(worstA <= accTol, "\(label): accelerometer off by \(worstA) m/s² (tolerance \(accTol)); truth \(truth.acceleration), first \(run.samples[0].a)")
        let n = Double(run.samples.count)
        let h = heading(magneticField: mSum / n, acceleration: aSum / n)
        let hTruth = heading(magneticField: truth.magneticField, acceleration: truth.acceleration)
        let headingError = abs(Angle.difference(from: hTruth, to: h))
        print("measured \(label): heading error \(headingError)° over \(run.samples.count) samples, worst |Δm| \(worstM) µT, worst |Δa| \(worstA) m/s²")
        #expect(headingError <= 0.2, "\(label): heading \(h)° vs truth \(hTruth)°")
        let times = run.samples.map(\.t)
        #expect(times.first == 0, "\(label): first time \(times.first ?? -1)")
        #expect(zip(times, times.dropFirst()).allSatisfy { $0 <= $1 }, "\(label): times go backwards")
        #expect(abs(run.samples[0].wall - Date().timeIntervalSince1970) < 120, "\(label): startWallClock \(run.samples[0].wall)")
    }

    @Test(arguments: cases)
    func samplesMatchTruth(layoutID: String, mode: IIOCaptureMode, backend: SimulatedBoard.Backend) throws {
        try requireNamespace()
        let layout = try #require(SimulatedLayout.named(layoutID))
        let board = try SimulatedBoard(layout: layout, attitude: Self.attitude)
        defer { board.remove() }
        board.start()
        let count = 40
        let run = try Probe.run(board, backend: backend, arguments: ["--mode", mode.rawValue, "--rate", "100", "--count", String(count)])
        check(run, board: board, count: count, label: "\(layoutID) \(mode) \(backend)")
        #expect(run.metadata["mode"] as? String == mode.rawValue)
        if board.layout.parts.flatMap(\.sensors).contains(where: { $0.kind == .gyroscope }) {
            #expect(run.samples.allSatisfy { $0.g != nil }, "gyroscope missing")
        }
    }

    @Test(arguments: SimulatedLayout.all.map(\.id))
    func boardRotation90(layoutID: String) throws {
        try requireNamespace()
        let layout = try #require(SimulatedLayout.named(layoutID))
        let board = try SimulatedBoard(layout: layout, attitude: Self.attitude, boardRotation: BoardRotation.aboutZ(degrees: 90))
        defer { board.remove() }
        board.start()
        let run = try Probe.run(board, backend: .local, arguments: ["--mode", "buffered", "--rate", "100", "--count", "40", "--board-rotation", "90"])
        check(run, board: board, count: 40, label: "\(layoutID) rotated 90°")
    }
}
