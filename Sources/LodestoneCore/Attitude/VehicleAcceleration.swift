#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The acceleration of the vehicle the board rides, from its ground speed and
/// the gyro: what aviation AHRS subtract from the accelerometer before they
/// level themselves ("speed aiding").
///
/// A vehicle moving at speed v along the unit horizontal direction u while
/// turning at ω accelerates at `v'·u + ω × (v·u)`: the change of speed along
/// the track and the centripetal part. The second is what tilts an
/// accelerometer-levelled compass in every turn; with the gyro's ω and the
/// position source's v it is known exactly. u is the course over ground when
/// the receiver reports one at a speed where it means something, else the
/// board's forward axis (a board mounted facing the way the vehicle drives).
/// A report is a second old by the next one, 25° in a roundabout: the course
/// is carried from report to report by the board's own turning, as the
/// angle between the course and the forward axis's heading when it came
/// (the vehicle's slip and the board's mounting, which change slowly).
///
/// v' comes from successive speed reports (a receiver updates about once a
/// second), smoothed over ``smoothingTime``. Samples carry the latest report
/// held, so a new report shows only when the speed changes; one that repeats
/// the speed (a parked car's zero, a steady cruise) is inferred once the speed
/// has held for one and a half of the ``ReportInterval``, and means no change.
///
/// v' is a report interval old and more by the time it arrives, so the end of
/// a braking is missed for that long, and the reading it corrects leans by the
/// braking still taken out. The accelerometer shows such a change at once:
/// ``alongTrackLag`` is how far its own along-track reading moved over about
/// the speed's delay (the tilt error cancels out of that, and the filter's
/// corrections of the tilt are turned into the past readings), but no more
/// than v' takes out: an acceleration the speed has not shown yet (a boat's
/// sway, the start of a braking) is one the filter meets as it would without
/// speed. The tilt reading averages the specific force over ``readingMemory``,
/// so a lag the speed has since caught up with still leans it for about that
/// long: the lag is held with the same memory.
public struct VehicleAcceleration: Hashable, Sendable {
    /// Time constant of the speed change's estimate, s.
    public let smoothingTime: Double
    /// Below this speed a reported course is noise, m/s.
    public let slowestCourseSpeed: Double
    /// The longest gap between speed reports that still gives a speed change, s.
    public let longestReportGap: Double
    /// What the accelerometer's along-track reading is averaged over before
    /// it is compared with its own past, s: longer than road vibration's period.
    public let vibrationTime: Double
    /// How long the tilt reading remembers the specific force, s (``GravityAverage``'s correlation time).
    public let readingMemory: Double

    /// How far the acceleration along the track may have changed since the
    /// speed last showed it, m/s².
    public private(set) var alongTrackLag = 0.0

    private var heldLag = 0.0
    private var lastSpeed: Double?
    private var lastReportTime = 0.0
    private var time = 0.0
    private var speedChange = 0.0
    private var interval = ReportInterval()
    private var repeatedReports = 0.0
    private var recentForce: Vector3?
    private var delayedForce = Vector3.zero
    /// The last course reported, and it less the forward axis's heading then, rad.
    private var lastCourse: Double?
    private var courseOffset = 0.0

    public init(smoothingTime: Double = 1, slowestCourseSpeed: Double = 2, longestReportGap: Double = 5,
                vibrationTime: Double = 0.25, readingMemory: Double = 1) {
        self.smoothingTime = smoothingTime
        self.slowestCourseSpeed = slowestCourseSpeed
        self.longestReportGap = longestReportGap
        self.vibrationTime = vibrationTime
        self.readingMemory = readingMemory
    }

