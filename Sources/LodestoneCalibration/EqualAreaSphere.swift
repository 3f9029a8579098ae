#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import LodestoneCore

/// The unit sphere cut into 100 regions of equal area, for coverage maps.
///
/// Like MotionCal's coverage display, but with our own partition, built the
/// way P. Leopardi's "recursive zonal equal area" partition is (*A partition
/// of the unit sphere into regions of equal area and small diameter*, ETNA 25,
/// 2006): two polar caps of one region each, and eight bands of latitude
/// between them holding 6, 11, 15, 17, 17, 15, 11, 6 regions, cut into equal
/// longitude sectors. Area on the sphere is proportional to the height in z,
/// so a band of k regions is exactly `0.02·k` high; every region has area
/// `4π/100` and spans about 20° by 20°.
public enum EqualAreaSphere {
    public static let regionCount = 100
    /// Regions per band, from the north cap (z = +1) to the south cap.
    public static let bandCounts = [1, 6, 11, 15, 17, 17, 15, 11, 6, 1]
    /// Upper z bound of each band, and the lower bound of the last one.
    public static let bandEdges: [Double] = {
        var edges = [1.0]
        var z = 1.0
        for k in bandCounts {
            z -= 0.02 * Double(k)
            edges.append(max(z, -1))
        }
        edges[edges.count - 1] = -1
        return edges
    }()
    /// Index of the first region of each band.
    static let bandStarts: [Int] = {
        var starts: [Int] = []
        var s = 0
        for k in bandCounts {
            starts.append(s)
            s += k
        }
        return starts
    }()

    /// The band (0 = north cap) holding height `z` on the unit sphere.
    static func band(ofZ z: Double) -> Int {
        for b in 0..<(bandCounts.count - 1) where z >= bandEdges[b + 1] { return b }
        return bandCounts.count - 1
    }

    /// Region index (0..<100) of the direction of `v`; nil for the zero vector.
    public static func region(of v: Vector3) -> Int? {
        let l = v.length
        guard l > 0, l.isFinite else { return nil }
        let z = v.z / l
        let b = band(ofZ: z)
        let k = bandCounts[b]
        var lon = atan2(v.y, v.x)
        if lon < 0 { lon += 2 * Double.pi }
        let sector = min(Int(lon / (2 * Double.pi) * Double(k)), k - 1)
        return bandStarts[b] + sector
    }

    /// Band, sector, z range and longitude range (radians, 0..2π) of a region.
    public static func bounds(of region: Int) -> (band: Int, sector: Int, zRange: ClosedRange<Double>, longitudeRange: ClosedRange<Double>) {
        let b = (0..<bandCounts.count).last { bandStarts[$0] <= region } ?? 0
        let k = bandCounts[b]
        let sector = region - bandStarts[b]
        let width = 2 * Double.pi / Double(k)
        return (b, sector, bandEdges[b + 1]...bandEdges[b], (Double(sector) * width)...(Double(sector + 1) * width))
    }

    /// Unit vector at the middle (in z and longitude) of a region.
    public static func centre(of region: Int) -> Vector3 {
        let r = bounds(of: region)
        let z = r.band == 0 ? 1 : (r.band == bandCounts.count - 1 ? -1 : (r.zRange.lowerBound + r.zRange.upperBound) / 2)
        let lon = (r.longitudeRange.lowerBound + r.longitudeRange.upperBound) / 2
        let h = max(1 - z * z, 0).squareRoot()
        return Vector3(h * cos(lon), h * sin(lon), z)
    }
}
