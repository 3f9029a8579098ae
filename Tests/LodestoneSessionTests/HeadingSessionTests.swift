import LodestoneCalibration
import LodestoneCore
import LodestoneGeomagnetism
import LodestoneJSON
import LodestoneLocation
import LodestoneLogs
import LodestonePosition
import LodestoneSession
import LodestoneSimulation
import Testing

@Suite struct HeadingSessionTests {
    func samples(heading: Double = 30, duration: Double = 3, gyroscope: Bool = false) -> [SensorSample] {
        samples(MotionProfile([.hold(BoardAttitude(heading: heading, pitch: 10, roll: -5), duration: duration)]), gyroscope: gyroscope)
    }

    /// 50 Hz samples of `profile` with typical sensor errors.
    func samples(_ profile: MotionProfile, gyroscope: Bool = false) -> [SensorSample] {
        var r = SyntheticRecording(profile: profile, rate: 50, errors: .typical, includesGyroscope: gyroscope)
        var out: [SensorSample] = []
        while let s = r.nextSample() { out.append(s) }
        return out
    }

    func session(_ settings: HeadingSession.Settings = .init(headingFilter: 0), calibration: SessionCalibration = .init(),
                 clock: ManualClock = ManualClock()) -> HeadingSession {
        HeadingSession(settings: settings, calibration: calibration, clock: clock, saving: .byHost)
    }

    /// The accelerometer correction is applied once, in the session, before the estimator.
    @Test func theAccelerometerProfileCorrectsEachSample() {
        let correction = AccelerometerCalibration(offset: Vector3(0.4, -0.3, 0.2), matrix: Matrix3(diagonal: Vector3(1.02, 0.97, 1.01)))
        var calibration = SessionCalibration()
        calibration.accelerometer = correction
        var corrected = session(calibration: calibration)
        var byHand = session()
        corrected.start(wallClockStart: 0)
        byHand.start(wallClockStart: 0)
        var compared = 0
        for raw in samples() {
            var fixed = raw
            fixed.acceleration = correction.apply(raw.acceleration)
            let a = corrected.process(raw), b = byHand.process(fixed)
            #expect(a == b)
            if a != nil { compared += 1 }
        }
        #expect(compared > 100)
        var uncorrected = session()
        uncorrected.start(wallClockStart: 0)
        var lastCorrected: Heading?, lastRaw: Heading?
        var again = session(calibration: calibration)
        again.start(wallClockStart: 0)
        for raw in samples() {
            lastCorrected = again.process(raw) ?? lastCorrected
            lastRaw = uncorrected.process(raw) ?? lastRaw
        }
        let difference = abs(Angle.difference(from: lastRaw?.magneticHeading ?? 0, to: lastCorrected?.magneticHeading ?? 0))
        #expect(difference > 0.1, "the correction changes the tilt, so the heading (\(difference)°)")
    }

    /// A live position puts the fresh fix's speed and track into each sample, nil without one;
    /// without a live position a log's own columns stay.
    @Test func aLivePositionAidsTheSamplesWithSpeedAndTrack() {
        let clock = ManualClock()
        var settings = HeadingSession.Settings(headingFilter: 0)
        settings.trueNorth.position = .external(name: "a test track")
        var s = session(settings, clock: clock)
        let raw = SensorSample(time: 0, acceleration: Vector3(0, 0, 9.81), magneticField: Vector3(0, 20, -40), speed: 3, track: 10)
        #expect(s.aided(raw).speed == nil && s.aided(raw).track == nil, "no fix yet: no speed, not the sample's")
        s.positionUpdated(.fix(Location(latitude: 52, longitude: 13, speed: 14.5, course: 271, timestamp: 0)))
        #expect(s.aided(raw).speed == 14.5 && s.aided(raw).track == 271)
        clock.advance(3.5)
        s.refreshTrueNorth()
        #expect(s.aided(raw).speed == nil, "a fix older than 3 s no longer describes the motion")
        var replay = session()
        replay.positionUpdated(.fix(Location(latitude: 52, longitude: 13, speed: 14.5, course: 271, timestamp: 0)))
        #expect(replay.aided(raw).speed == 3 && replay.aided(raw).track == 10, "a log's own columns stay")
    }

