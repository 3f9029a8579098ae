import LodestoneTestSupport
import Testing
import LodestoneCore
import LodestoneLogs

private let header = "time,accel_x,accel_y,accel_z,mag_x,mag_y,mag_z"

/// Reads every sample, or the first error.
private func readAll(_ path: String, _ options: LogReader.Options = .init()) -> (samples: [SensorSample], error: LogError?, reader: LogReader?) {
    var samples: [SensorSample] = []
    do {
        let r = try LogReader(path: path, options: options)
        do {
            while let s = try r.nextSample() { samples.append(s) }
        } catch {
            return (samples, error, r)
        }
        return (samples, nil, r)
    } catch {
        return (samples, error, nil)
    }
}

@Suite struct LogReaderTests {
    let dir = TemporaryDirectory()

    @Test func readsPlainCSVWithCommentsBlankLinesAndCRLF() throws {
        let path = dir.file("a.csv", "# recorded on a bench\r\n\(header)\r\n0,0,0,9.81,20,0,-40\r\n\r\n# note\n0.01, 0.1 ,-0.2,9.8,19.5,0.5,-40.5\n")
        let (samples, error, reader) = readAll(path)
        #expect(error == nil)
        #expect(samples.count == 2)
        #expect(samples[1] == SensorSample(time: 0.01, acceleration: Vector3(0.1, -0.2, 9.8), magneticField: Vector3(19.5, 0.5, -40.5)))
        #expect(reader?.format == .plainCSV)
        #expect(reader?.hasGyroscope == false)
    }

    /// The last line without a newline, in a buffer that held longer lines before: its
    /// last number ends where the file does (the reader puts a newline after it), not
    /// at digits left over in the buffer.
    @Test func lastLineWithoutNewlineEndsWhereTheFileDoes() {
        let lines = (0..<20).map { "\($0).5,0.125,0.25,9.8125,20.0625,1.5,-40.75\n" }.joined()
        let path = dir.file("unterminated.csv", "\(header)\n" + lines + "20.5,0,0,9.81,20,0,-4")
        let (samples, error, _) = readAll(path, .init(bufferSize: 128))
        #expect(error == nil)
        #expect(samples.count == 21)
        #expect(samples.last == SensorSample(time: 20.5, acceleration: Vector3(0, 0, 9.81), magneticField: Vector3(20, 0, -4)))
    }

