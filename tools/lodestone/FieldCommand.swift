#if canImport(Glibc)
import Glibc
#endif
import LodestoneCommandLine
import LodestoneCore
import LodestoneGeomagnetism
import LodestoneSession
import LodestoneLogs

/// `lodestone field`: the geomagnetic field from the bundled World Magnetic Model.
enum FieldCommand: Command {
    static let name = "field"
    static let summary = "Evaluate the bundled World Magnetic Model (WMM2025 or WMMHR2025) at a place and date."
    static let usage = "field --lat LAT --lon LON [options]  |  field --batch [--model M] [--json] [--allow-extrapolation]"
    static let discussion = """
        Prints the field elements X (north), Y (east), Z (down), H, F in nT, I and D in
        degrees, GV (grid variation, defined poleward of 55°), their yearly rates, the
        declination uncertainty (NOAA's error model) and the zone (normal, caution:
        H < 6000 nT, blackout: H < 2000 nT). Heights are above the WGS 84 ellipsoid.
        Dates outside 2025.0–2030.0 are refused unless --allow-extrapolation.

        --batch reads CSV lines year,alt_km,lat,lon from standard input and writes
        year,alt_km,lat,lon,X,Y,Z,H,F,I,D,GV,Xdot,Ydot,Zdot,Hdot,Fdot,Idot,Ddot, the columns
        of NOAA's test-value files (GV is nan where undefined). Lines starting with a
        letter or '#' are headers or comments and are skipped.
        """
    static let options: [CommandLineOption] = [
        .value("lat", "DEG", "Geodetic latitude, degrees north."),
        .value("lon", "DEG", "Longitude, degrees east."),
        .value("alt-km", "KM", "Height above the WGS 84 ellipsoid in km (default 0)."),
        .value("alt-m", "M", "Height above the WGS 84 ellipsoid in metres."),
        .value("date", "YYYY-MM-DD", "Date (default today, UTC)."),
        .value("year", "DECIMAL", "Date as a decimal year, e.g. 2027.5."),
        .value("model", "NAME", "wmm (WMM2025, default) or wmmhr (WMMHR2025)."),
        .flag("allow-extrapolation", "Accept dates and heights outside the model's validity."),
        .flag("json", "Print one JSON object."),
        .flag("batch", "Read year,alt_km,lat,lon lines from standard input; write NOAA-style CSV (with --json, one JSON object a line)."),
    ]

    static func run(_ arguments: CommandLineArguments) throws -> ExitCode {
        _ = try arguments.positionals(required: 0, "")
        let modelName = arguments.string("model") ?? "wmm"
        guard let model = MagneticModelName(argument: modelName)?.model else { throw UsageError("--model must be wmm or wmmhr, got '\(modelName)'") }
        let extrapolate = arguments.flag("allow-extrapolation")
        if arguments.flag("batch") {
            if let given = ["lat", "lon", "alt-km", "alt-m", "date", "year"].first(where: { arguments.string($0) != nil }) {
                throw UsageError("--\(given) does not apply to --batch: each line gives its own year, height and position")
            }
            return try batch(model: model, allowExtrapolation: extrapolate, json: arguments.flag("json"))
        }
        guard let lat = try arguments.double("lat"), let lon = try arguments.double("lon") else {
            throw UsageError("give --lat and --lon (or --batch)")
        }
        let km = try arguments.double("alt-km"), m = try arguments.double("alt-m")
        guard km == nil || m == nil else { throw UsageError("give --alt-km or --alt-m, not both") }
        let height = km ?? (m.map { $0 / 1000 } ?? 0)
        let unixTime = try HeadingFlags.modelDate(arguments) ?? WallClock.now()
        let year = arguments.string("year").flatMap(Double.init) ?? DecimalYear.from(unixTime: unixTime)
        let e: GeomagneticElements
        do {
            e = try model.elements(latitude: lat, longitude: lon, height: height, decimalYear: year,
                                   allowExtrapolation: extrapolate)
        } catch .dateOutsideValidity(let y, let name, let from, let until) {
            throw UsageError("the date \(y) is outside \(name)'s validity \(from)–\(until); add --allow-extrapolation to accept a degraded result")
        } catch .heightOutsideValidity(let h, let name, let lo, let hi) {
            throw UsageError("height \(h) km is outside \(name)'s validity \(lo)–\(hi) km above the ellipsoid; add --allow-extrapolation to accept a degraded result")
        } catch {
            throw UsageError("\(error)")
        }
        print(arguments.flag("json") ? json(e) : text(e), terminator: "")
        return .success
    }

