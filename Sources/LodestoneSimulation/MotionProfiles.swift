/// Ready-made motions for demos, tests and benchmarks.
extension MotionProfile {
    /// About a minute of handling: holds, turns across north, tilts and sway.
    public static let demo = MotionProfile([
        .hold(BoardAttitude(heading: 30), duration: 5),
        .move(from: BoardAttitude(heading: 30), to: BoardAttitude(heading: 120, pitch: 20, roll: -10), duration: 3),
        .hold(BoardAttitude(heading: 120, pitch: 20, roll: -10), duration: 5),
        .move(from: BoardAttitude(heading: 120, pitch: 20, roll: -10), to: BoardAttitude(heading: 350), duration: 4),
        .hold(BoardAttitude(heading: 350), duration: 5),
        .move(from: BoardAttitude(heading: 350), to: BoardAttitude(heading: 200, pitch: -5), duration: 4),
        .sway(center: BoardAttitude(heading: 200, pitch: -5), amplitude: BoardAttitude(heading: 40, pitch: 15, roll: 15),
              period: 6, duration: 20),
        .move(from: BoardAttitude(heading: 200, pitch: -5), to: BoardAttitude(heading: 90), duration: 4),
        .hold(BoardAttitude(heading: 90), duration: 10),
    ])

    /// Still holds at eight headings, each followed by a quick turn, at a given tilt.
    public static func holds(tilt: Double, holdDuration: Double = 5) -> MotionProfile {
        var segments: [Segment] = []
        let headings = stride(from: 0.0, to: 360, by: 45).map { $0 + 7 }
        for (i, h) in headings.enumerated() {
            let a = BoardAttitude(heading: h, pitch: tilt, roll: i.isMultiple(of: 2) ? tilt / 2 : -tilt / 2)
            segments.append(.hold(a, duration: holdDuration))
            if i + 1 < headings.count {
                let b = BoardAttitude(heading: headings[i + 1], pitch: tilt, roll: i.isMultiple(of: 2) ? -tilt / 2 : tilt / 2)
                segments.append(.move(from: a, to: b, duration: 1))
            }
        }
        return MotionProfile(segments)
    }

    /// Continuous yaw at `rate` degrees per second.
    public static func spin(rate: Double, tilt: Double = 0, duration: Double) -> MotionProfile {
        MotionProfile([.spin(start: BoardAttitude(heading: 0, pitch: tilt), rate: rate, duration: duration)])
    }

    /// Slow tumbling through many attitudes: the full-sphere motion a calibration
    /// needs. The slowest swing takes `period` seconds (default a third of the duration).
    public static func tumble(duration: Double = 60, period: Double? = nil) -> MotionProfile {
        MotionProfile([.sway(center: BoardAttitude(heading: 0), amplitude: BoardAttitude(heading: 180, pitch: 85, roll: 170),
                             period: period ?? duration / 3, duration: duration)])
    }
}
