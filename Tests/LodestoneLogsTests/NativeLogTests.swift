import LodestoneTestSupport
import Testing
import LodestoneCore
import LodestoneLogs
import LodestoneSimulation

@Suite struct NativeLogTests {
    let dir = TemporaryDirectory()

    @Test func roundTripIsBitExactAndKeepsMetadata() throws {
        let path = dir.path("rec.lslog")
        let meta = LogMetadata(start: "2026-11-30T04:00:00.250Z", rate: 100, source: "test",
                               device: .object(["magnetometer": .string("lis3mdl")]))
        var rec = SyntheticRecording(profile: .demo, rate: 20, errors: .typical, includesGyroscope: true)
        var written: [SensorSample] = []
        let writer = try LogWriter(path: path, metadata: meta, gyroscope: true)
        while let s = rec.nextSample() {
            try writer.write(s)
            written.append(s)
        }
        try writer.finish()

        let reader = try LogReader(path: path)
        #expect(reader.format == .native)
        #expect(reader.metadata == meta)
        #expect(reader.metadata?.startUnixSeconds == 1_796_011_200.25 /* Python datetime */)
        var read: [SensorSample] = []
        while let s = try reader.nextSample() { read.append(s) }
        #expect(read == written) // every Double survives text exactly
    }

    /// Speed and track survive a native log, gaps included, and replay unchanged.
    @Test func groundSpeedAndTrackRoundTrip() throws {
        var sensors = SensorSuite.typical
        sensors.groundSpeed = GroundSpeedModel(minimumTrackSpeed: 5)
        var rec = ScenarioRecording(scenario: .drive(.init(duration: 60, seed: 4)), sensors: sensors, rate: 20)
        let writer = try LogWriter(path: dir.path("drive.lslog"), metadata: LogMetadata(rate: 20, source: "simulation"),
                                   gyroscope: true, groundTrack: true)
        let (written, read, columns) = try roundTrip(&rec, writer)
        #expect(written.contains { $0.speed != nil && $0.track == nil }, "parked: speed without a track")
        #expect(written.contains { $0.track != nil })
        #expect(columns.suffix(2) == ["speed", "track"])
        #expect(read == written)
    }

    /// Writes every sample of `recording` with `writer`, then reads the file back:
    /// the samples written, those read, and the columns read.
    private func roundTrip(_ recording: inout ScenarioRecording, _ writer: LogWriter) throws
        -> (written: [SensorSample], read: [SensorSample], columns: [String]) {
        var written: [SensorSample] = []
        while let s = recording.nextSample() {
            try writer.write(s)
            written.append(s)
        }
        try writer.finish()
        let reader = try LogReader(path: writer.path)
        var read: [SensorSample] = []
        while let s = try reader.nextSample() { read.append(s) }
        return (written, read, reader.columns)
    }

    /// A warming gyroscope's temperature survives a native log and replays unchanged.
    @Test func temperatureRoundTrips() throws {
        var sensors = SensorSuite.typical
        sensors.gyroscope.warmUp = .init(drift: Vector3(0.01, 0, 0), timeConstant: 20)
        sensors.gyroscope.thermometer = .init(start: 21)
        var rec = ScenarioRecording(scenario: .tumble(.init(duration: 30, seed: 2)), sensors: sensors, rate: 20)
        let writer = try LogWriter(path: dir.path("warming.lslog"), metadata: LogMetadata(rate: 20, source: "simulation"),
                                   gyroscope: true, temperature: true)
        let (written, read, columns) = try roundTrip(&rec, writer)
        #expect(abs((written.first?.temperature ?? 0) - 21) < 0.01)
        #expect((written.last?.temperature ?? 0) > 28, "warmed by most of 10 K over 1.5 time constants")
        #expect(columns.last == "temperature")
        #expect(read == written)
    }

    @Test func writerRefusesTemperaturesItCouldNotReadBack() throws {
        let writer = try LogWriter(path: dir.path("bad-temp.csv"), metadata: nil, gyroscope: true, temperature: true)
        var sample = SensorSample(time: 0, acceleration: Vector3(0, 0, 9.81), magneticField: Vector3(20, 0, -40),
                                  angularRate: .zero, temperature: 300)
        #expect(throws: LogError.self) { try writer.write(sample) }
        sample.temperature = nil
        try writer.write(sample)
    }

    @Test func writerRefusesSpeedsAndTracksItCouldNotReadBack() throws {
        let writer = try LogWriter(path: dir.path("bad.csv"), metadata: nil, gyroscope: false, groundTrack: true)
        let sample = SensorSample(time: 0, acceleration: Vector3(0, 0, 9.81), magneticField: Vector3(20, 0, -40))
        var bad = sample
        bad.speed = -1
        #expect(throws: LogError.self) { try writer.write(bad) }
        bad.speed = 3
        bad.track = 361
        #expect(throws: LogError.self) { try writer.write(bad) }
    }

    @Test func appendingContinuesTheLogAndChecksColumns() throws {
        let path = dir.path("append.lslog")
        let meta = LogMetadata(start: "2026-11-30T04:00:00Z")
        let s0 = SensorSample(time: 0, acceleration: Vector3(0, 0, 9.81), magneticField: Vector3(20, 0, -40))
        do {
            let w = try LogWriter(path: path, metadata: meta, gyroscope: false)
            try w.write(s0)
            try w.finish()
        }
        var s1 = s0, early = s0
        s1.time = 5
        early.time = -1
        do {
            let w = try LogWriter(path: path, metadata: meta, gyroscope: false, append: true)
            #expect(throws: LogError.self) { try w.write(early) } // before the log's end
            try w.write(s1)
            try w.finish()
        }
        let r = try LogReader(path: path)
        #expect(try r.nextSample() == s0)
        #expect(try r.nextSample() == s1)
        #expect(try r.nextSample() == nil)
        #expect(throws: LogError.self) { _ = try LogWriter(path: path, metadata: meta, gyroscope: true, append: true) }
    }

