import Testing
@testable import LodestoneLocation

@Suite struct NMEAReaderTests {
    /// `$body*hh` with the checksum computed here (XOR of the body's bytes).
    static func sentence(_ body: String) -> String {
        let sum = body.utf8.reduce(UInt8(0)) { $0 ^ $1 }
        let hex = String(sum, radix: 16, uppercase: true)
        return "$" + body + "*" + (hex.count == 1 ? "0" + hex : hex)
    }

    static func read(_ lines: [String], settings: NMEAReader.Settings = .init()) throws -> [Location] {
        try NMEAReader.locations(in: lines.joined(separator: "\r\n"), settings: settings).locations
    }

    static func error(_ lines: [String], settings: NMEAReader.Settings = .init()) -> NMEAError? {
        do {
            _ = try NMEAReader.locations(in: lines.joined(separator: "\n"), settings: settings)
            return nil
        } catch {
            return error
        }
    }

    /// The textbook sentences (checksums as published) make one fix.
    @Test func oneEpochOfPublishedSentences() throws {
        let fixes = try Self.read([
            "$GPRMC,123519,A,4807.038,N,01131.000,E,022.4,084.4,230394,003.1,W*6A",
            "$GPVTG,054.7,T,034.4,M,005.5,N,010.2,K*48",
            "$GPGGA,123519,4807.038,N,01131.000,E,1,08,0.9,545.4,M,46.9,M,,*47",
            "$GPGSA,A,3,04,05,,09,12,,,24,,,,,2.5,1.3,2.1*39",
        ])
        #expect(fixes.count == 1)
        let fix = try #require(fixes.first)
        #expect(abs(fix.latitude - (48 + 7.038 / 60)) < 1e-12)
        #expect(abs(fix.longitude - (11 + 31.0 / 60)) < 1e-12)
        #expect(fix.altitude == 545.4)
        #expect(abs(try #require(fix.ellipsoidalAltitude) - 592.3) < 1e-9)
        // 22.4 knots from RMC (VTG only fills what RMC left out); course 84.4° from RMC.
        #expect(abs(try #require(fix.speed) - 22.4 * 1852 / 3600) < 1e-12)
        #expect(fix.course == 84.4)
        // No GST: HDOP 0.9 (GGA) × 5 m; VDOP 2.1 × 5 m.
        #expect(abs(try #require(fix.horizontalAccuracy) - 4.5) < 1e-12)
        #expect(abs(try #require(fix.verticalAccuracy) - 10.5) < 1e-12)
        // 1994-03-23T12:35:19Z
        #expect(fix.timestamp == 764_426_119)
    }

    @Test func gstGivesTheAccuracy() throws {
        let fixes = try Self.read([
            Self.sentence("GNRMC,000001.50,A,3352.1280,S,15112.5580,E,0.0,,010126,,,A"),
            Self.sentence("GNGGA,000001.50,3352.1280,S,15112.5580,E,4,20,0.6,12.0,M,22.0,M,1.0,0000"),
            "$GPGST,000001.50,0.006,0.023,0.020,273.6,0.023,0.020,0.031*" + String(Self.sentence("GPGST,000001.50,0.006,0.023,0.020,273.6,0.023,0.020,0.031").suffix(2)),
        ])
        let fix = try #require(fixes.first)
        #expect(abs(fix.latitude + (33 + 52.128 / 60)) < 1e-12 && abs(fix.longitude - (151 + 12.558 / 60)) < 1e-12)
        #expect(abs(try #require(fix.horizontalAccuracy) - (0.023 * 0.023 + 0.020 * 0.020).squareRoot()) < 1e-12)
        #expect(fix.verticalAccuracy == 0.031)
        #expect(fix.timestamp == 1_767_225_601.5)  // 2026-01-01T00:00:01.5Z
        #expect(fix.speed == 0 && fix.course == nil)
    }

    @Test func eachTimeOfDayIsOneFixAndMidnightAdvancesTheDate() throws {
        var lines = [Self.sentence("GPRMC,235959,A,0100.000,S,00100.000,W,1.0,180.0,311226,,")]
        lines.append(Self.sentence("GPGGA,235959,0100.000,S,00100.000,W,1,05,1.2,10,M,,M,,"))
        // After midnight only GGA: the date moves to the next day (and the year).
        lines.append(Self.sentence("GPGGA,000000,0100.001,S,00100.000,W,1,05,1.2,10,M,,M,,"))
        lines.append(Self.sentence("GPGGA,000001,0100.002,S,00100.000,W,1,05,1.2,10,M,,M,,"))
        let fixes = try Self.read(lines)
        #expect(fixes.map(\.timestamp) == [1_798_761_599, 1_798_761_600, 1_798_761_601])
        #expect(fixes[0].latitude == -1 && fixes[0].longitude == -1 && fixes[0].course == 180)
        #expect(fixes[1].speed == nil, "GGA has no speed")
    }

    @Test func noFixEpochsGiveNoLocation() throws {
        let fixes = try Self.read([
            Self.sentence("GPRMC,100000,V,,,,,,,010126,,"),
            Self.sentence("GPGGA,100001,5000.000,N,00800.000,E,0,00,,,M,,M,,"),
            Self.sentence("GPRMC,100002,A,5000.000,N,00800.000,E,0.1,,010126,,,N"),
            Self.sentence("GPGGA,100003,5000.000,N,00800.000,E,1,04,2.0,100,M,,M,,"),
            Self.sentence("GPGSA,A,1,,,,,,,,,,,,,,,"),
            Self.sentence("GPGGA,100004,5000.000,N,00800.000,E,1,04,2.0,100,M,,M,,"),
        ])
        #expect(fixes.map(\.timestamp) == [1_767_261_604])
    }

