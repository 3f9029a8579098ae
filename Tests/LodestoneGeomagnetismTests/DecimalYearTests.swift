import Testing
@testable import LodestoneGeomagnetism

/// Decimal years by NOAA's convention; expected values are from NOAA's
/// `geomaglib` 1.2.4 `util.calc_dec_year` (the code behind wmm-calculator).
@Suite struct DecimalYearTests {
    @Test func calendarDates() throws {
        #expect(try DecimalYear.from(year: 2025, month: 1, day: 1) == 2025.0)
        #expect(try DecimalYear.from(year: 2028, month: 7, day: 1) == 2028.4972677595629)
        #expect(try DecimalYear.from(year: 2026, month: 12, day: 31) == 2026.9972602739726)
        #expect(try DecimalYear.from(year: 2024, month: 2, day: 29) == 2024.1612021857923)
    }

    @Test func impossibleDatesThrow() {
        #expect(throws: GeomagneticError.invalidCalendarDate(year: 2025, month: 2, day: 29)) {
            try DecimalYear.from(year: 2025, month: 2, day: 29)
        }
        #expect(throws: GeomagneticError.invalidCalendarDate(year: 2100, month: 2, day: 29)) {
            try DecimalYear.from(year: 2100, month: 2, day: 29)
        }
        #expect(throws: GeomagneticError.invalidCalendarDate(year: 2026, month: 13, day: 1)) {
            try DecimalYear.from(year: 2026, month: 13, day: 1)
        }
        #expect(throws: GeomagneticError.invalidCalendarDate(year: 2026, month: 4, day: 31)) {
            try DecimalYear.from(year: 2026, month: 4, day: 31)
        }
    }

    @Test func unixTimes() {
        // 2025-01-01T00:00:00Z
        #expect(DecimalYear.from(unixTime: 1_735_689_600) == 2025.0)
        // 2025-07-01T12:30:15Z
        #expect(abs(DecimalYear.from(unixTime: 1_751_373_015) - 2025.497317827245) < 1e-12)
        // 1969-12-31T18:00:00Z
        #expect(abs(DecimalYear.from(unixTime: -21_600) - 1969.9993150684932) < 1e-12)
        // 2000-02-29T06:00:00Z (a leap day of a year divisible by 400)
        #expect(abs(DecimalYear.from(unixTime: 951_804_000) - 2000.1618852459017) < 1e-12)
        #expect(DecimalYear.from(unixTime: .nan).isNaN)
    }

    @Test func unixTimeAgreesWithCalendarAtEveryMidnightOf2025To2030() throws {
        var unixTime = 1_735_689_600.0  // 2025-01-01
        for year in 2025...2030 {
            for month in 1...12 {
                for day in 1...DecimalYear.daysIn(month: month, year: year) {
                    #expect(DecimalYear.from(unixTime: unixTime) == (try DecimalYear.from(year: year, month: month, day: day)))
                    unixTime += 86_400
                }
            }
        }
    }
}
