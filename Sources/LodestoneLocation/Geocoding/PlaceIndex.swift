#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A balanced k-d tree over the places' unit vectors, for the nearest place.
///
/// Each place is the point (cos φ cos λ, cos φ sin λ, sin φ) on the unit sphere;
/// the straight-line (chord) distance between two such points grows with the
/// angle between them, so the nearest in 3-D is the nearest along the sphere,
/// with no special case at the poles or the ±180° meridian. The tree is
/// implicit: the node of the range [lo, hi) is its middle element, split on the
/// axis of widest spread, with smaller coordinates before it and larger after
/// (the layout of J. L. Bentley, "Multidimensional binary search trees used for
/// associative searching", CACM 18 (1975)). Points are stored in tree order.
struct PlaceIndex: Sendable {
    private var x: [Double] = [], y: [Double] = [], z: [Double] = []
    private var axis: [UInt8] = []
    /// Tree position → place index in the table.
    private var place: [Int32] = []

    init(table: PlaceTable) {
        let n = table.count
        var px = [Double](repeating: 0, count: n), py = px, pz = px
        for (i, r) in table.records.enumerated() {
            (px[i], py[i], pz[i]) = Self.unitVector(latitude: Double(r.latitudeE5) / 1e5, longitude: Double(r.longitudeE5) / 1e5)
        }
        var order = (0..<n).map { Int32($0) }
        axis = [UInt8](repeating: 0, count: n)
        var builder = Builder(x: px, y: py, z: pz)
        builder.build(&order, &axis, 0, n)
        place = order
        x = order.map { px[Int($0)] }
        y = order.map { py[Int($0)] }
        z = order.map { pz[Int($0)] }
    }

    static func unitVector(latitude: Double, longitude: Double) -> (Double, Double, Double) {
        let phi = latitude * .pi / 180, lambda = longitude * .pi / 180
        let c = cos(phi)
        return (c * cos(lambda), c * sin(lambda), sin(phi))
    }

    /// The table index of the place nearest to the unit vector q, and the squared chord to it.
    func nearest(_ q: (Double, Double, Double)) -> (place: Int, chordSquared: Double) {
        var best = (index: 0, distance: Double.infinity)
        search(q, 0, x.count, &best)
        return (Int(place[best.index]), best.distance)
    }

    private func search(_ q: (Double, Double, Double), _ lo: Int, _ hi: Int, _ best: inout (index: Int, distance: Double)) {
        guard lo < hi else { return }
        let m = (lo + hi) >> 1
        let dx = q.0 - x[m], dy = q.1 - y[m], dz = q.2 - z[m]
        let d = dx * dx + dy * dy + dz * dz
        if d < best.distance { best = (m, d) }
        let split: Double
        switch axis[m] {
        case 0: split = dx
        case 1: split = dy
        default: split = dz
        }
        // Nearer side first; the far side only if the splitting plane is closer than the best.
        if split < 0 {
            search(q, lo, m, &best)
            if split * split < best.distance { search(q, m + 1, hi, &best) }
        } else {
            search(q, m + 1, hi, &best)
            if split * split < best.distance { search(q, lo, m, &best) }
        }
    }

    /// Builds the implicit tree by recursive median selection (quickselect).
    private struct Builder {
        let x: [Double], y: [Double], z: [Double]

        func coordinate(_ i: Int32, _ a: UInt8) -> Double {
            a == 0 ? x[Int(i)] : a == 1 ? y[Int(i)] : z[Int(i)]
        }

        mutating func build(_ order: inout [Int32], _ axis: inout [UInt8], _ lo: Int, _ hi: Int) {
            guard hi - lo > 1 else { return }
            let a = widestAxis(order, lo, hi)
            let m = (lo + hi) >> 1
            select(&order, lo, hi, m, a)
            axis[m] = a
            build(&order, &axis, lo, m)
            build(&order, &axis, m + 1, hi)
        }

        func widestAxis(_ order: [Int32], _ lo: Int, _ hi: Int) -> UInt8 {
            var low = (Double.infinity, Double.infinity, Double.infinity)
            var high = (-Double.infinity, -Double.infinity, -Double.infinity)
            for k in lo..<hi {
                let i = Int(order[k])
                low = (min(low.0, x[i]), min(low.1, y[i]), min(low.2, z[i]))
                high = (max(high.0, x[i]), max(high.1, y[i]), max(high.2, z[i]))
            }
            let spread = (high.0 - low.0, high.1 - low.1, high.2 - low.2)
            return spread.0 >= spread.1 && spread.0 >= spread.2 ? 0 : spread.1 >= spread.2 ? 1 : 2
        }

        /// Puts the k-th smallest (on axis a) of [lo, hi) at k, smaller before, larger after (Hoare's FIND).
        func select(_ order: inout [Int32], _ lo: Int, _ hi: Int, _ k: Int, _ a: UInt8) {
            var left = lo, right = hi - 1
            while left < right {
                let pivot = coordinate(order[(left + right) >> 1], a)
                var i = left, j = right
                while i <= j {
                    while coordinate(order[i], a) < pivot { i += 1 }
                    while coordinate(order[j], a) > pivot { j -= 1 }
                    if i <= j {
                        order.swapAt(i, j)
                        i += 1
                        j -= 1
                    }
                }
                if k <= j { right = j } else if k >= i { left = i } else { return }
            }
        }
    }
}
