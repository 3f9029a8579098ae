import Foundation
import LodestoneCalibration
import LodestoneCore
import LodestoneHTTP
import LodestoneJSON
import LodestoneSimulation
import Synchronization

/// A simulated board with known truth, run through the real heading pipeline in real time
/// while someone watches, published as the protocol's objects: HEADING (with pitch, roll
/// and expectedField), EVENT (from the pipeline's own magnetic events), POSITION, STEER,
/// COVERAGE. A magnet rides on the board from 11 s to 14 s, so a disturbance comes and goes.
final class ReplayedBoardFeed: LiveFeed, @unchecked Sendable {
    static let declination = 4.0
    static let profile = MotionProfile([
        .hold(BoardAttitude(heading: 20), duration: 2),
        .move(from: BoardAttitude(heading: 20), to: BoardAttitude(heading: 110, pitch: 15, roll: -8), duration: 3),
        .hold(BoardAttitude(heading: 110, pitch: 15, roll: -8), duration: 2),
        .move(from: BoardAttitude(heading: 110, pitch: 15, roll: -8), to: BoardAttitude(heading: 250, pitch: -5, roll: 10), duration: 4),
        .hold(BoardAttitude(heading: 250, pitch: -5, roll: 10), duration: 4),
        .move(from: BoardAttitude(heading: 250, pitch: -5, roll: 10), to: BoardAttitude(heading: 340), duration: 3),
        .hold(BoardAttitude(heading: 340), duration: 12),
    ])

    struct State {
        var running = false
        var started = 0
        /// True heading of the truth attitude, by the HEADING `timestamp` text.
        var truth: [String: Double] = [:]
        var latestHeading: String?
        var events: [String] = []
    }

    let state = Mutex(State())
    private let server = WeakServer()

    func attach(_ server: LiveViewServer) { self.server.value = server }

    var replays: Int { state.withLock { $0.started } }

    func trueHeadingTruth(at timestamp: Double) -> Double? {
        state.withLock { $0.truth[String(format: "%.6f", timestamp)] }
    }

    func snapshot() -> [String] {
        let (heading, events) = state.withLock { ($0.latestHeading, $0.events) }
        return [Self.devices, Self.position, Self.coverage] + events + (heading.map { [$0] } ?? [])
    }

    func viewersChanged(_ count: Int) {
        let start = state.withLock { s -> Bool in
            defer { s.running = count > 0 }
            return count > 0 && !s.running
        }
        if start {
            state.withLock { $0.started += 1 }
            Thread { [self] in replay() }.start()
        }
    }

    private func replay() {
        let rate = 50.0
        var board = SyntheticRecording(profile: Self.profile, rate: rate, errors: .init(magnetometerNoise: 0.3, accelerometerNoise: 0.03),
                                       includesGyroscope: true, seed: 7)
        board.carriedFields = [.init(start: 11, end: 14, field: Vector3(30, -20, 10))]
        var pipeline = HeadingPipeline(headingFilter: 0, declination: Declination(degrees: Self.declination))
        pipeline.setExpectedField(ExpectedField(strength: 50, dip: 65))
        let start = Date()
        var index = 0
        while state.withLock({ $0.running }), let sample = board.nextSample() {
            let wait = sample.time - Date().timeIntervalSince(start)
            if wait > 0 { Thread.sleep(forTimeInterval: wait) }
            let heading = pipeline.process(sample)
            for event in pipeline.takeEvents() { publishEvent(event) }
            index += 1
            guard let heading, index % 5 == 0 else { continue } // 10 Hz to the page
            let truthTrue = Angle.normalized360(board.truth.heading(of: .unitY) + Self.declination)
            let json = Self.heading(heading)
            state.withLock { s in
                s.truth[String(format: "%.6f", heading.timestamp)] = truthTrue
                s.latestHeading = json
            }
            server.value?.publish(json)
            if let t = heading.trueHeading { server.value?.publish(Self.steer(trueHeading: t)) }
        }
    }

