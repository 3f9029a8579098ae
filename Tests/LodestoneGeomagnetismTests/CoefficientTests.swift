import Foundation
import LodestoneTestSupport
import Testing
@testable import LodestoneGeomagnetism

/// The bundled coefficients are NOAA's, number for number.
@Suite struct CoefficientTests {
    @Test func knownCoefficients() {
        // First and last rows of NOAA's WMM.COF and WMMHR.COF.
        let wmm = GeomagneticModel.wmm2025.table
        #expect(wmm.coefficients(n: 1, m: 0) == (-29351.8, 0, 12.0, 0))
        #expect(wmm.coefficients(n: 1, m: 1) == (-1410.8, 4545.4, 9.7, -21.5))
        #expect(wmm.coefficients(n: 12, m: 12) == (-0.7, 0.2, -0.1, -0.1))
        let hr = GeomagneticModel.wmmhr2025.table
        #expect(hr.coefficients(n: 1, m: 1) == (-1410.7694, 4545.3934, 9.7476, -21.4933))
        #expect(hr.coefficients(n: 133, m: 133) == (0.0100, -0.0005, 0, 0))
        #expect(wmm.terms.count == 4 * 90 && wmm.rates.count == 2 * 90)
        #expect(hr.terms.count == 4 * 9044 && hr.rates.count == 2 * 135)
    }

    @Test(arguments: [("WMM2025", "wmm/WMM2025.COF"), ("WMMHR2025", "wmm/WMMHR2025.COF")])
    func matchTheCOFFileInSharedData(_ name: String, _ file: String) throws {
        guard let url = SharedData.file(file) else {
            if SharedData.isInCI { Issue.record(Comment(rawValue: SharedData.skipReason(file)!)) }
            else { print(SharedData.skipReason(file)!) }
            return
        }
        let model: GeomagneticModel = name == "WMM2025" ? .wmm2025 : .wmmhr2025
        let lines = try String(contentsOf: url, encoding: .utf8).split(separator: "\n")
        let header = lines[0].split(separator: " ")
        #expect(Double(String(header[0])) == model.epoch)
        var rows = 0
        for line in lines.dropFirst() {
            let f = line.split(separator: " ").map(String.init)
            guard f.count == 6, let n = Int(f[0]), let m = Int(f[1]) else { continue }
            let c = model.table.coefficients(n: n, m: m)
            #expect(c == (Double(f[2])!, Double(f[3])!, Double(f[4])!, Double(f[5])!), "\(file) n=\(n) m=\(m)")
            rows += 1
        }
        #expect(rows == model.mainFieldDegree * (model.mainFieldDegree + 3) / 2)
    }
}
