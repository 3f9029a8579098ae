#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The hard iron of what the board is fixed in, learned as it turns: a car's
/// or a boat's steel around a board calibrated on the bench, or a board never
/// calibrated at all. A ship's compass is swung for the same reason.
///
/// Such an offset `h` is there from switch-on, so nothing steps when it comes
/// and ``BodyFixedDisturbance`` never sees it; and a vehicle cannot be tumbled
/// through every orientation, so `lodestone calibrate` and the sphere fit of
/// online hard-iron tracking, which need most directions, never get one. But
/// the field's strength shows it wherever the board turns: the readings `m`
/// lie on a sphere about `h`, `|m − h|² = F²`, which is linear in `h` and
/// `c = F² − |h|²`: `|m|² = 2m·h + c`. These equations need no attitude, so a
/// tilt or heading error cannot bend them. A level turn traces a circle on
/// that sphere, which gives the part of `h` across the turn axis; the part
/// along it moves no heading while the board stays level. Where the field's
/// strength and dip are known (``reference``), `u·(m − h) = −F·sin(dip)` for
/// the board's up `u` gives that part too. The attitude is used only to judge
/// which directions the board truly swung the field through.
///
/// Readings are averaged into one equation per ``Settings/blockTime`` or
/// ``Settings/blockTurn`` of the field's direction, and the equations are kept
/// with a memory of ``Settings/memory``. Every ``Settings/solveInterval`` the
/// offset is solved for, and a solution is a **candidate** only when
/// 1. the sphere's radius is an Earth field (22–67 µT): readings from a board
///    that hardly turned lie on a small patch, which a tiny sphere far away
///    fits as well;
/// 2. the offset explains at least ``Settings/explainedShare`` of the
///    variance of the readings' strength. Where the strength varies for other
///    reasons (a calibration's residual, a room's field gradient crossed by a
///    moving board) an offset takes up some of it, never most;
/// 3. it stands ``Settings/gate`` standard deviations from none;
/// 4. it matters: it would turn the heading by more than
///    ``Settings/compassErrorMultiple`` times the compass error the filter
///    already allows, so that what the calibration is trusted with is left to it;
/// 5. it is the whole offset: every direction it leaves unsolved stayed near
///    the board's up (a level turn's axis).
/// A field that steps (a motor switched on beside the board, a magnet put on
/// it) puts later readings on another sphere, and an offset fitted across the
/// step with one `c` is no hard iron: at a step (``stepped(from:to:)``) the
/// equations before it keep their own `c`, and the candidates start again.
/// ``Settings/confirmations`` candidates in a row that agree are adopted: the
/// pipeline takes the offset into its calibration. Until then, and for what
/// an adopted offset leaves unsolved, ``suspectedHeadingError`` tells the
/// accuracy how far the heading may be off.
public struct HardIronSwing: Sendable {
    public struct Settings: Hashable, Sendable {
        /// The longest time readings are averaged into one equation, s.
        public var blockTime = 1.0
        /// The largest turn of the field's direction within one equation, rad.
        public var blockTurn = 0.2
        /// How long equations are remembered (their weight falls by e over it), s.
        public var memory = 600.0
        /// How often the offset is solved for, s.
        public var solveInterval = 10.0
        /// The least an equation's strength is taken to stray by with the offset right, µT (1σ).
        public var strengthNoise = 0.1
        /// How far the field's vertical part, read with the board's up, may stray in one equation, µT (1σ):
        /// a degree of tilt error, and what the model's or the profile's dip may be off by.
        public var verticalNoise = 1.0
        /// How large an offset may be before any reading is seen, µT (1σ):
        /// it holds the directions the readings say little about.
        public var priorSpread = 50.0
        /// The share of the readings' spread along a direction that the Earth's
        /// field, turned by the attitude, must show there too.
        public var turnedShare = 0.25
        /// The least RMS angle the attitude must show the Earth's field swung
        /// through along a direction for the offset to be solved along it, rad.
        public var leastSwing = 5 * Angle.radiansPerDegree
        /// The share of the strength's variance the offset must explain.
        public var explainedShare = 0.8
        /// Standard deviations the offset must stand from none.
        public var gate = 5.0
        /// How many times the compass error the filter allows an offset must turn the heading by.
        public var compassErrorMultiple = 3.0
        /// Candidates in a row that must agree before the offset is adopted.
        public var confirmations = 3
        /// Plausible strength of the Earth's field, µT.
        public var earthFieldStrength: ClosedRange<Double> = 22...67