    /// In the blackout zone true heading and declination are both null, in every output.
    @Test func theBlackoutZoneNullsDeclinationInTheHeading() throws {
        let (lat, lon) = try TrueNorthTests.blackoutPoint()
        var settings = HeadingSession.Settings(headingFilter: 0)
        settings.trueNorth = TrueNorth.Settings(position: .fixed(latitude: lat, longitude: lon, height: 0),
                                                modelDate: DecimalYear.unixTime(fromDecimalYear: 2026.5))
        var s = session(settings)
        s.start(wallClockStart: 0)
        let heading = try #require(samples().compactMap { s.process($0) }.last)
        #expect(heading.trueHeading == nil && heading.declination == nil && heading.reportedDeclination == nil)
        let events = s.takeEvents()
        #expect(events.contains { $0.name == .trueHeadingUnavailable && $0.reason == .blackoutZone && $0.timestamp == 0 })
        let json = JSONLineBuilder()
        json.appendHeading(heading, withDeclination: true)
        #expect(json.text.contains(#""trueHeading":null"#) && json.text.contains(#""declination":null"#), "\(json.text)")
    }

    @Test func aDisturbanceEndsWithFieldNormal() {
        let end = HeadingEvent(.disturbanceEnded(detail: "back within 5 %"), timestamp: 12)
        #expect(end.name == .magneticDisturbance && end.reason == .fieldNormal && end.state == .end)
        let start = HeadingEvent(.disturbanceStarted(.dipOff, detail: "dip 20° off"), timestamp: 3)
        #expect(start.reason == .dipOff && start.state == .start)
        for reason in CalibrationReason.allCases {
            #expect(HeadingEvent(.calibrationNeeded(reason, detail: ""), timestamp: nil).reason.rawValue == reason.rawValue)
        }
        let json = JSONLineBuilder()
        json.appendEvent(end)
        #expect(json.text == #"{"event":"magneticDisturbance","state":"end","reason":"fieldNormal","detail":"back within 5 %","timestamp":12.000000}"# + "\n")
    }

    /// A reload that changes nothing the estimator uses keeps its state: no second calibration prompt.
    @Test func reconfiguringWithTheSameCalibrationKeepsTheEstimator() {
        var s = session()
        s.start(wallClockStart: 0)
        let all = samples(duration: 4)
        for x in all[..<100] { _ = s.process(x) }
        #expect(s.takeEvents().map(\.reason) == [.neverCalibrated])
        var settings = s.settings
        settings.headingFilter = 5
        s.reconfigure(settings: settings, calibration: s.calibration)
        var delivered = 0
        for x in all[100...] where s.process(x) != nil { delivered += 1 }
        #expect(s.takeEvents().isEmpty, "the estimator was not started again")
        #expect(delivered <= 2, "the new headingFilter holds a still board's headings back (\(delivered))")
        settings.estimator.forwardAxis = .plusX
        s.reconfigure(settings: settings, calibration: s.calibration)
        for x in all[..<100] { _ = s.process(x) }
        #expect(s.takeEvents().map(\.reason) == [.neverCalibrated], "another forward axis starts afresh")
    }

    @Test func noSmoothingIsRefusedWhereGyroFusionRuns() {
        var settings = HeadingSession.Settings()
        settings.estimator.smoothing = nil
        #expect(throws: SessionError.self) { try settings.check(hasGyroscope: true) }
        #expect(throws: Never.self) { try settings.check(hasGyroscope: false) }
        settings.estimator.fusion = .ecompass
        #expect(throws: Never.self) { try settings.check(hasGyroscope: true) }
    }
}