    /// NOAA-style CSV rows, or with `json` one JSON object a line (as `field --json` prints one).
    static func batch(model: GeomagneticModel, allowExtrapolation: Bool, json: Bool) throws -> ExitCode {
        let output = OutputStream(fd: 1)
        defer { output.flush() }
        if !json { output.write(GeomagneticCSV.header + "\n") }
        var lineNumber = 0
        while let raw = readLine(strippingNewline: true) {
            lineNumber += 1
            let line = raw.trimmingSpaces
            guard let first = line.unicodeScalars.first, !(first.properties.isAlphabetic || first == "#") else { continue }
            let fields = line.split(separator: ",", omittingEmptySubsequences: false).map { DecimalParser.parse(String($0)) }
            guard fields.count == 4, let year = fields[0], let alt = fields[1], let lat = fields[2], let lon = fields[3],
                  year.isFinite, alt.isFinite, lat.isFinite, lon.isFinite else {
                output.flush()
                throw CommandFailure(.badInput, "<stdin>:\(lineNumber): expected year,alt_km,lat,lon as four numbers, got '\(line)'")
            }
            do {
                let e = try model.elements(latitude: lat, longitude: lon, height: alt, decimalYear: year,
                                           allowExtrapolation: allowExtrapolation)
                output.write(json ? Self.json(e) : GeomagneticCSV.row(e) + "\n")
            } catch {
                output.flush()
                throw CommandFailure(.badInput, "<stdin>:\(lineNumber): \(error)")
            }
        }
        return .success
    }

    static func text(_ e: GeomagneticElements) -> String {
        func f(_ v: Double, _ d: Int) -> String {
            let json = JSONLineBuilder()
            json.appendNumber(v, decimals: d)
            return json.text
        }
        func hemisphere(_ v: Double, _ pos: String, _ neg: String) -> String { f(abs(v), 4) + "° " + (v >= 0 ? pos : neg) }
        let r = e.yearlyChange
        var s = "\(e.model) at \(hemisphere(e.latitude, "N", "S")), \(hemisphere(e.longitude, "E", "W")), "
        s += "\(f(e.height, 3)) km above the WGS 84 ellipsoid, year \(f(e.decimalYear, 4))"
        s += e.isExtrapolated ? " (EXTRAPOLATED: outside the model's validity)\n" : "\n"
        let rows: [(String, String, String)] = [
            ("Declination (D)", hemisphere(e.declination, "E", "W") + "  ± \(f(e.declinationUncertainty, 2))°", f(r.declination, 4) + " °/yr"),
            ("Inclination (I)", f(e.inclination, 4) + "°", f(r.inclination, 4) + " °/yr"),
            ("North (X)", f(e.north, 1) + " nT", f(r.north, 1) + " nT/yr"),
            ("East (Y)", f(e.east, 1) + " nT", f(r.east, 1) + " nT/yr"),
            ("Down (Z)", f(e.down, 1) + " nT", f(r.down, 1) + " nT/yr"),
            ("Horizontal (H)", f(e.horizontalIntensity, 1) + " nT", f(r.horizontalIntensity, 1) + " nT/yr"),
            ("Total (F)", f(e.totalIntensity, 1) + " nT", f(r.totalIntensity, 1) + " nT/yr"),
            ("Grid variation (GV)", e.gridVariation.map { f($0, 4) + "°" } ?? "undefined (|lat| < 55°)", ""),
        ]
        for (name, value, rate) in rows {
            s += "  " + name.padded(to: 21)
                + value.padded(to: 26) + rate + "\n"
        }
        switch e.zone {
        case .normal: s += "  Zone: normal\n"
        case .caution: s += "  Zone: CAUTION (H < 6000 nT): compass heading is degraded near the magnetic pole\n"
        case .blackout: s += "  Zone: BLACKOUT (H < 2000 nT): compass heading is unreliable; true heading is not given\n"
        }
        return s
    }

    static func json(_ e: GeomagneticElements) -> String {
        let j = JSONLineBuilder()
        let r = e.yearlyChange
        j.beginObject()
        j.string("model", e.model)
        j.number("latitude", e.latitude, decimals: 6)
        j.number("longitude", e.longitude, decimals: 6)
        j.number("heightKm", e.height, decimals: 6)
        j.number("decimalYear", e.decimalYear, decimals: 6)
        j.number("X", e.north, decimals: 3)
        j.number("Y", e.east, decimals: 3)
        j.number("Z", e.down, decimals: 3)
        j.number("H", e.horizontalIntensity, decimals: 3)
        j.number("F", e.totalIntensity, decimals: 3)
        j.number("I", e.inclination, decimals: 6)
        j.number("D", e.declination, decimals: 6)
        j.number("GV", e.gridVariation, decimals: 6)
        j.number("Xdot", r.north, decimals: 3)
        j.number("Ydot", r.east, decimals: 3)
        j.number("Zdot", r.down, decimals: 3)
        j.number("Hdot", r.horizontalIntensity, decimals: 3)
        j.number("Fdot", r.totalIntensity, decimals: 3)
        j.number("Idot", r.inclination, decimals: 6)
        j.number("Ddot", r.declination, decimals: 6)
        j.number("declinationUncertainty", e.declinationUncertainty, decimals: 4)
        j.string("zone", e.zone.rawValue)
        j.bool("trueHeadingReliable", e.isTrueHeadingReliable)
        j.bool("extrapolated", e.isExtrapolated)
        j.endObject()
        return j.text
    }
}
