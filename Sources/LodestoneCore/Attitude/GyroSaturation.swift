/// A gyro axis held at the end of its range.
///
/// A gyro reads no faster than its full scale (±250 °/s on many parts unless set
/// wider). Beyond it, every reading of that axis is the same number, the largest
/// the part can give, and the rotation beyond it is lost. Carried at its word, the
/// lost rotation is an attitude error the filter knows nothing of: it then trusts
/// the gyro over the compass and the accelerometer that show the error.
///
/// No range need be set. An axis is taken as clipped while it holds, to the bit, one
/// value for ``heldReadings`` readings in a row, the largest magnitude it has shown
/// and at least ``floor`` (below the narrowest full scale parts offer, 125 °/s),
/// while another axis's reading changes. A reading with noise in it rarely holds one
/// value: BROAD's gyro, quantised to 0.3 °/s, held one for three readings at the
/// flat top of a turn, and a whole sample repeated is a lost one held, not a clip.
/// What a clipped axis missed is taken to be as large as what it read (the true
/// rate up to twice the full scale, at 1σ), about that axis: a rotation whose
/// direction is known and whose size is not, summed over a correction interval
/// (``missedRotation``), not a noise on every axis.
struct GyroSaturation: Hashable, Sendable {
    /// The smallest rate taken as a full scale, rad/s (115 °/s).
    static let floor = 2.0
    /// Readings in a row that hold one value before an axis is taken as clipped.
    static let heldReadings = 4
    private var previous = Vector3.zero
    /// The largest magnitude each axis has shown in a fast reading.
    private var largest = Vector3.zero
    /// How many readings in a row each axis has held its value, and whether a slow
    /// reading (one not shown to ``missedRotation(rawRate:dt:)``) came since the last.
    private var heldX = 1, heldY = 1, heldZ = 1
    private var slow = false

    /// Whether an axis of `w` is fast enough to be at a full scale: when not, the
    /// reading need not be shown to ``missedRotation(rawRate:dt:)``. Most are not.
    @inline(__always)
    mutating func mayBeClipped(_ w: Vector3) -> Bool {
        guard max(abs(w.x), abs(w.y), abs(w.z)) >= Self.floor else {
            slow = true
            return false
        }
        return true
    }

    /// The rotation the fast reading `w` (rad/s, raw) over a step of `dt` seconds may
    /// have missed, rad, body frame: zero unless an axis is clipped. The readings an
    /// axis held before it counted as clipped are counted with the first that does.
    mutating func missedRotation(rawRate w: Vector3, dt: Double) -> Vector3 {
        let before = previous
        previous = w
        if slow {
            // A reading in between was slow: no axis has held a fast value since.
            heldX = 0; heldY = 0; heldZ = 0
            slow = false
        }
        largest = Vector3(max(largest.x, abs(w.x)), max(largest.y, abs(w.y)), max(largest.z, abs(w.z)))
        heldX = w.x == before.x ? heldX + 1 : 1
        heldY = w.y == before.y ? heldY + 1 : 1
        heldZ = w.z == before.z ? heldZ + 1 : 1
        guard w != before else { return .zero }
        return Vector3(Self.missed(w.x, held: heldX, largest: largest.x, dt: dt),
                       Self.missed(w.y, held: heldY, largest: largest.y, dt: dt),
                       Self.missed(w.z, held: heldZ, largest: largest.z, dt: dt))
    }

    /// What one axis reading `rate` missed, rad (signed as the reading), when it has held its value `held` readings.
    private static func missed(_ rate: Double, held: Int, largest: Double, dt: Double) -> Double {
        guard held >= heldReadings, abs(rate) >= floor, abs(rate) == largest else { return 0 }
        let steps = held == heldReadings ? Double(heldReadings) : 1
        return rate * dt * steps
    }

    /// The readings before a restart are no neighbours of the next.
    mutating func reset() {
        self = GyroSaturation()
    }
}
