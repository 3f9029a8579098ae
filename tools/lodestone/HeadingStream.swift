import LodestoneCalibration
import LodestoneCore
import LodestoneLogs

/// Samples to NDJSON lines, the same way for `replay`, `watch` and `record`: the
/// accelerometer calibration, the true-north events, then the pipeline's magnetic
/// events, then the heading.
/// Sharing it is what makes `replay` of a recording print exactly what `record`
/// printed.
struct HeadingStream {
    var pipeline: HeadingPipeline
    private let position: PositionOptions
    /// Applied to each sample's acceleration first (a profile for this device).
    private let accelerometer: AccelerometerCalibration?
    private var trueNorth: TrueNorth?
    /// Online hard-iron tracking (`--auto-calibrate`), fed the raw field before the pipeline.
    private var autoCalibration: AutoCalibrationRun?
    /// Unix seconds of time 0, when known: adds `time` to each heading.
    private(set) var wallClockStart: Double?

    init(pipeline: HeadingPipeline, position: PositionOptions, accelerometer: AccelerometerCalibration? = nil,
         autoCalibration: AutoCalibrationRun? = nil) {
        self.pipeline = pipeline
        self.position = position
        self.accelerometer = accelerometer
        self.autoCalibration = autoCalibration
    }

    /// Sets the wall clock of time 0 (nil when unknown); call before the first sample.
    mutating func start(wallClockStart: Double?) {
        self.wallClockStart = wallClockStart
        trueNorth = TrueNorth(position, logStart: wallClockStart, now: WallClock.now())
    }

    /// Appends the lines for one sample to `json`; returns the heading delivered, if any.
    mutating func append(_ raw: SensorSample, to json: JSONLineBuilder) throws -> Heading? {
        var sample = raw
        if let accelerometer { sample.acceleration = accelerometer.apply(sample.acceleration) }
        if trueNorth != nil {
            for e in try trueNorth!.update(&pipeline, time: sample.time) {
                json.appendEvent(e.name, reason: e.reason, detail: e.detail, timestamp: sample.time)
            }
        }
        if autoCalibration != nil {
            // The log's wall clock when it has one (a replay stays reproducible), else now.
            let unixTime = wallClockStart.map { $0 + sample.time } ?? WallClock.now()
            autoCalibration!.process(sample.magneticField, time: sample.time, unixTime: unixTime, pipeline: &pipeline, json: json)
        }
        let heading = pipeline.process(sample)
        if pipeline.hasEvents {
            for e in pipeline.takeEvents() { json.appendEvent(e, timestamp: sample.time) }
        }
        if let heading { json.appendHeading(heading, wallClockStart: wallClockStart) }
        return heading
    }
}