        public init() {}
    }

    public let settings: Settings
    /// The compass error the filter allows, rad (1σ), and the cosine of the dip.
    let compassError: Double
    let cosDip: Double
    let sinDip: Double
    let cosBlockTurnSquared: Double
    /// The field's strength and dip where they are known (the model's, or the
    /// profile's): then `u·(m − h) = −F·sin(dip)` for the board's up `u` pins
    /// the part of `h` along the axis a level turn turns about.
    public var reference: ExpectedField?
    private var equations = Equations()
    private var block = Block()
    private var sinceSolve = 0.0
    private var candidate: Vector3?
    private var agreeing = 0
    /// The last reading, and north and up in the body then.
    private var lastReading: Reading?

    private struct Reading: Sendable {
        var field: Vector3
        var north: Vector3
        var up: Vector3
    }
    /// How far the offset found but not yet adopted may turn the heading,
    /// rad; 0 when none is found. The accuracy holds it meanwhile.
    public private(set) var suspectedHeadingError = 0.0

    /// The weighted equations `|m|² = 2m·h + c` in normal form, the unknown
    /// `c` kept apart so that it can be eliminated: `a = (2m, 1)`, `y = |m|²`.
    /// `c` holds only between two steps of the field (a room's field changes
    /// the strength, not the offset): the equations before the last step are
    /// kept with theirs eliminated (``Closed``).
    private struct Equations: Sendable {
        var hh = Matrix3.zero   // Σ 4·m·mᵀ
        var hc = Vector3.zero   // Σ 2·m
        var count = 0.0         // Σ 1, the weights
        var rh = Vector3.zero   // Σ 2·m·y
        var rc = 0.0            // Σ y
        var yy = 0.0            // Σ y²
        var uu = Matrix3.zero   // Σ u·uᵀ, the vertical equations `u·h = u·m + F·sin(dip)`
        var um = Vector3.zero   // Σ u·(u·m)
        var u = Vector3.zero    // Σ u
        var ee = Matrix3.zero   // Σ e·eᵀ, e the Earth's field's direction in the body as the attitude has it
        var e = Vector3.zero    // Σ e
        var closed = Closed()

        /// Equations before the last step, `c` eliminated from each stretch:
        /// the spread of `2m` about its stretch's mean, the matching right side,
        /// what is left of `y`, and their weights.
        struct Closed: Sendable {
            var spread = Matrix3.zero
            var side = Vector3.zero
            var unexplained = 0.0
            var count = 0.0
        }

        /// All the weights, before and since the last step.
        var total: Double { count + closed.count }
        /// `Σ4mmᵀ` less what `c` takes, over every stretch.
        var spread: Matrix3 {
            guard count > 0 else { return closed.spread }
            return closed.spread + hh - Matrix3.outer(hc, hc) * (1 / count)
        }
        var side: Vector3 { count > 0 ? closed.side + rh - hc * (rc / count) : closed.side }
        /// The spread of `y` that no `c` explains.
        var unexplained: Double { count > 0 ? closed.unexplained + yy - rc * rc / count : closed.unexplained }

