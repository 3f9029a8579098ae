import Testing
import LodestoneCore
import LodestoneSimulation

/// Calls the mutating filter outside `#expect`, which cannot capture `inout` state.
private func deliver(_ f: inout HeadingFilter, _ heading: Double) -> Bool {
    f.shouldDeliver(degrees: heading)
}

@Suite struct HeadingFilterTests {
    @Test func firstHeadingIsAlwaysDelivered() {
        var f = HeadingFilter(threshold: 360)
        #expect(deliver(&f, 123))
        #expect(!deliver(&f, 124))
    }

    @Test func zeroDeliversEverySample() {
        var f = HeadingFilter(threshold: 0)
        for h in [1.0, 1.0, 1.0, 359.0, 0.0] { #expect(deliver(&f, h)) }
    }

    @Test func defaultIsOneDegree() {
        #expect(HeadingFilter().threshold == 1)
        #expect(HeadingPipeline().filter.threshold == 1)
    }

    @Test func measuresFromLastDeliveredNotLastSeen() {
        // Creeping 0.6° steps: each step is below the threshold, but the total is not.
        var f = HeadingFilter(threshold: 1)
        #expect(deliver(&f, 10))
        #expect(!deliver(&f, 10.6))
        #expect(deliver(&f, 11.2))
        #expect(abs((f.lastDelivered?.degrees ?? 0) - 11.2) < 1e-12)
    }

    @Test func wrapAroundCountsTheShortWay() {
        var f = HeadingFilter(threshold: 5)
        #expect(deliver(&f, 358))
        #expect(!deliver(&f, 1)) // 3° away across north
        #expect(deliver(&f, 3.5)) // 5.5° away
        #expect(!deliver(&f, 359.5)) // 4° back
    }

    @Test(arguments: [0.5, 1.0, 5.0, 30.0])
    func propertiesHoldOnRandomWalks(threshold: Double) {
        var random = RandomSource(seed: UInt64(threshold * 100))
        var f = HeadingFilter(threshold: threshold)
        var heading = random.uniform() * 360
        var last: Double?
        for _ in 0..<20_000 {
            heading = Angle.normalized360(heading + random.gaussian() * 2)
            let delivered = f.shouldDeliver(degrees: heading)
            if let l = last {
                let moved = abs(Angle.difference(from: l, to: heading))
                // Delivered exactly when it moved at least the threshold from the last delivered heading.
                #expect(delivered == (moved >= threshold))
            } else {
                #expect(delivered)
            }
            if delivered { last = heading }
        }
    }

    @Test func pipelineDeliversOnlyFilteredHeadings() {
        var rec = SyntheticRecording(profile: .spin(rate: 20, duration: 20), rate: 50, errors: .typical)
        var pipeline = HeadingPipeline(headingFilter: 10)
        var delivered: [Heading] = []
        var samples = 0
        while let s = rec.nextSample() {
            samples += 1
            if let h = pipeline.process(s) { delivered.append(h) }
        }
        // 400° of turning at ≥ 10° per update: about 40 updates, far fewer than samples.
        #expect(delivered.count >= 38 && delivered.count <= 42, "\(delivered.count)")
        for (a, b) in zip(delivered, delivered.dropFirst()) {
            #expect(abs(Angle.difference(from: a.magneticHeading, to: b.magneticHeading)) >= 10)
        }
        #expect(delivered.allSatisfy { $0.trueHeading == nil && $0.headingAccuracy > 0 })
        #expect(samples == 1001)
    }

    @Test func trueHeadingAddsDeclinationAndWraps() {
        var pipeline = HeadingPipeline(headingFilter: 0, declination: Declination(degrees: 10))
        let s = SensorSample(time: 0, acceleration: Vector3(0, 0, 9.81),
                             magneticField: BoardAttitude(heading: 355).quaternion.conjugate.rotate(Vector3(0, 20, -40)))
        let h = pipeline.process(s)
        #expect(h.map { abs($0.magneticHeading - 355) < 1e-9 } == true)
        #expect(h?.trueHeading.map { abs($0 - 5) < 1e-9 } == true)
        pipeline.declination = Declination(degrees: 10, isReliable: false)
        #expect(pipeline.process(s)?.trueHeading == nil)
    }
}
