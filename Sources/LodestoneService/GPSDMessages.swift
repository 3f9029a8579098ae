import LodestoneCore
import LodestoneLogs

/// gpsd's objects (gpsd_json(5)) for gpsd clients: ATT, WATCH, DEVICES and VERSION's keys.
///
/// As gpsd does, they never carry `null` (a value not known is left out) and end in
/// CR LF. gpsd's C library (3.22) ignores keys it does not know, so Lodestone's own keys
/// may stay in an object; it refuses classes it does not know.
enum GPSDMessages {
    /// The gpsd protocol version whose objects these are (gpsd 3.22's, Debian 12).
    static let protocolMajor = 3, protocolMinor = 14

    /// gpsd's VERSION keys, in the VERSION every client gets on connect.
    static func versionKeys(_ j: JSONLineBuilder, release: String) {
        j.string("rev", "lodestone \(release)")
        j.integer("proto_major", protocolMajor)
        j.integer("proto_minor", protocolMinor)
    }

    /// The answer to a gpsd client's `?WATCH`, with gpsd's keys in gpsd's order.
    static func watch(_ j: JSONLineBuilder, enable: Bool, _ w: GPSDWatch, headingFilter: Double) {
        j.beginObject()
        j.string("class", "WATCH")
        j.bool("enable", enable)
        j.bool("json", w.json)
        j.bool("nmea", w.nmea)
        j.integer("raw", 0)
        for key: StaticString in ["scaled", "timing", "split24", "pps"] { j.bool(key, false) }
        j.number("headingFilter", headingFilter, decimals: 3)
        j.endObjectCRLF()
    }

    /// What an ATT needs beside the heading.
    struct Context {
        /// gpsd's `device`: the magnetometer's path.
        var device: String
        var attitude: HeadingAttitude
        /// The sample the heading came from (acceleration and angular rate).
        var acceleration: Vector3
        var angularRate: Vector3?
        var magnetometerStatus: MagnetometerStatus
    }

    /// `{"class":"ATT",…}`: true heading (`heading`, left out without a position),
    /// magnetic heading (`mheading`, and `yaw`: the attitude's rotation about the vertical
    /// is from magnetic north), pitch and roll (``Tilt``), the measured dip, the calibrated
    /// field in µT and the acceleration in m/s², body frame (x right, y forward, z up),
    /// angular rate in °/s. An invalid heading leaves out the three headings.
    static func att(_ j: JSONLineBuilder, _ h: Heading, _ c: Context, time: Double) {
        j.beginObject()
        j.string("class", "ATT")
        j.string("device", c.device)
        j.time("time", unixSeconds: time)
        if h.isValid {
            if let t = h.trueHeading { j.number("heading", t, decimals: 2) }
            j.number("mheading", h.magneticHeading, decimals: 2)
        }
        j.string("mag_st", c.magnetometerStatus.rawValue)
        j.number("pitch", c.attitude.tilt.pitch, decimals: 2)
        j.number("roll", c.attitude.tilt.roll, decimals: 2)
        if h.isValid { j.number("yaw", h.magneticHeading, decimals: 2) }
        j.number("dip", c.attitude.dip, decimals: 2)
        j.number("mag_len", c.attitude.fieldStrength, decimals: 3)
        j.number("mag_x", h.x, decimals: 3)
        j.number("mag_y", h.y, decimals: 3)
        j.number("mag_z", h.z, decimals: 3)
        let a = c.acceleration
        j.number("acc_len", a.length, decimals: 4)
        j.number("acc_x", a.x, decimals: 4)
        j.number("acc_y", a.y, decimals: 4)
        j.number("acc_z", a.z, decimals: 4)
        if let g = c.angularRate {
            j.number("gyro_x", g.x * Angle.degreesPerRadian, decimals: 3)
            j.number("gyro_y", g.y * Angle.degreesPerRadian, decimals: 3)
            j.number("gyro_z", g.z * Angle.degreesPerRadian, decimals: 3)
        }
        j.endObjectCRLF()
    }

    /// gpsd's `mag_st`, in the codes gpsd documents for TNT Revolution compasses.
    enum MagnetometerStatus: String {
        /// Nothing wrong.
        case normal = "N"
        /// A calibration is needed (`calibrationNeeded` in force), or the heading is invalid.
        case calibration = "C"
        /// A magnetic disturbance with a field weaker than the model expects ("low alarm").
        case low = "L"
        /// A magnetic disturbance with a field stronger than expected, or of unknown kind ("high alarm").
        case high = "P"

        init(_ h: Heading, attitude: HeadingAttitude, inForce: EventsInForce) {
            if !h.isValid || inForce.contains("calibrationNeeded") {
                self = .calibration
            } else if inForce.contains("magneticDisturbance") {
                let expected = attitude.expectedField
                self = expected.map { attitude.fieldStrength < $0 } == true ? .low : .high
            } else {
                self = .normal
            }
        }
    }
}
