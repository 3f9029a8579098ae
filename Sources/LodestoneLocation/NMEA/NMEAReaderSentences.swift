extension NMEAReader {
    /// Applies one sentence to the epoch being assembled; returns the previous epoch
    /// when this sentence starts a new one. Throws for a malformed field.
    static func apply(_ s: NMEASentence, line: Substring, lineNumber: Int,
                      to epoch: inout NMEAEpoch?) throws(NMEAFields.Malformed) -> NMEAEpoch? {
        var completed: NMEAEpoch?
        /// Starts a new epoch when `time` differs from the current one.
        func at(_ time: Double?) {
            guard let time else { return }
            if let current = epoch, current.timeOfDay == time { return }
            completed = epoch
            epoch = NMEAEpoch(timeOfDay: time, line: lineNumber, text: line)
        }
        switch s.type {
        case "RMC":
            // time, status, lat, N/S, lon, E/W, speed (knots), course, date, variation, E/W, mode
            let time = try NMEAFields.timeOfDay(s[0])
            let latitude = try NMEAFields.angle(s[2], hemisphere: s[3], degreeDigits: 2, "latitude")
            let longitude = try NMEAFields.angle(s[4], hemisphere: s[5], degreeDigits: 3, "longitude")
            let knots = try NMEAFields.number(s[6], "speed")
            let course = try NMEAFields.number(s[7], "course")
            let days = try NMEAFields.date(s[8])
            guard s[1] == "A" || s[1] == "V" else { throw NMEAFields.Malformed(message: "status '\(s[1])' is not A or V") }
            at(time)
            guard epoch != nil else { return completed }
            epoch!.days = days ?? epoch!.days
            if s[1] == "V" || s[11] == "N" { epoch!.noFix = true } else { epoch!.hasFix = true }
            epoch!.latitude = epoch!.latitude ?? latitude
            epoch!.longitude = epoch!.longitude ?? longitude
            epoch!.speed = knots.map { $0 * 1852 / 3600 } ?? epoch!.speed
            epoch!.course = course ?? epoch!.course
        case "GGA":
            // time, lat, N/S, lon, E/W, quality, satellites, HDOP, altitude, M, separation, M, …
            let time = try NMEAFields.timeOfDay(s[0])
            let latitude = try NMEAFields.angle(s[1], hemisphere: s[2], degreeDigits: 2, "latitude")
            let longitude = try NMEAFields.angle(s[3], hemisphere: s[4], degreeDigits: 3, "longitude")
            let quality = try NMEAFields.number(s[5], "fix quality")
            let hdop = try NMEAFields.number(s[7], "HDOP")
            let altitude = try NMEAFields.number(s[8], "altitude")
            let separation = try NMEAFields.number(s[10], "geoid separation")
            at(time)
            guard epoch != nil else { return completed }
            if quality == 0 { epoch!.noFix = true } else if quality != nil { epoch!.hasFix = true }
            // GGA's position wins: it comes with the altitude.
            epoch!.latitude = latitude ?? epoch!.latitude
            epoch!.longitude = longitude ?? epoch!.longitude
            epoch!.hdop = hdop ?? epoch!.hdop
            epoch!.altitude = altitude ?? epoch!.altitude
            epoch!.geoidSeparation = separation ?? epoch!.geoidSeparation
        case "GSA":
            // mode A/M, fix type 1/2/3, 12 satellite ids, PDOP, HDOP, VDOP
            let fixType = try NMEAFields.number(s[1], "fix type")
            let hdop = try NMEAFields.number(s[15], "HDOP")
            let vdop = try NMEAFields.number(s[16], "VDOP")
            guard epoch != nil else { return nil }
            if fixType == 1 { epoch!.noFix = true }
            epoch!.hdop = epoch!.hdop ?? hdop
            if fixType == 3 { epoch!.vdop = epoch!.vdop ?? vdop }
        case "GST":
            // time, RMS, σ major, σ minor, orientation, σ lat, σ lon, σ alt
            let time = try NMEAFields.timeOfDay(s[0])
            let sigmaLatitude = try NMEAFields.number(s[5], "latitude error")
            let sigmaLongitude = try NMEAFields.number(s[6], "longitude error")
            let sigmaAltitude = try NMEAFields.number(s[7], "altitude error")
            at(time)
            guard epoch != nil else { return completed }
            epoch!.sigmaLatitude = sigmaLatitude
            epoch!.sigmaLongitude = sigmaLongitude
            epoch!.sigmaAltitude = sigmaAltitude
        case "VTG":
            // course true, T, course magnetic, M, knots, N, km/h, K, mode
            let course = try NMEAFields.number(s[0], "course")
            let knots = try NMEAFields.number(s[4], "speed")
            let kmh = try NMEAFields.number(s[6], "speed")
            guard epoch != nil else { return nil }
            if s[8] == "N" { epoch!.noFix = true }
            epoch!.course = epoch!.course ?? course
            epoch!.speed = epoch!.speed ?? kmh.map { $0 / 3.6 } ?? knots.map { $0 * 1852 / 3600 }
        default:
            return nil
        }
        return completed
    }
}