    private func publishEvent(_ event: MagneticEvent) {
        let j = JSONLineBuilder(capacity: 512)
        j.beginObject()
        j.string("class", "EVENT")
        j.string("time", ISO8601DateFormatter().string(from: Date()))
        switch event {
        case .calibrationNeeded(let reason, let detail):
            j.string("event", "calibrationNeeded"); j.string("reason", reason.rawValue); j.string("detail", detail)
        case .disturbanceStarted(let reason, let detail):
            j.string("event", "magneticDisturbance"); j.string("state", "start"); j.string("reason", reason.rawValue); j.string("detail", detail)
        case .disturbanceEnded(let detail):
            j.string("event", "magneticDisturbance"); j.string("state", "end"); j.string("reason", "fieldNormal"); j.string("detail", detail)
        }
        j.endObject()
        let json = j.text
        if case .calibrationNeeded = event { state.withLock { $0.events.append(json) } }
        server.value?.publish(json)
    }

    /// HEADING as PROTOCOL.md has it, plus the live view's pitch, roll and expectedField.
    static func heading(_ h: Heading) -> String {
        let tilt = Tilt(attitude: h.attitude)
        let j = JSONLineBuilder(capacity: 512)
        j.beginObject()
        j.string("class", "HEADING")
        j.number("timestamp", h.timestamp, decimals: 6)
        j.number("magneticHeading", h.magneticHeading, decimals: 3)
        j.number("trueHeading", h.trueHeading, decimals: 3)
        j.number("headingAccuracy", h.headingAccuracy, decimals: 2)
        j.number("declination", h.declination?.degrees, decimals: 3)
        j.number("x", h.x, decimals: 3)
        j.number("y", h.y, decimals: 3)
        j.number("z", h.z, decimals: 3)
        j.number("pitch", tilt.pitch, decimals: 2)
        j.number("roll", tilt.roll, decimals: 2)
        j.number("expectedField", 50, decimals: 2)
        j.endObject()
        return j.text
    }

    static let target = (latitude: 52.5200, longitude: 13.4050, bearing: 62.0, distance: 1830.0)

    static func steer(trueHeading: Double) -> String {
        let delta = Angle.normalized180(target.bearing - trueHeading)
        let turn = abs(delta) < 10 ? "ahead" : abs(delta) < 45 ? (delta > 0 ? "slightRight" : "slightLeft")
            : abs(delta) < 135 ? (delta > 0 ? "right" : "left") : "turnAround"
        return #"{"class":"STEER","lat":\#(target.latitude),"lon":\#(target.longitude),"bearing":\#(target.bearing),"finalBearing":62.1,"distance":\#(target.distance),"trueHeading":\#(String(format: "%.3f", trueHeading)),"delta":\#(String(format: "%.3f", delta)),"turn":"\#(turn)","arrived":false,"eta":null}"#
    }

    static let devices = #"{"class":"DEVICES","source":"simulated","devices":[{"class":"DEVICE","kind":"simulated","path":"simulated","name":"simulated board (test replay)"}]}"#

    static let position = LiveViewMessages.position(latitude: 52.5125, longitude: 13.3870, source: "fixed")

    /// The coverage a figure-eight calibration left: field directions over most of the sphere.
    static let coverage: String = {
        var cover = SphereCoverage()
        for lat in stride(from: -50.0, through: 80, by: 9) {
            for lon in stride(from: 0.0, to: 300, by: 11) {
                let r = Angle.radiansPerDegree
                cover.add(Vector3(cos(lat * r) * cos(lon * r), cos(lat * r) * sin(lon * r), sin(lat * r)))
            }
        }
        return LiveViewMessages.coverage(regionCounts: cover.counts, percent: cover.coveragePercent)
    }()
}

/// The server, not kept alive by its feed.
private final class WeakServer: @unchecked Sendable {
    weak var value: LiveViewServer?
}
