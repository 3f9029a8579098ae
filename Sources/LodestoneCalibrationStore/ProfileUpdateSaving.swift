import LodestoneCalibration

extension CalibrationProfileStore {
    /// What became of a profile changed by online hard-iron tracking.
    public enum UpdateSaveResult: Sendable {
        /// Written atomically over the file it was loaded from.
        case saved(path: String)
        /// Not written: the file no longer holds the profile the update started
        /// from (recalibrated meanwhile, or changed by another process), or it
        /// cannot be read. A newer profile is never overwritten.
        case fileChanged(path: String, reason: String)
        /// Writing failed; the file is unchanged.
        case failed(CalibrationFileError)
        /// No profile file is in use: the update lives in memory only.
        case noFile

        /// The end of the `calibrationUpdated` event's detail.
        public var sentence: String {
            switch self {
            case .saved(let path): return "saved to \(path)"
            case .fileChanged(let path, let reason): return "not saved: \(path) \(reason); it is left as it is"
            case .failed(let error): return "not saved: \(error)"
            case .noFile: return "kept in memory only: no calibration profile file is in use (run 'lodestone calibrate' to make one)"
            }
        }

        public var isSaved: Bool {
            if case .saved = self { return true }
            return false
        }
    }

    /// Writes `profile` atomically (`save`) over `path`, but only if the file
    /// still holds `previous`, the profile the update started from.
    public static func saveUpdate(_ profile: CalibrationProfile, replacing previous: CalibrationProfile, at path: String,
                                  options: AtomicFile.Options = AtomicFile.Options()) -> UpdateSaveResult {
        let current: CalibrationProfile
        do {
            current = try load(path: path, sensor: previous.sensor)
        } catch {
            return .fileChanged(path: path, reason: "cannot be read back (\(error.kindDescription))")
        }
        guard current.holdsSameCalibration(as: previous) else {
            return .fileChanged(path: path, reason: "has changed since it was loaded (made \(current.created))")
        }
        do {
            try save(profile, to: path, options: options)
        } catch {
            return .failed(error)
        }
        return .saved(path: path)
    }
}

extension AutoCalibration.Adoption {
    /// Saves the updated profile over `path` (``CalibrationProfileStore/saveUpdate(_:replacing:at:options:)``);
    /// `.noFile` when no profile file is in use.
    public func save(to path: String?, options: AtomicFile.Options = AtomicFile.Options()) -> CalibrationProfileStore.UpdateSaveResult {
        guard let path, let profile, let previousProfile else { return .noFile }
        return CalibrationProfileStore.saveUpdate(profile, replacing: previousProfile, at: path, options: options)
    }
}

extension CalibrationProfile {
    /// Same sensor, date and correction (to rounding in the last digits): the
    /// file is still the one that was loaded, or last written by us.
    func holdsSameCalibration(as other: CalibrationProfile) -> Bool {
        func close(_ a: Double, _ b: Double) -> Bool { abs(a - b) <= 1e-9 * max(1, abs(a), abs(b)) }
        let a = parameters, b = other.parameters
        let m = [a.matrix.row0, a.matrix.row1, a.matrix.row2, a.offset], n = [b.matrix.row0, b.matrix.row1, b.matrix.row2, b.offset]
        return sensor == other.sensor && created == other.created && quality.update?.time == other.quality.update?.time
            && zip(m, n).allSatisfy { close($0.x, $1.x) && close($0.y, $1.y) && close($0.z, $1.z) }
    }
}

extension CalibrationFileError {
    /// The description without the path in front.
    var kindDescription: String {
        let text = description
        return text.hasPrefix(path + ": ") ? String(text.dropFirst(path.count + 2)) : text
    }
}
