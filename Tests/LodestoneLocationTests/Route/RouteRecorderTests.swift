import Testing
import LodestoneSimulation
import LodestoneSteering
@testable import LodestoneLocation

@Suite struct RouteRecorderTests {
    let track = TrackBuilder(latitude: 46.5, longitude: 7.9, bearing: 0)

    /// A point uniformly inside the circle of `radius` metres around `c`.
    static func jittered(_ c: GeoCoordinate, radius: Double, _ random: inout RandomSource) -> GeoCoordinate {
        let r = radius * random.uniform().squareRoot(), bearing = 360 * random.uniform()
        return try! Geodesic.wgs84.direct(from: c, bearing: bearing, distance: r).destination
    }

    static func fix(_ c: GeoCoordinate, time: Double, accuracy: Double?, speed: Double? = nil) -> Location {
        Location(latitude: c.latitude, longitude: c.longitude, horizontalAccuracy: accuracy, speed: speed, timestamp: time)
    }

    /// Fix-to-fix distance summed naively: what jitter does to a plain sum.
    static func naiveDistance(_ fixes: [Location]) -> Double {
        zip(fixes, fixes.dropFirst()).reduce(0) { $0 + ($1.0.distance(to: $1.1) ?? 0) }
    }

    @Test func standingStillForAnHourCountsNothing() throws {
        var random = RandomSource(seed: 1)
        var recorder = try RouteRecorder()
        try recorder.start(at: track.startTime)
        var fixes: [Location] = []
        for i in 0..<3600 {
            let fix = Self.fix(Self.jittered(track.origin, radius: 4, &random), time: track.startTime + Double(i), accuracy: 4)
            fixes.append(fix)
            recorder.add(fix)
        }
        let stats = recorder.statistics()
        #expect(stats.distance == 0 && stats.movingTime == 0)
        #expect(stats.elapsedTime == 3599 && stats.pointCount == 3600)
        #expect(stats.currentSpeed == 0 && stats.averageSpeed == nil)
        // The same fixes summed plainly make kilometres of imaginary walking.
        #expect(Self.naiveDistance(fixes) > 5000)
    }

    /// 0.3 m/s (a slow shuffle) for 10 minutes with 3 m jitter: 180 m, counted within 15 %,
    /// while the plain sum is several times the truth. (Jitter drawn afresh over the whole
    /// accuracy circle every second, harsher than a receiver's slowly drifting error, adds
    /// sideways wobble to the counted chords: +7 to +12 % over seeds.)
    @Test func slowRealMotionIsKept() throws {
        var random = RandomSource(seed: 2)
        var recorder = try RouteRecorder()
        try recorder.start(at: track.startTime)
        var fixes: [Location] = []
        for i in 0...600 {
            let truth = track.coordinate(at: 0.3 * Double(i))
            let fix = Self.fix(Self.jittered(truth, radius: 3, &random), time: track.startTime + Double(i), accuracy: 3)
            fixes.append(fix)
            recorder.add(fix)
        }
        let stats = recorder.statistics()
        #expect(stats.distance > 162 && stats.distance < 207, "\(stats.distance) m, \(stats.pointCount) points")
        #expect(stats.movingTime > 540, "\(stats.movingTime)")
        #expect(Self.naiveDistance(fixes) > 3 * 180)
        let average = try #require(stats.averageSpeed)
        #expect(abs(average - 0.3) < 0.05)
    }

    /// Without jitter, slow motion is counted exactly up to the last anchor.
    @Test func slowMotionWithoutJitterIsExactToTheLastAnchor() throws {
        var recorder = try RouteRecorder()
        try recorder.start(at: track.startTime)
        var lastMoved = 0.0
        for i in 0...100 {
            if case .moved = recorder.add(track.fix(at: 0.5 * Double(i), seconds: Double(i), accuracy: 2.1)) {
                lastMoved = 0.5 * Double(i)
            }
        }
        // Steps must exceed 2.1 + 2.1 m: every 4.5 m (9 fixes), so the last anchor is at 49.5 m.
        #expect(lastMoved == 49.5)
        #expect(abs(recorder.statistics().distance - 49.5) < 1e-6)
    }

    @Test func speedsPreferTheReceiversSpeed() throws {
        var recorder = try RouteRecorder()
        try recorder.start(at: track.startTime)
        recorder.add(Self.fix(track.coordinate(at: 0), time: track.startTime, accuracy: 5, speed: 10))
        recorder.add(Self.fix(track.coordinate(at: 20), time: track.startTime + 1, accuracy: 5, speed: 21))
        recorder.add(Self.fix(track.coordinate(at: 45), time: track.startTime + 2, accuracy: 5))
        let stats = recorder.statistics()
        #expect(stats.currentSpeed.map { abs($0 - 25) < 1e-6 } == true, "step speed without a reported one")
        #expect(stats.maximumSpeed.map { abs($0 - 25) < 1e-6 } == true)
        recorder.add(Self.fix(track.coordinate(at: 46), time: track.startTime + 3, accuracy: 5, speed: 1))
        #expect(recorder.statistics().currentSpeed == 1)
    }