        mutating func add(_ m: Vector3, strengthSquared y: Double, up: Vector3, earth: Vector3, keeping keep: Double) {
            ee = ee * keep + Matrix3.outer(earth, earth)
            e = e * keep + earth
            uu = uu * keep + Matrix3.outer(up, up)
            um = um * keep + up * up.dot(m)
            u = u * keep + up
            let twice = m * 2
            hh = hh * keep + Matrix3.outer(twice, twice)
            hc = hc * keep + twice
            count = count * keep + 1
            rh = rh * keep + twice * y
            rc = rc * keep + y
            yy = yy * keep + y * y
            closed.spread = closed.spread * keep
            closed.side = closed.side * keep
            closed.unexplained *= keep
            closed.count *= keep
        }

        /// The field stepped: the stretch since the last step is closed.
        mutating func stepped() {
            guard count > 0 else { return }
            closed = Closed(spread: spread, side: side, unexplained: unexplained, count: total)
            (hh, hc, count, rh, rc, yy) = (.zero, .zero, 0, .zero, 0, 0)
        }

        /// The sum of squared residuals with offset `h` and the best `c` for it in each stretch.
        func residual(offset h: Vector3) -> Double {
            max(0, unexplained - 2 * h.dot(side) + h.dot(spread * h))
        }
    }

    private struct Block: Sendable {
        var count = 0.0
        var field = Vector3.zero
        var strengthSquared = 0.0
        var up = Vector3.zero
        var first = Vector3.zero
        var time = 0.0
    }

    private struct Solution {
        /// The offset along the directions it is pinned in; nil when that is no candidate.
        var offset: Vector3?
        var variance: Double
        var radius: Double
        /// How far the offset along every direction with information may turn the heading, rad.
        var headingError: Double
        /// How far the part of it outside ``offset`` may turn the heading, rad.
        var remainder: Double
    }

    /// `compassError` in radians (1σ), `dip` in degrees.
    public init(settings: Settings = Settings(), compassError: Double, dip: Double) {
        self.settings = settings
        self.compassError = compassError
        cosDip = cos(dip * Angle.radiansPerDegree)
        sinDip = sin(dip * Angle.radiansPerDegree)
        cosBlockTurnSquared = pow(cos(settings.blockTurn), 2)
    }

    /// One calibrated reading `m` (µT) with the board's `up` as its attitude has
    /// it (unit, body frame), `dt` s after the previous one, and `north`, the
    /// magnetic north in the body frame.
    /// Returns an offset to take out of the readings once one is adopted (µT,
    /// in the calibrated frame); the equations then start again.
    @inline(__always) // once per monitor update: out of line it cost a call and a copy of the reading's vectors
    public mutating func observe(field m: Vector3, up: Vector3, dt: Double, north: () -> Vector3) -> Vector3? {
        let northNow = north()
        let reading = Reading(field: m, north: northNow, up: up)
        if let last = lastReading, Self.stepped(from: last, to: reading, settings: settings) { fieldStepped() }
        lastReading = reading
        if block.count > 0 {
            let d = m.dot(block.first)
            let turned = d < 0 || d * d < cosBlockTurnSquared * m.squaredLength * block.first.squaredLength
            if block.time >= settings.blockTime || turned { closeBlock(north: northNow) }
        }
        if block.count == 0 { block.first = m }
        block.count += 1
        block.field += m
        block.strengthSquared += m.squaredLength
        block.up += up
        block.time += dt
        sinceSolve += dt
        guard sinceSolve >= settings.solveInterval else { return nil }
        return solveAndConfirm()
    }

    private mutating func solveAndConfirm() -> Vector3? {
        sinceSolve = 0
        return confirm(solve())
    }

    /// Forgets every equation (the calibration changed).
    public mutating func reset() {
        equations = Equations()
        block = Block()
        lastReading = nil
        sinceSolve = 0
        candidate = nil
        agreeing = 0
        suspectedHeadingError = 0
    }