    @Test func findsColumnsByNameInAnyOrderAndIgnoresUnknownOnes() {
        let path = dir.file("b.csv", "mag_z,extra,gyro_x,gyro_y,gyro_z,TIME,accel_x,accel_y,accel_z,mag_x,mag_y\n-40,hello,0.1,0.2,0.3,1.5,0,0,9.81,20,1\n")
        let (samples, error, _) = readAll(path)
        #expect(error == nil)
        #expect(samples == [SensorSample(time: 1.5, acceleration: Vector3(0, 0, 9.81), magneticField: Vector3(20, 1, -40),
                                         angularRate: Vector3(0.1, 0.2, 0.3))])
    }

    /// A position source's ground speed and track: read when present, nil
    /// where the field is empty or nan, and nil throughout without the columns.
    @Test func groundSpeedAndTrackColumnsAreRead() throws {
        let path = dir.file("speed.csv", "\(header),track,speed\n0,0,0,9.81,20,0,-40,359.5,12.25\n0.01,0,0,9.81,20,0,-40,,3\n"
                            + "0.02,0,0,9.81,20,0,-40,nan,nan\n0.03,0,0,9.81,20,0,-40,0, 0 \n")
        let (samples, error, reader) = readAll(path)
        #expect(error == nil)
        #expect(reader?.hasSpeed == true && reader?.hasTrack == true)
        #expect(samples.map(\.speed) == [12.25, 3, nil, 0])
        #expect(samples.map(\.track) == [359.5, nil, nil, 0])
        let plain = readAll(dir.file("plain.csv", "\(header)\n0,0,0,9.81,20,0,-40\n"))
        #expect(plain.samples[0].speed == nil && plain.samples[0].track == nil && plain.reader?.hasSpeed == false)
    }

    /// The gyroscope's temperature: read when present, nil where the field is
    /// empty or nan, and nil throughout without the column.
    @Test func temperatureColumnIsRead() throws {
        let path = dir.file("temp.csv", "\(header),temperature\n0,0,0,9.81,20,0,-40,24.5\n0.01,0,0,9.81,20,0,-40,\n"
                            + "0.02,0,0,9.81,20,0,-40,nan\n0.03,0,0,9.81,20,0,-40, -12 \n")
        let (samples, error, reader) = readAll(path)
        #expect(error == nil)
        #expect(reader?.hasTemperature == true)
        #expect(samples.map(\.temperature) == [24.5, nil, nil, -12])
        let plain = readAll(dir.file("plain-temp.csv", "\(header)\n0,0,0,9.81,20,0,-40\n"))
        #expect(plain.samples[0].temperature == nil && plain.reader?.hasTemperature == false)
    }

    @Test func extraColumnsAreReturnedAndMayBeNaN() throws {
        let path = dir.file("c.csv", "\(header),truth_w\n0,0,0,9.81,20,0,-40,nan\n1,0,0,9.81,20,0,-40,0.5\n")
        let r = try LogReader(path: path, options: .init(extraColumns: ["truth_w"]))
        _ = try r.nextSample()
        #expect(r.extraValues[0].isNaN)
        _ = try r.nextSample()
        #expect(r.extraValues == [0.5])
    }

    // Every bad-input case names the file and line and says what is wrong.
    @Test(arguments: [
        ("wrong-count.csv", "\(header)\n0,0,0,9.81,20,0,-40\n1,0,0,9.81,20,0\n", LogError.Kind.wrongColumnCount, 3, "expected 7 fields"),
        ("too-many.csv", "\(header)\n0,0,0,9.81,20,0,-40,7\n", .wrongColumnCount, 2, "found 8"),
        ("non-numeric.csv", "\(header)\n0,0,0,9.81,twenty,0,-40\n", .notANumber, 2, "column mag_x: 'twenty' is not a number"),
        ("empty-field.csv", "\(header)\n0,0,,9.81,20,0,-40\n", .notANumber, 2, "column accel_y"),
        ("nan.csv", "\(header)\n0,0,0,9.81,20,NaN,-40\n", .notFinite, 2, "column mag_y: 'NaN' is not a finite number"),
        ("inf.csv", "\(header)\n0,0,0,inf,20,0,-40\n", .notFinite, 2, "column accel_z"),
        ("overflow.csv", "\(header)\n0,0,0,1e999,20,0,-40\n", .notFinite, 2, "accel_z"),
        ("backwards.csv", "\(header)\n1,0,0,9.81,20,0,-40\n0.5,0,0,9.81,20,0,-40\n", .timeWentBackwards, 3, "time goes backwards"),
        ("no-header.csv", "0,0,0,9.81,20,0,-40\n", .missingHeader, 1, "missing header"),
        ("missing-col.csv", "time,accel_x,accel_y,accel_z,mag_x,mag_y\n0,0,0,9.81,20,0\n", .missingColumns, 1, "mag_z"),
        ("partial-gyro.csv", "\(header),gyro_x\n0,0,0,9.81,20,0,-40,0\n", .missingColumns, 1, "gyro"),
        ("dup.csv", "\(header),mag_x\n", .duplicateColumn, 1, "mag_x"),
        ("negative-speed.csv", "\(header),speed\n0,0,0,9.81,20,0,-40,3\n1,0,0,9.81,20,0,-40,-0.5\n", .outOfRange, 3,
         "column speed: '-0.5' is not a ground speed"),
        ("text-speed.csv", "\(header),speed\n0,0,0,9.81,20,0,-40,fast\n", .notANumber, 2, "column speed: 'fast' is not a number"),
        ("inf-speed.csv", "\(header),speed\n0,0,0,9.81,20,0,-40,inf\n", .outOfRange, 2, "column speed"),
        ("track-400.csv", "\(header),speed,track\n0,0,0,9.81,20,0,-40,3,400\n", .outOfRange, 2,
         "column track: '400' is not a track: it must be 0–360 degrees"),
        ("track-negative.csv", "\(header),track\n0,0,0,9.81,20,0,-40,-10\n", .outOfRange, 2, "column track"),
        ("temperature-kelvin.csv", "\(header),temperature\n0,0,0,9.81,20,0,-40,298.15\n", .outOfRange, 2,
         "column temperature: '298.15' is not a part's temperature: it must be -60.0 to 150.0 °C"),
        ("temperature-text.csv", "\(header),temperature\n0,0,0,9.81,20,0,-40,warm\n", .notANumber, 2,
         "column temperature: 'warm' is not a number"),
    ])
    func badInputIsReportedWithFileAndLine(name: String, contents: String, kind: LogError.Kind, line: Int, message: String) throws {
        let path = dir.file(name, contents)
        let (samples, error, _) = readAll(path)
        let e = try #require(error)
        #expect(e.kind == kind)
        #expect(e.line == line)
        #expect(e.description.hasPrefix("\(path):\(line): "))
        #expect(e.description.contains(message), "\(e)")
        // Nothing from the bad line itself came through.
        #expect(samples.count == max(0, line - 2))
    }

    @Test func emptyAndSampleLessFilesAreErrors() throws {
        let empty = readAll(dir.file("empty.csv", ""))
        #expect(empty.error?.kind == .emptyFile)
        #expect(empty.error?.description.contains("empty.csv: the file is empty") == true)
        #expect(readAll(dir.file("comments.csv", "# nothing\n")).error?.kind == .missingHeader)
        #expect(readAll(dir.file("header-only.csv", header + "\n")).error?.kind == .noSamples)
        let missing = readAll(dir.path("does-not-exist.csv"))
        #expect(missing.error?.kind == .cannotOpen)
        #expect(missing.error?.description.contains("No such file") == true)
        #expect(readAll(dir.url.path).error?.kind == .cannotOpen)
    }

    @Test func skipBadLinesContinuesAndCounts() throws {
        let path = dir.file("mixed.csv", "\(header)\n0,0,0,9.81,20,0,-40\nbad\n0.2,0,0,9.81,20,0,nan\n0.1,0,0,9.81,20,0,-40\n0.3,0,0,9.81,20,0,-40\n0.25,0,0,9.81,20,0,-40\n")
        let (samples, error, reader) = readAll(path, .init(skipBadLines: true))
        #expect(error == nil)
        #expect(samples.map(\.time) == [0, 0.1, 0.3])
        #expect(reader?.skippedLineCount == 3)
        #expect(reader?.skippedLines.map(\.line) == [3, 4, 7])
    }

    @Test func readsLargeFilesInConstantMemoryAcrossBufferBoundaries() throws {
        // Lines straddle the 1 MiB read buffer many times.
        var text = header + "\n"
        for i in 0..<60_000 { text += "\(Double(i) / 100),0.01,-0.02,9.81,\(20 + Double(i % 7) / 8),0.5,-40.25\n" }
        let (samples, error, _) = readAll(dir.file("big.csv", text))
        #expect(error == nil)
        #expect(samples.count == 60_000)
        #expect(samples.last?.time == 599.99)
        #expect(samples[12_345].magneticField.x == 20 + Double(12_345 % 7) / 8)
    }
}
