import LodestoneCore
import LodestoneIIO

extension IIOSensorSource: SensorHealthReporting {
    /// Two bits per sensor (stuck, saturated), and one for a failed thermometer:
    /// built from flags the source keeps anyway.
    public var healthSignature: UInt32 {
        func bits(_ h: IIOSensorHealth) -> UInt32 { (h.isStuck ? 1 : 0) | (h.isSaturated ? 2 : 0) }
        let d = diagnostics
        let sensors = bits(d.magnetometer) | bits(d.accelerometer) << 2 | (d.gyroscope.map(bits) ?? 0) << 4
        return sensors | (d.thermometerFailure == nil ? 0 : 1 << 6)
    }

    public var healthProblems: [SensorProblem] {
        diagnostics.problems.map { problem in
            switch problem {
            case .stuck: return SensorProblem(.stuck, problem.sentence)
            case .saturated: return SensorProblem(.saturated, problem.sentence)
            case .thermometerFailed: return SensorProblem(.thermometerFailed, problem.sentence)
            }
        }
    }
}

extension HeadingEvent.Reason {
    /// The reason of a `sourceFault` for an error of any source.
    init(faultOf error: any SensorSourceError) {
        guard let e = error as? IIOSourceError else {
            self = .ioError
            return
        }
        switch e {
        case .contextUnavailable: self = .contextUnavailable
        case .sensorNotFound, .pinnedDeviceNotFound: self = .sensorNotFound
        case .permissionDenied: self = .permissionDenied
        case .io: self = .ioError
        case .timeout: self = .noData
        case .unsupported: self = .unsupported
        }
    }
}
