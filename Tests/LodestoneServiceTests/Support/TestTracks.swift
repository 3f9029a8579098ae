import Foundation

/// NMEA 0183 tracks with known truth for the location tests: fixes along the meridian
/// 8° E, written with seven decimals of a minute (0.2 mm), so that distances are known
/// from the meridian arc alone.
enum TestTracks {
    static let longitude = 8.0
    static let day = "011226"

    /// One fix: latitude (degrees), speed (m/s), time (seconds after 12:00:00), HDOP.
    struct Fix {
        var latitude: Double
        var speed: Double
        var second: Int
        var hdop = 0.9
    }

    static func sentence(_ body: String) -> String {
        "$" + body + "*" + String(format: "%02X", body.utf8.reduce(UInt8(0), ^)) + "\r\n"
    }

    /// RMC and GGA for each fix; course 0 (north); 400 m above mean sea level, geoid 48 m.
    static func nmea(_ fixes: [Fix]) -> String {
        fixes.map { f in
            let h = 12 + f.second / 3600, m = f.second / 60 % 60, s = f.second % 60
            let t = String(format: "%02d%02d%02d.00", h, m, s)
            let degrees = Int(f.latitude), minutes = (f.latitude - Double(degrees)) * 60
            let lat = String(format: "%02d%010.7f", degrees, minutes)
            let knots = String(format: "%.4f", f.speed * 3600 / 1852)
            return sentence("GPRMC,\(t),A,\(lat),N,00800.0000000,E,\(knots),0.0,\(day),,,A")
                + sentence("GPGGA,\(t),\(lat),N,00800.0000000,E,1,08,\(f.hdop),400.0,M,48.0,M,,")
        }.joined()
    }

    /// The latitude as written (rounded to the 0.0000001' of the sentence).
    static func written(_ latitude: Double) -> Double {
        let degrees = Double(Int(latitude))
        return degrees + ((latitude - degrees) * 60 * 1e7).rounded() / 1e7 / 60
    }

    /// Metres along the WGS 84 meridian from `a` to `b` (degrees; b > a), by Simpson's rule on
    /// the meridian radius of curvature M(φ) = a(1 − e²)/(1 − e² sin²φ)^{3/2}: exact to far
    /// below a millimetre over a few kilometres.
    static func meridianArc(_ a: Double, _ b: Double) -> Double {
        let major = 6_378_137.0, f = 1 / 298.257223563, e2 = f * (2 - f)
        func m(_ phi: Double) -> Double {
            let s = sin(phi * .pi / 180)
            return major * (1 - e2) / pow(1 - e2 * s * s, 1.5)
        }
        let n = 16
        let h = (b - a) / Double(n)
        var sum = m(a) + m(b)
        for i in 1..<n { sum += (i % 2 == 1 ? 4 : 2) * m(a + Double(i) * h) }
        return sum * h / 3 * .pi / 180
    }

    /// Degrees of latitude for `metres` north of `latitude` along the meridian (Newton on the arc).
    static func latitude(_ metres: Double, northOf latitude: Double) -> Double {
        var x = latitude + metres / 111_200
        for _ in 0..<4 { x -= (meridianArc(latitude, x) - metres) / 111_200 }
        return x
    }
}
