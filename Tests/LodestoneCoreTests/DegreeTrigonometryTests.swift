#if canImport(Glibc)
import Glibc
#endif
import LodestoneCore
import Testing

@Suite struct DegreeTrigonometryTests {
    @Test func multiplesOfNinetyDegreesAreExact() {
        let expected: [(Double, Double, Double)] = [(0, 0, 1), (90, 1, 0), (180, 0, -1), (270, -1, 0), (-90, -1, 0), (-180, 0, -1),
                                                    (360, 0, 1), (450, 1, 0), (-270, 1, 0), (720 * 1e6 + 90, 1, 0)]
        for (degrees, s, c) in expected {
            let r = DegreeTrigonometry.sinCos(degrees)
            #expect(r.sin == s && r.cos == c, "\(degrees)°: \(r)")
            #expect(r.sin.sign == .plus || r.sin != 0, "\(degrees)°: no negative zero")
        }
        // The plain conversion is not exact: what this type is for.
        #expect(cos(90 * Double.pi / 180) != 0)
    }

    @Test func wholeTurnsApartGiveTheSameValues() {
        // Steps of 7.25° keep `degrees + 360` exact, so the two inputs are one angle.
        for degrees in stride(from: -720.0, through: 720, by: 7.25) {
            let a = DegreeTrigonometry.sinCos(degrees), b = DegreeTrigonometry.sinCos(degrees + 360)
            #expect(a.sin == b.sin && a.cos == b.cos, "\(degrees)°")
            #expect(abs(a.sin - sin(degrees * .pi / 180)) < 1e-13 && abs(a.cos - cos(degrees * .pi / 180)) < 1e-13)
        }
    }

    @Test func atan2IsExactAtMultiplesOfFortyFive() {
        let cases: [(Double, Double, Double)] = [(0, 1, 0), (1, 1, 45), (1, 0, 90), (1, -1, 135), (0, -1, 180), (-0.0, -1, -180),
                                                 (-1, -1, -135), (-1, 0, -90), (-1, 1, -45), (3, 3, 45)]
        for (y, x, degrees) in cases {
            #expect(DegreeTrigonometry.atan2Degrees(y, x) == degrees, "atan2(\(y), \(x))")
        }
        #expect(abs(DegreeTrigonometry.atan2Degrees(1, 2) - atan2(1, 2) * 180 / .pi) < 1e-13)
    }
}
