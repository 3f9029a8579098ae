import LodestoneCore
import LodestoneSession
import LodestoneSimulation
import Testing

/// `headingUnavailable`: a forward axis that stays near vertical is reported once, with
/// what to change; brief passes are not.
extension HeadingSessionTests {
    /// The `headingUnavailable` events of `samples` run through a session with `axis` forward.
    func headingUnavailableEvents(_ samples: [SensorSample], axis: ForwardAxis = .plusY,
                                  session s: HeadingSession? = nil) -> [HeadingEvent] {
        var settings = HeadingSession.Settings(headingFilter: 0)
        settings.estimator.forwardAxis = axis
        var s = s ?? session(settings)
        s.start(wallClockStart: 0)
        var events: [HeadingEvent] = []
        for x in samples {
            _ = s.process(x)
            events += s.takeEvents().filter { $0.name == .headingUnavailable }
        }
        return events
    }

    static let level = BoardAttitude(heading: 40)
    /// Standing on its bottom edge: the top edge (+y) points at the sky.
    static let upright = BoardAttitude(heading: 40, pitch: 90)

    /// Level, then swung up to upright in 0.5 s, held there `upright` seconds, and back.
    func swingThroughVertical(upright: Double) -> MotionProfile {
        MotionProfile([.hold(Self.level, duration: 2), .move(from: Self.level, to: Self.upright, duration: 0.5),
                       .hold(Self.upright, duration: upright), .move(from: Self.upright, to: Self.level, duration: 0.5),
                       .hold(Self.level, duration: 3)])
    }

    @Test(arguments: [false, true])
    func anUprightBoardIsToldToUseItsBack(gyroscope: Bool) throws {
        let upright = samples(MotionProfile([.hold(Self.upright, duration: 5)]), gyroscope: gyroscope)
        let events = headingUnavailableEvents(upright)
        let start = try #require(events.first)
        #expect(events.count == 1)
        #expect(start.reason == .forwardAxisVertical && start.state == .start)
        #expect(start.detail.contains("+y") && start.detail.contains("within 10° of straight up"), "\(start.detail)")
        #expect(start.detail.contains("--forward -z") && start.detail.contains(#""forward": "-z""#), "\(start.detail)")
        #expect(start.timestamp.map { (2...2.5).contains($0) } == true, "after 2 s near vertical: \(start.timestamp ?? .nan)")
        #expect(headingUnavailableEvents(upright, axis: .minusZ).isEmpty)
    }

    /// Pointing down is named too, and a flat board's back gets the top edge suggested.
    @Test func theDetailNamesTheDirectionAndTheAxisToUse() throws {
        let headDown = samples(MotionProfile([.hold(BoardAttitude(heading: 40, pitch: -90), duration: 3)]))
        let down = try #require(headingUnavailableEvents(headDown).first)
        #expect(down.detail.contains("straight down"), "\(down.detail)")
        let flat = samples(MotionProfile([.hold(Self.level, duration: 3)]))
        let back = try #require(headingUnavailableEvents(flat, axis: .minusZ).first)
        #expect(back.detail.contains("-z") && back.detail.contains("straight down") && back.detail.contains("--forward +y"),
                "\(back.detail)")
    }

    /// A second upright is a swing; three seconds is a board left upright, which ends
    /// once it is level again.
    @Test(arguments: [false, true])
    func aSwingThroughVerticalRaisesNothing(gyroscope: Bool) {
        #expect(headingUnavailableEvents(samples(swingThroughVertical(upright: 1), gyroscope: gyroscope)).isEmpty)
        let held = headingUnavailableEvents(samples(swingThroughVertical(upright: 3), gyroscope: gyroscope))
        #expect(held.map(\.state) == [.start, .end] && held.map(\.reason) == [.forwardAxisVertical, .forwardAxisUsable])
    }

    /// A reload to another forward axis ends the event at once: it was about the old axis.
    @Test func changingTheForwardAxisEndsIt() throws {
        var s = session()
        s.start(wallClockStart: 0)
        let upright = samples(MotionProfile([.hold(Self.upright, duration: 5)]))
        for x in upright[..<150] { _ = s.process(x) }
        #expect(s.takeEvents().contains { $0.name == .headingUnavailable && $0.state == .start })
        var settings = s.settings
        settings.estimator.forwardAxis = .minusZ
        s.reconfigure(settings: settings, calibration: s.calibration)
        let end = try #require(s.takeEvents().first { $0.name == .headingUnavailable })
        #expect(end.state == .end && end.reason == .forwardAxisUsable && end.detail.contains("from +y to -z"))
        #expect(headingUnavailableEvents(Array(upright[150...]), session: s).isEmpty)
    }
}