    @Test func unitsInMetadataAreConverted() throws {
        let path = dir.file("units.lslog", """
            # lodestone-log 1
            # {"units":{"time":"ms","acceleration":"g","magneticField":"G","angularRate":"deg/s"}}
            time,accel_x,accel_y,accel_z,mag_x,mag_y,mag_z,gyro_x,gyro_y,gyro_z
            1500,0,0,1,0.2,0,-0.4,180,0,0

            """)
        let s = try #require(try LogReader(path: path).nextSample())
        #expect(s.time == 1.5)
        #expect(s.acceleration.z == 9.80665)
        #expect(s.magneticField == Vector3(20, 0, -40))
        #expect(abs(s.angularRate!.x - Double.pi) < 1e-15)
    }

    @Test func badMetadataIsRejected() {
        let cases = [
            "# lodestone-log 2\n# {}\n",
            "# lodestone-log 1\n# {not json\n",
            "# lodestone-log 1\n# {\"units\":{\"time\":\"s\",\"acceleration\":\"furlongs\",\"magneticField\":\"uT\",\"angularRate\":\"rad/s\"}}\n",
        ]
        for (i, text) in cases.enumerated() {
            let path = dir.file("bad\(i).lslog", text)
            #expect(throws: LogError.self) { _ = try LogReader(path: path) }
        }
    }

    /// An unknown unit is named with its key and the units that are known (issue 13: the
    /// message printed a Swift struct, `Units(time: "s", …)`).
    @Test func anUnknownUnitIsNamedWithItsKey() throws {
        let path = dir.file("units.lslog", "# lodestone-log 1\n# {\"units\":{\"time\":\"s\",\"acceleration\":\"g\",\"magneticField\":\"furlong\\u001b[2J\",\"angularRate\":\"rad/s\"}}\n")
        do {
            _ = try LogReader(path: path)
            Issue.record("an unknown unit was accepted")
        } catch {
            #expect(error.kind == .unsupportedUnit && error.line == 2)
            #expect(error.message == "unsupported unit \"furlong?[2J\" for units.magneticField; use one of uT, µT, μT, nT, mT, G, gauss, mG", "\(error.message)")
        }
    }

    /// Headings are rounded, then wrapped: 359.99999° prints as 0.000 (issue 13: "360.000").
    @Test func headingsJustUnder360PrintAsZero() {
        let h = Heading(timestamp: 1, magneticHeading: 359.99999, trueHeading: 359.9996, headingAccuracy: 2,
                        declination: nil, x: 0, y: 20, z: -40, attitude: Quaternion(w: 1, x: 0, y: 0, z: 0))
        let json = JSONLineBuilder()
        json.appendHeading(h)
        #expect(json.text.contains(#""magneticHeading":0.000,"trueHeading":0.000,"#), "\(json.text)")
    }

    /// A metadata line that is JSON but not metadata: the error names the field and the line.
    @Test func badMetadataFieldIsNamed() throws {
        let path = dir.file("field.lslog", "# lodestone-log 1\n# {\"rate\":\"fast\",\"units\":{}}\ntime,accel_x,accel_y,accel_z,mag_x,mag_y,mag_z\n")
        do {
            _ = try LogReader(path: path)
            Issue.record("bad metadata was accepted")
        } catch {
            #expect(error.kind == .badMetadata)
            #expect(error.line == 2)
            #expect(error.message.contains("field rate must be a number, not a string"), "\(error.message)")
        }
        #expect(throws: LogMetadataError(description: "field units.time is missing")) {
            try LogMetadata.decode(jsonLine: #"{"units":{}}"#)
        }
    }

    /// The header line as earlier versions (Foundation's JSONEncoder) wrote it reads back,
    /// and is written again byte for byte.
    @Test func metadataLineOfEarlierVersionsRoundTrips() throws {
        let line = #"{"device":{"accelerometer":{"deviceName":"lis3dh","scale":0.000598550415},"uri":"local:"},"note":"a \"quoted\" note","rate":100,"source":"iio:local:","start":"2026-11-30T04:00:00.000Z","units":{"acceleration":"m/s^2","angularRate":"rad/s","magneticField":"uT","time":"s"}}"#
        let meta = try LogMetadata.decode(jsonLine: line)
        #expect(meta.rate == 100)
        #expect(meta.note == "a \"quoted\" note")
        #expect(meta.device?["accelerometer"]?["scale"] == .number(0.000598550415))
        #expect(meta.jsonLine() == line)
    }

    @Test func plainCSVWriterOutputReadsBack() throws {
        let path = dir.path("plain.csv")
        let w = try LogWriter(path: path, metadata: nil, gyroscope: false)
        let s = SensorSample(time: 0.125, acceleration: Vector3(0.1, 0.2, 9.7), magneticField: Vector3(1e-5, -0.0, 33.3))
        try w.write(s)
        try w.finish()
        let r = try LogReader(path: path)
        #expect(r.format == .plainCSV)
        #expect(try r.nextSample() == s)
    }
}