    /// The vehicle's acceleration in the earth frame (m/s², ENU, north =
    /// magnetic north), or nil without a speed. `speed` in m/s, `course` in
    /// radians clockwise from magnetic north, `rate` the bias-corrected gyro
    /// (body), `forward` the board's forward axis (body), `r` body → earth,
    /// `specificForce` the accelerometer's reading in the earth frame.
    public mutating func update(speed: Double?, course: Double?, rate: Vector3, forward: Vector3, rotation r: Matrix3,
                                specificForce: Vector3, dt: Double) -> Vector3? {
        time += dt
        guard let speed, speed.isFinite, speed >= 0 else {
            lastSpeed = nil
            speedChange = 0
            recentForce = nil
            alongTrackLag = 0
            heldLag = 0
            return nil
        }
        trackSpeedChange(speed, dt: dt)
        guard let u = direction(speed: speed, course: course, forward: forward, rotation: r) else { return .zero }
        trackAlongTrackLag(specificForce, along: u, dt: dt)
        let velocity = u * speed
        return u * speedChange + (r * rate).cross(velocity)
    }

    /// The specific force now against its average over the speed's delay (a
    /// report interval and the smoothing), along the track, and at least that
    /// lag as the tilt reading's memory still holds it.
    private mutating func trackAlongTrackLag(_ force: Vector3, along u: Vector3, dt: Double) {
        guard let recent = recentForce else {
            recentForce = force
            delayedForce = force
            return
        }
        let delay = smoothingTime + (interval.typical ?? smoothingTime)
        let updated = recent + (force - recent) * min(1, dt / vibrationTime)
        recentForce = updated
        delayedForce += (force - delayedForce) * min(1, dt / delay)
        let lag = min(abs((updated - delayedForce).dot(u)), abs(speedChange))
        heldLag += (lag - heldLag) * min(1, dt / readingMemory)
        alongTrackLag = max(lag, heldLag)
    }

    /// The filter turned its attitude by `q` (earth frame): the readings
    /// averaged so far are turned with it, so that the correction is not
    /// taken for a change of acceleration.
    public mutating func corrected(by q: Quaternion) {
        recentForce = recentForce.map { q.rotate($0) }
        delayedForce = q.rotate(delayedForce)
    }

    private mutating func trackSpeedChange(_ speed: Double, dt: Double) {
        defer { lastSpeed = speed }
        guard let last = lastSpeed else {
            lastReportTime = time
            return
        }
        guard speed != last else {
            countRepeatedReports()
            return
        }
        let gap = time - lastReportTime
        lastReportTime = time
        repeatedReports = 0
        guard gap > 0, gap <= longestReportGap else { return }
        interval.add(gap: gap)
        smoothSpeedChange(toward: (speed - last) / gap, over: gap)
    }

    /// A speed held past one and a half report intervals was reported again
    /// unchanged: each such report is a change of zero over one interval.
    /// (However short the interval and long the hold, in one step: a log's
    /// timestamps are not to be trusted.)
    private mutating func countRepeatedReports() {
        guard let typical = interval.typical else { return }
        let repeats = ((time - lastReportTime) / typical - 0.5).rounded(.down)
        guard repeats > repeatedReports else { return }
        let kept = 1 - min(1, typical / smoothingTime)
        speedChange *= pow(kept, repeats - repeatedReports)
        repeatedReports = repeats
    }

    private mutating func smoothSpeedChange(toward change: Double, over gap: Double) {
        speedChange += (change - speedChange) * min(1, gap / smoothingTime)
    }

    private mutating func direction(speed: Double, course: Double?, forward: Vector3, rotation r: Matrix3) -> Vector3? {
        let f = r * forward
        let h = (f.x * f.x + f.y * f.y).squareRoot()
        guard let course, course.isFinite, speed >= slowestCourseSpeed else {
            lastCourse = nil
            return h > 1e-3 ? Vector3(f.x / h, f.y / h, 0) : nil
        }
        guard h > 1e-3 else { return Vector3(sin(course), cos(course), 0) }
        let heading = atan2(f.x, f.y)
        if course != lastCourse {
            lastCourse = course
            courseOffset = Angle.wrapped(radians: course - heading)
        }
        return Vector3(sin(heading + courseOffset), cos(heading + courseOffset), 0)
    }
}
