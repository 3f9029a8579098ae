#if canImport(Glibc)
import Glibc
#endif
import LodestoneCalibration
import LodestoneCalibrationStore
import LodestoneCommandLine
import LodestoneCore
import LodestoneSimulation

/// `lodestone simulate --battery DIR`: every case of the scenario battery (the
/// one the test suite runs in process) as a native log with gyroscope, truth and
/// `movement` columns (and ground speed where the case has it), plus the
/// magnetometer profile its user would have, NAME.profile.json, to pass to
/// `evaluate --calibration`.
enum BatteryExport {
    static func run(directory: String, only: String?) throws -> [SimulatedLog.Report] {
        var cases = SimulationBattery.cases
        if let only {
            let names = only.split(separator: ",").map(String.init)
            for n in names where SimulationBattery.named(n) == nil {
                throw UsageError("--cases: unknown case '\(n)'; the battery has \(SimulationBattery.cases.map(\.name).joined(separator: ", "))")
            }
            cases = cases.filter { names.contains($0.name) }
        }
        if mkdir(directory, 0o755) != 0, errno != EEXIST {
            throw CommandFailure(.inaccessible, "\(directory): cannot create the directory: \(String(cString: strerror(errno)))")
        }
        var reports: [SimulatedLog.Report] = []
        for c in cases {
            let log = SimulatedLog(gyroscope: true, truth: true, native: true, seed: c.seed)
            reports.append(try log.write(c.recording(), to: "\(directory)/\(c.name).lslog"))
            try writeProfile(c, to: "\(directory)/\(c.name).profile.json")
        }
        return reports
    }

    /// An identity correction with the quality the case's calibration reports.
    static func writeProfile(_ c: BatteryCase, to path: String) throws {
        let status = c.calibrationStatus
        let profile = CalibrationProfile(
            sensor: .magnetometer, device: .init(name: "simulated board"), created: "2026-01-01T00:00:00Z",
            parameters: .init(unit: "uT", offset: .zero, matrix: .identity),
            quality: .init(model: .full, grade: .good, fitErrorPercent: status.fitErrorPercent,
                           residualRMS: status.fitErrorPercent / 100 * status.fieldStrength,
                           fittedMagnitude: status.fieldStrength, expectedMagnitude: status.fieldStrength,
                           coveragePercent: status.coveragePercent, sampleCount: 2000, outlierCount: 0, dip: status.dip))
        do {
            try AtomicFile.write(try profile.jsonBytes(), to: path)
        } catch {
            throw CommandFailure(.inaccessible, "\(path): cannot write the profile: \(error)")
        }
    }
}
