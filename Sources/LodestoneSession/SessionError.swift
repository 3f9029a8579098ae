import LodestoneCalibrationStore
import LodestoneCommandLine
import LodestoneIIO
import LodestoneLogs

/// Why a session could not start or had to stop, with the kind of problem
/// that decides the exit code (the same table for every command: 1 bad input,
/// 2 usage, 3 inaccessible, 4 failure).
public struct SessionError: Error, Sendable, CustomStringConvertible {
    public enum Kind: Sendable {
        /// A bad log, calibration profile or configuration value (exit 1).
        case badInput
        /// Settings that cannot be right whatever the files hold (exit 2).
        case usage
        /// A file, device or socket that cannot be opened (exit 3).
        case inaccessible
        /// A sensor failed while running (exit 4).
        case failure
    }

    public var kind: Kind
    public var description: String

    public init(_ kind: Kind, _ description: String) {
        self.kind = kind
        self.description = description
    }

    /// The kind of a calibration profile's problem.
    public init(_ error: CalibrationFileError) {
        self.init(error.isAccessProblem ? .inaccessible : .badInput, "calibration: \(error)")
    }

    /// The kind of an IIO source's problem: devices that cannot be opened, or sensors that fail.
    public init(_ error: IIOSourceError) {
        switch error {
        case .contextUnavailable, .sensorNotFound, .pinnedDeviceNotFound, .permissionDenied:
            self.init(.inaccessible, error.description)
        case .io, .timeout, .unsupported:
            self.init(.failure, error.description)
        }
    }

    /// The kind of a log's problem: one that cannot be opened, or bad content.
    public init(_ error: LogError) {
        switch error.kind {
        case .cannotOpen, .writeFailed: self.init(.inaccessible, error.description)
        default: self.init(.badInput, error.description)
        }
    }
}

extension ExitCode {
    /// The exit code of a session's problem: the one table of every command.
    public init(_ kind: SessionError.Kind) {
        switch kind {
        case .badInput: self = .badInput
        case .usage: self = .usage
        case .inaccessible: self = .inaccessible
        case .failure: self = .failure
        }
    }
}

extension IIOSourceError: SessionErrorConvertible {
    var sessionError: SessionError { SessionError(self) }
}

extension LogError: SessionErrorConvertible {
    var sessionError: SessionError { SessionError(self) }
}