    @Test func otherSentencesAreSkipped() throws {
        let fixes = try Self.read([
            Self.sentence("GPGSV,3,1,11,03,03,111,00,04,15,270,00,06,01,010,00,13,06,292,00"),
            Self.sentence("GPTXT,01,01,02,ANTSTATUS=OK"),
            "$PUBX,00,081350.00,4717.113210,N,00833.915187,E,546.589,G3,2.1,2.0,0.007,77.52,0.007,,0.92,1.19,0.77,9,0,0*5F",
            "!AIVDM,1,1,,A,13aEOK?P00PD2wVMdLDRhgvL289?,0*26",
            "",
            Self.sentence("GPRMC,081350,A,4717.113,N,00833.915,E,0.0,,150526,,"),
        ])
        #expect(fixes.count == 1)
    }

    @Test func dateFromSettingsWhenTheLogHasNoRMC() throws {
        let lines = [Self.sentence("GPGGA,060000,4000.000,N,07400.000,W,1,05,1.0,10,M,,M,,")]
        let error = try #require(Self.error(lines))
        #expect(error.line == 1 && error.message.contains("no date"))
        let fixes = try Self.read(lines, settings: .init(startDate: 1_767_225_600))
        #expect(fixes.map(\.timestamp) == [1_767_225_600 + 6 * 3600])
    }

    @Test(arguments: [
        ("$GPRMC,123519,A,4807.038,N,01131.000,E,022.4,084.4,230394,003.1,W*6B", "checksum 6B does not match the computed 6A"),
        ("$GPRMC,123519,A,4807.038,N,01131.000,E,022.4,084.4,230394,003.1,W", "no checksum"),
        ("GPRMC,123519,A", "not an NMEA sentence"),
        (sentence("GPRM,123519,A"), "the address must be"),
        (sentence("GPRMC,123519,A,48x7.038,N,01131.000,E,,,230394,,"), "RMC: latitude '48x7.038' is not ddmm.mmmm"),
        (sentence("GPRMC,123519,A,9107.038,N,01131.000,E,,,230394,,"), "RMC: latitude '9107.038' is beyond 90°"),
        (sentence("GPRMC,123519,A,4860.000,N,01131.000,E,,,230394,,"), "RMC: latitude '4860.000' is not ddmm.mmmm"),
        (sentence("GPRMC,123519,A,4807.038,X,01131.000,E,,,230394,,"), "RMC: latitude hemisphere 'X' is not N or S"),
        (sentence("GPRMC,123519,A,4807.038,N,18131.000,E,,,230394,,"), "RMC: longitude '18131.000' is beyond 180°"),
        (sentence("GPRMC,123519,A,4807.038,N,01131.000,E,,,310294,,"), "RMC: date '310294' is not a valid ddmmyy"),
        (sentence("GPRMC,253519,A,4807.038,N,01131.000,E,,,230394,,"), "RMC: time '253519' is not hhmmss.ss"),
        (sentence("GPRMC,123519,Q,4807.038,N,01131.000,E,,,230394,,"), "RMC: status 'Q' is not A or V"),
        (sentence("GPGGA,123519,4807.038,N,01131.000,E,1,08,0.9,5e4,M,46.9,M,,"), "GGA: altitude '5e4' is not a number"),
        (sentence("GPVTG,054.7,T,034.4,M,fast,N,010.2,K"), "VTG: speed 'fast' is not a number"),
    ])
    func badLinesAreNamed(line: String, message: String) throws {
        let lines = [Self.sentence("GPRMC,123518,A,4807.038,N,01131.000,E,022.4,084.4,230394,003.1,W"), line]
        let error = try #require(Self.error(lines))
        #expect(error.line == 2)
        #expect(error.message.hasPrefix(message), "\(error)")
        #expect(error.description.hasPrefix("line 2 (\(line.prefix(100)))"))
    }

    @Test func badLinesCanBeSkipped() throws {
        let text = [
            Self.sentence("GPRMC,120000,A,4807.038,N,01131.000,E,1,90,230394,,"),
            "$GPRMC,120001,A,4807.038,N,01131.000,E,1,90,230394,,*00",
            Self.sentence("GPRMC,120002,A,4807.038,N,01131.000,E,1,90,230394,,"),
        ].joined(separator: "\n")
        let result = try NMEAReader.locations(in: text, stopAtFirstError: false)
        #expect(result.locations.count == 2 && result.errors.map(\.line) == [2])
        #expect(throws: NMEAError.self) { try NMEAReader.locations(in: text) }
    }

    @Test func checksumCanBeOptional() throws {
        let fixes = try Self.read(["$GPRMC,123519,A,4807.038,N,01131.000,E,022.4,084.4,230394,003.1,W"],
                                  settings: .init(requireChecksum: false))
        #expect(fixes.count == 1)
        #expect(throws: LocationSettingError.self) { try NMEAReader(settings: .init(userRangeError: 0)) }
        #expect(throws: LocationSettingError.self) { try NMEAReader(settings: .init(startDate: 1000)) }
    }
}