    private mutating func closeBlock(north: Vector3) {
        let n = block.count, up = block.up.normalized
        let earth = (north * cosDip - up * sinDip).normalized
        equations.add(block.field / n, strengthSquared: block.strengthSquared / n, up: up, earth: earth,
                      keeping: exp(-block.time / settings.memory))
        block = Block()
    }

    /// The field stepped: what was read before lies on a sphere of another
    /// radius, its offset the same (a room's field changes the strength; a
    /// magnet put on the board changes both, and the two stretches then fit
    /// no one offset).
    private mutating func fieldStepped() {
        equations.stepped()
        block = Block()
        candidate = nil
        agreeing = 0
        suspectedHeadingError = 0
    }

    /// Whether the field stepped between two readings: with a fixed offset a
    /// reading moves only as the board turns the Earth's field in it, by at
    /// most the board's turn times the strongest Earth field, and by what a
    /// tilt error moves it (``Settings/verticalNoise``, `gate` times over).
    /// The turn is bounded by how far north and up moved: a turn by θ about
    /// any axis moves them by θ·√(2 − (a·n)² − (a·u)²), between θ and θ·√2.
    /// It counts twice: a magnetometer may read up to a reading's interval
    /// late against the attitude (BROAD's fast turns show it).
    private static func stepped(from last: Reading, to next: Reading, settings: Settings) -> Bool {
        let turn = 2 * ((next.north - last.north).squaredLength + (next.up - last.up).squaredLength).squareRoot()
        let explained = turn * settings.earthFieldStrength.upperBound + settings.gate * settings.verticalNoise
        return (next.field - last.field).squaredLength > explained * explained
    }

    /// The offset the equations give, when it is a candidate (the type's rules).
    /// It is solved only along the directions the ``information(_:strength:)``
    /// pins within what turns the heading by the compass error; along the others
    /// (the turn axis of a level turn without a reference) the calibration is kept.
    private func solve() -> Solution? {
        let e = equations
        guard e.total > 8, e.count > 0 else { return nil }
        let n = e.count, strength = (e.rc / n).squareRoot(), horizontal = strength * cosDip
        let (information, right) = Self.information(e, strength: strength, settings: settings, reference: reference)
        let pinned = 1 / pow(compassError * horizontal, 2)
        let prior = 1 / (settings.priorSpread * settings.priorSpread)
        let eigen = SymmetricEigen3(information + Matrix3(diagonal: Vector3(prior, prior, prior)))
        // The offset along every direction with information, and along those it pins.
        let whole = Self.offset(information: eigen, side: right, smallest: 0)
        let h = Self.offset(information: eigen, side: right, smallest: pinned)
        let c = (e.rc - e.hc.dot(whole)) / n
        let radiusSquared = c + whole.squaredLength
        guard radiusSquared > 0, settings.earthFieldStrength.contains(radiusSquared.squareRoot()) else { return nil }
        let unexplained = e.unexplained
        guard unexplained > 0, e.residual(offset: whole) <= (1 - settings.explainedShare) * unexplained else { return nil }
        var wholeChiSquared = 0.0, chiSquared = 0.0, variance = 0.0
        for (v, value) in zip(eigen.vectors, eigen.values) where value > 0 {
            wholeChiSquared += pow(v.dot(whole), 2) * value
            guard value >= pinned else { continue }
            chiSquared += pow(v.dot(h), 2) * value
            variance += 1 / value
        }
        let gate = settings.gate * settings.gate, matters = settings.compassErrorMultiple * compassError * horizontal
        guard wholeChiSquared >= gate, whole.length > matters else { return nil }
        // Only the whole offset is taken: a direction left unsolved must have
        // stayed near the board's up (a level turn's axis, without a
        // reference), where an offset turns no heading. A part taken alone can
        // leave the heading worse than before (the rest no longer cancels
        // some of it), and over a short arc a hard iron that drifts passes for
        // an offset along the arc (0.3 °/s: 2° → 14° off).
        let tilt = sin(settings.leastSwing)
        let complete = zip(eigen.vectors, eigen.values).allSatisfy { v, value in
            value >= pinned || 1 - v.dot(e.uu * v) / e.total <= tilt * tilt
        }
        let adoptable = complete && chiSquared >= gate && h.length > matters
        return Solution(offset: adoptable ? h : nil, variance: variance, radius: radiusSquared.squareRoot(),
                        headingError: max(whole.length, h.length) / horizontal,
                        remainder: (whole - (adoptable ? h : .zero)).length / horizontal)
    }

