import FuzzSupport
import LodestoneCalibration

// Calibration profiles: what the reader accepts, the writer writes, and reads back the same.
runFuzzer { bytes in
    guard let profile = try? CalibrationProfile(json: bytes) else { return }
    guard let text = try? profile.jsonBytes() else {
        preconditionFailure("a profile that was read does not validate for writing")
    }
    guard let again = try? CalibrationProfile(json: text), let textAgain = try? again.jsonBytes() else {
        preconditionFailure("a written profile cannot be read back")
    }
    precondition(textAgain == text, "a profile changed on a write and read")
}