    /// Drive 10 s at 10 m/s, stop 60 s, drive 10 s: with reported speeds the stop is not
    /// moving time; without them the first step after the stop averages 10 m over 61 s
    /// (0.16 m/s), below the moving speed, so the stop stays out too, with that step's second.
    @Test func stopsAreNotMovingTime() throws {
        func northing(_ t: Int) -> Double { t <= 10 ? 10 * Double(t) : t <= 70 ? 100 : 100 + 10 * Double(t - 70) }
        for reportSpeed in [true, false] {
            var recorder = try RouteRecorder()
            try recorder.start(at: track.startTime)
            for t in 0...80 {
                let speed = t > 0 && northing(t) > northing(t - 1) ? 10.0 : 0
                recorder.add(Self.fix(track.coordinate(at: northing(t)), time: track.startTime + Double(t), accuracy: 2,
                                      speed: reportSpeed ? speed : nil))
            }
            let stats = recorder.statistics()
            #expect(abs(stats.distance - 200) < 1e-6)
            #expect(stats.movingTime == (reportSpeed ? 20 : 19), "speeds reported: \(reportSpeed)")
            #expect(stats.averageSpeed.map { abs($0 - 200 / stats.movingTime) < 1e-9 } == true)
        }
    }

    @Test func pauseLeavesOutTimeAndWay() throws {
        var recorder = try RouteRecorder()
        let t0 = track.startTime
        try recorder.start(at: t0)
        for i in 0...10 { recorder.add(track.fix(at: 10 * Double(i), seconds: Double(i), accuracy: 1)) }
        try recorder.pause(at: t0 + 10)
        #expect(recorder.add(track.fix(at: 500, seconds: 50, accuracy: 1)) == .notRecording)
        try recorder.resume(at: t0 + 100)
        for i in 0...10 { recorder.add(track.fix(at: 1000 + 10 * Double(i), seconds: 100 + Double(i), accuracy: 1)) }
        try recorder.stop(at: t0 + 120)
        let stats = recorder.statistics(at: t0 + 500)
        #expect(abs(stats.distance - 200) < 1e-6)
        #expect(stats.elapsedTime == 30 && stats.movingTime == 20)
        #expect(stats.state == .stopped && recorder.segments.map(\.count) == [11, 11])
        #expect(recorder.gpx().tracks[0].segments.count == 2)
        #expect(recorder.add(track.fix(at: 0, seconds: 200)) == .notRecording)
    }

    @Test func elapsedTimeRunsWhileRecording() throws {
        var recorder = try RouteRecorder()
        try recorder.start(at: 100)
        #expect(recorder.statistics(at: 160).elapsedTime == 60)
        try recorder.pause(at: 170)
        #expect(recorder.statistics(at: 1000).elapsedTime == 70)
    }

    @Test func commandsOutOfTurnAreRefused() throws {
        var recorder = try RouteRecorder()
        #expect(throws: RouteRecorderError(command: "pause", state: .idle, timeWentBack: false)) { try recorder.pause(at: 1) }
        #expect(throws: RouteRecorderError.self) { try recorder.resume(at: 1) }
        #expect(throws: RouteRecorderError.self) { try recorder.stop(at: 1) }
        try recorder.start(at: 10)
        #expect(throws: RouteRecorderError.self) { try recorder.start(at: 11) }
        #expect(throws: RouteRecorderError(command: "pause", state: .recording, timeWentBack: true)) { try recorder.pause(at: 9) }
        #expect(throws: RouteRecorderError.self) { try recorder.pause(at: .nan) }
        try recorder.stop(at: 12)
        try recorder.start(at: 13)
        #expect(recorder.statistics().pointCount == 0 && recorder.segments.count == 1)
    }

    @Test func badFixesAreRefused() throws {
        var recorder = try RouteRecorder()
        try recorder.start(at: track.startTime)
        #expect(recorder.add(track.fix(at: 0, seconds: -1)) == .refused, "before the start")
        #expect(recorder.add(Location(latitude: .nan, longitude: 0, timestamp: track.startTime + 1)) == .refused)
        #expect(recorder.add(track.fix(at: 0, seconds: 2)) == .stationary)
        #expect(recorder.add(track.fix(at: 100, seconds: 2)) == .refused, "same time")
        #expect(recorder.statistics().pointCount == 1)
    }
}
