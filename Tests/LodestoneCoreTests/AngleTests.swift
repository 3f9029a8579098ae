import Testing
import LodestoneCore
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

@Suite struct AngleTests {
    @Test(arguments: [(359.0, 1.0, 2.0), (1.0, 359.0, -2.0), (10.0, 190.0, -180.0), (190.0, 10.0, -180.0),
                      (0.0, 179.9, 179.9), (720.5, 0.0, -0.5), (-30.0, 30.0, 60.0)])
    func differenceIsShortestSigned(from: Double, to: Double, expected: Double) {
        #expect(abs(Angle.difference(from: from, to: to) - expected) < 1e-9)
    }

    @Test func normalizedStaysInHalfOpenRange() {
        for v in [-1e-17, -360.0, 360.0, 719.999, -0.5, 1e6 + 0.25] {
            let n = Angle.normalized360(v)
            #expect(n >= 0 && n < 360, "\(v) → \(n)")
        }
        #expect(Angle.normalized360(-90) == 270)
    }

    @Test func wallClockRoundTrip() throws {
        let t = 1_764_475_200.125 // 2025-11-30T04:00:00.125Z
        #expect(WallClockTime.iso8601(unixSeconds: t) == "2025-11-30T04:00:00.125Z")
        #expect(try #require(WallClockTime.parse("2025-11-30T04:00:00.125Z")) == t)
        #expect(try #require(WallClockTime.parse("2025-11-30T05:00:00.125+01:00")) == t)
        #expect(WallClockTime.parse("2025-11-30") == 1_764_460_800)
        #expect(WallClockTime.iso8601(unixSeconds: -1, fractionDigits: 0) == "1969-12-31T23:59:59Z")
        #expect(WallClockTime.parse("2025-13-01") == nil)
        #expect(WallClockTime.parse("yesterday") == nil)
    }

    /// The fusion wraps its angles without the library call where it can; the
    /// bits must be `remainder`'s, signed zeros and the ends of the range included.
    @Test func wrappedRadiansIsRemainderBitForBit() {
        let turn = 2 * Double.pi
        var edges: [Double] = [0, -0.0, .pi, -.pi, turn, -turn, 3 * .pi, -3 * .pi, 1e-300, 7e20, .infinity, .nan]
        edges += edges.flatMap { [$0.nextUp, $0.nextDown] }
        var random = SystemRandomNumberGenerator()
        let spread = (0..<20_000).map { _ in Double.random(in: -4 * turn...4 * turn, using: &random) }
        for x in edges + spread {
            let wrapped = Angle.wrapped(radians: x), expected = remainder(x, turn)
            #expect(wrapped.bitPattern == expected.bitPattern || (wrapped.isNaN && expected.isNaN),
                    "\(x): \(wrapped) against remainder's \(expected)")
        }
    }

    /// What is printed is rounded first, then wrapped: never 360.
    @Test func rounded360NeverReads360() {
        #expect(Angle.rounded360(359.9996, decimals: 3) == 0)
        #expect(Angle.rounded360(359.9994, decimals: 3) == 359.999)
        #expect(Angle.rounded360(-0.0004, decimals: 3) == 0 && Angle.rounded360(-0.0004, decimals: 3).sign == .plus)
        #expect(Angle.rounded360(720.25, decimals: 1) == 0.3 && Angle.rounded360(-90, decimals: 0) == 270)
    }
}