    /// What the equations say of `h`: its information matrix (µT⁻²) and the
    /// matching right side. `c` is eliminated: what is left of the strength
    /// equations is the spread of the readings' block means, `S = Σ4mmᵀ −
    /// (Σ2m)(Σ2m)ᵀ/n`, over an equation's noise (what the fit along every
    /// direction leaves, at least ``Settings/strengthNoise``). It counts only
    /// along directions the attitude shows the Earth's field swung through, by
    /// ``Settings/leastSwing`` and ``Settings/turnedShare`` at least: a room's
    /// field that came and went spreads the readings too, along no turn of the
    /// board's, and along a direction barely swung through, a small change of
    /// the strength for any other reason makes a large offset. With a
    /// `reference`, the vertical equations are added.
    private static func information(_ e: Equations, strength: Double, settings: Settings,
                                    reference: ExpectedField?) -> (Matrix3, Vector3) {
        let n = e.total
        let spread = e.spread, side = e.side
        let spreadEigen = SymmetricEigen3(spread)
        let floor = 2 * strength * settings.strengthNoise
        let unconstrained = offset(information: spreadEigen, side: side, smallest: 0)
        let noise = max(floor * floor, e.residual(offset: unconstrained) / max(n - 4, 1))
        let turned = (e.ee - Matrix3(rows: e.e * e.e.x, e.e * e.e.y, e.e * e.e.z) * (1 / n)) * (4 * strength * strength)
        let least = 4 * n * pow(strength * sin(settings.leastSwing), 2)
        var information = Matrix3.zero, right = Vector3.zero
        for (v, value) in zip(spreadEigen.vectors, spreadEigen.values)
        where value > 0 && v.dot(turned * v) >= max(settings.turnedShare * value, least) {
            information = information + Matrix3.outer(v, v) * (value / noise)
            right += v * (v.dot(side) / noise)
        }
        if let reference {
            let weight = 1 / (settings.verticalNoise * settings.verticalNoise)
            let down = reference.strength * sin((reference.dip ?? 0) * Angle.radiansPerDegree)
            information = information + e.uu * weight
            right += (e.um + e.u * down) * weight
        }
        return (information, right)
    }

    /// The least-squares offset along the eigenvectors of `information` whose
    /// eigenvalue is positive and at least `smallest`.
    private static func offset(information eigen: SymmetricEigen3, side: Vector3, smallest: Double) -> Vector3 {
        var h = Vector3.zero
        for (v, value) in zip(eigen.vectors, eigen.values) where value > 0 && value >= smallest {
            h += v * (v.dot(side) / value)
        }
        return h
    }

    /// Counts candidates in a row that agree (within three of their standard
    /// deviations, or 2 % of the field); the offset once there are enough.
    private mutating func confirm(_ found: Solution?) -> Vector3? {
        suspectedHeadingError = found?.headingError ?? 0
        guard let found, let offset = found.offset else {
            candidate = nil
            agreeing = 0
            return nil
        }
        let tolerance = max(9 * found.variance, 0.0004 * found.radius * found.radius)
        let agrees = candidate.map { (offset - $0).squaredLength <= tolerance } ?? false
        agreeing = agrees ? agreeing + 1 : 1
        candidate = offset
        guard agreeing >= settings.confirmations else { return nil }
        reset()
        suspectedHeadingError = found.remainder
        return offset
    }
}
