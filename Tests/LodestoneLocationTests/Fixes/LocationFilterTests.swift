import Testing
import LodestoneSteering
@testable import LodestoneLocation

@Suite struct LocationFilterTests {
    let track = TrackBuilder()

    /// The delivered fix of the events, or nil.
    static func delivered(_ events: [LocationEvent]) -> Location? {
        for case .delivered(let l) in events { return l }
        return nil
    }

    static func rejection(_ events: [LocationEvent]) -> LocationRejection? {
        for case .rejected(let r) in events { return r }
        return nil
    }

    @Test func zeroDistanceFilterDeliversEveryFix() throws {
        var filter = try LocationFilter()
        for i in 0..<20 {
            let fix = track.fix(at: Double(i) * 0.1, seconds: Double(i))
            #expect(filter.process(fix) == [.delivered(fix)])
        }
    }

    /// 3 m steps along one geodesic, filter 10 m: fixes 0, 4, 8, … (12 m apart) are delivered.
    @Test func distanceFilterDeliversAfterMovingThatFar() throws {
        var filter = try LocationFilter(settings: .init(distanceFilter: 10))
        var deliveredIndices: [Int] = []
        for i in 0..<20 {
            let events = filter.process(track.fix(at: 3 * Double(i), seconds: Double(i)))
            if Self.delivered(events) != nil {
                deliveredIndices.append(i)
            } else {
                guard case .withheldByDistanceFilter(let d)? = events.last else {
                    Issue.record("fix \(i): \(events)")
                    continue
                }
                let sinceLast = 3 * Double(i - deliveredIndices.last!)
                #expect(abs(d - sinceLast) < 1e-6)
            }
        }
        #expect(deliveredIndices == [0, 4, 8, 12, 16])
    }

    /// Jitter around one spot under a 10 m filter never delivers after the first fix.
    @Test func distanceFilterIgnoresSmallWander() throws {
        var filter = try LocationFilter(settings: .init(distanceFilter: 10))
        var count = 0
        for i in 0..<50 {
            let offset = [0.0, 4, -3, 2, -4.5][i % 5]
            if Self.delivered(filter.process(track.fix(at: offset, seconds: Double(i)))) != nil { count += 1 }
        }
        #expect(count == 1)
    }

    @Test func desiredAccuracyDropsWorseAndUnknownFixes() throws {
        var filter = try LocationFilter(settings: .init(desiredAccuracy: 10))
        #expect(Self.rejection(filter.process(track.fix(at: 0, seconds: 0, accuracy: 10.5)))
                == .insufficientAccuracy(horizontalAccuracy: 10.5, desired: 10))
        #expect(Self.rejection(filter.process(track.fix(at: 0, seconds: 1, accuracy: nil)))
                == .insufficientAccuracy(horizontalAccuracy: nil, desired: 10))
        #expect(Self.delivered(filter.process(track.fix(at: 0, seconds: 2, accuracy: 10))) != nil)
        // With the default (best), a fix without accuracy passes.
        var all = try LocationFilter()
        #expect(Self.delivered(all.process(track.fix(at: 0, seconds: 0, accuracy: nil))) != nil)
    }

    @Test(arguments: [
        (Double.nan, 13.0, LocationRejection.latitudeOutOfRange(.nan)),
        (90.0001, 13.0, .latitudeOutOfRange(90.0001)),
        (-91, 13.0, .latitudeOutOfRange(-91)),
        (52, 180.5, .longitudeOutOfRange(180.5)),
        (52, -Double.infinity, .longitudeOutOfRange(-.infinity)),
        (52, Double.nan, .longitudeOutOfRange(.nan)),
    ])
    func badCoordinatesAreRejectedAndChangeNothing(latitude: Double, longitude: Double, expected: LocationRejection) throws {
        var filter = try LocationFilter(settings: .init(distanceFilter: 10))
        let first = track.fix(at: 0, seconds: 0)
        #expect(filter.process(first) == [.delivered(first)])
        let bad = Location(latitude: latitude, longitude: longitude, timestamp: track.startTime + 1)
        let rejection = Self.rejection(filter.process(bad))
        #expect(rejection?.description == expected.description)
        #expect(filter.lastAccepted == first && filter.lastDelivered == first)
        // The next good fix is judged against the first one, as if the bad one never came.
        #expect(Self.delivered(filter.process(track.fix(at: 11, seconds: 1))) != nil)
    }

    @Test func nonFiniteTimeIsRejected() throws {
        var filter = try LocationFilter()
        var fix = track.fix(at: 0, seconds: 0)
        fix.timestamp = .nan
        guard case .timestampNotFinite? = Self.rejection(filter.process(fix)) else {
            Issue.record("NaN time accepted")
            return
        }
        #expect(filter.lastAccepted == nil)
    }

    @Test func badOptionalValuesAreDroppedNotTheFix() throws {
        var filter = try LocationFilter()
        var fix = track.fix(at: 0, seconds: 0)
        fix.speed = .nan
        fix.horizontalAccuracy = -1
        fix.altitude = .infinity
        fix.course = 360
        let events = filter.process(fix)
        var dropped: [LocationField] = []
        for case .discardedValue(let field, _) in events { dropped.append(field) }
        #expect(dropped == [.altitude, .horizontalAccuracy, .speed])
        let delivered = try #require(Self.delivered(events))
        #expect(delivered.speed == nil && delivered.horizontalAccuracy == nil && delivered.altitude == nil)
        #expect(delivered.course == 0)
    }

    @Test func fixesFromTheFutureAreRejected() throws {
        var filter = try LocationFilter()
        let now = track.startTime
        #expect(Self.delivered(filter.process(track.fix(at: 0, seconds: 5), now: now)) != nil)
        #expect(Self.rejection(filter.process(track.fix(at: 0, seconds: 5.5), now: now))
                == .fromTheFuture(timestamp: now + 5.5, now: now))
        // Without a clock the same fix is fine.
        #expect(Self.delivered(filter.process(track.fix(at: 0, seconds: 5.5))) != nil)
    }

    @Test func staleFixesAreRejectedWhenAMaximumAgeIsSet() throws {
        var filter = try LocationFilter(settings: .init(maximumAge: 10))
        let now = track.startTime + 100
        #expect(Self.rejection(filter.process(track.fix(at: 0, seconds: 89), now: now))
                == .stale(timestamp: track.startTime + 89, now: now))
        #expect(Self.delivered(filter.process(track.fix(at: 0, seconds: 90), now: now)) != nil)
    }

    @Test func repeatedAndOutOfOrderFixesAreRejected() throws {
        var filter = try LocationFilter()
        _ = filter.process(track.fix(at: 0, seconds: 10))
        #expect(Self.rejection(filter.process(track.fix(at: 1, seconds: 10)))
                == .outOfOrder(timestamp: track.startTime + 10, previous: track.startTime + 10))
        #expect(Self.rejection(filter.process(track.fix(at: 1, seconds: 9)))
                == .outOfOrder(timestamp: track.startTime + 9, previous: track.startTime + 10))
    }

    /// A glitch 50 km away is refused and the track goes on as before.
    @Test func singleJumpIsRefusedAndDoesNotPoisonTheTrack() throws {
        var filter = try LocationFilter()
        for i in 0..<5 { _ = filter.process(track.fix(at: 10 * Double(i), seconds: Double(i))) }
        let glitch = Self.rejection(filter.process(track.fix(at: 50_000, seconds: 5)))
        guard case .implausibleJump(let distance, let interval, let speed, let limit)? = glitch else {
            Issue.record("glitch accepted: \(String(describing: glitch))")
            return
        }
        #expect(abs(distance - 49_960) < 1e-6 && interval == 1 && abs(speed - 49_960) < 1e-6 && limit == 515)
        for i in 6..<10 {
            #expect(Self.delivered(filter.process(track.fix(at: 10 * Double(i), seconds: Double(i)))) != nil)
        }
    }

    /// The jump limit allows for both fixes' accuracy: 600 m in 1 s with 50 m each needs 500 m/s.
    @Test func jumpCheckAllowsForAccuracy() throws {
        var filter = try LocationFilter()
        _ = filter.process(track.fix(at: 0, seconds: 0, accuracy: 50))
        #expect(Self.delivered(filter.process(track.fix(at: 600, seconds: 1, accuracy: 50))) != nil)
        #expect(Self.rejection(filter.process(track.fix(at: 1300, seconds: 2, accuracy: 50))) != nil)
    }

    /// A bad first fix does not lock the filter out: three consistent fixes elsewhere relocate it.
    @Test func consistentFixesRelocateAfterABadReference() throws {
        var filter = try LocationFilter()
        let far = TrackBuilder(latitude: -33.87, longitude: 151.21, bearing: 90)
        let bad = far.fix(at: 0, seconds: 0)
        #expect(Self.delivered(filter.process(bad)) != nil)
        #expect(Self.rejection(filter.process(track.fix(at: 0, seconds: 1))) != nil)
        #expect(Self.rejection(filter.process(track.fix(at: 10, seconds: 2))) != nil)
        let events = filter.process(track.fix(at: 20, seconds: 3))
        guard case .relocated(let previous, let distance)? = events.first else {
            Issue.record("no relocation: \(events)")
            return
        }
        #expect(previous == bad.coordinate)
        #expect(distance > 16_000_000)
        #expect(Self.delivered(events) == track.fix(at: 20, seconds: 3))
        #expect(Self.delivered(filter.process(track.fix(at: 30, seconds: 4))) != nil)
    }

    /// Glitches that disagree with each other never relocate.
    @Test func scatteredGlitchesDoNotRelocate() throws {
        var filter = try LocationFilter()
        _ = filter.process(track.fix(at: 0, seconds: 0))
        let places = [TrackBuilder(latitude: 10, longitude: 10), TrackBuilder(latitude: -40, longitude: 100),
                      TrackBuilder(latitude: 60, longitude: -100), TrackBuilder(latitude: 0, longitude: 0)]
        for (i, place) in places.enumerated() {
            let events = filter.process(place.fix(at: 0, seconds: Double(i + 1)))
            #expect(Self.rejection(events) != nil)
            #expect(!events.contains { if case .relocated = $0 { return true } else { return false } })
        }
        #expect(filter.lastAccepted == track.fix(at: 0, seconds: 0))
    }

    @Test func settingsOutOfRangeAreNamed() {
        #expect(throws: LocationSettingError.self) { try LocationFilter(settings: .init(distanceFilter: -1)) }
        #expect(throws: LocationSettingError.self) { try LocationFilter(settings: .init(desiredAccuracy: 0)) }
        #expect(throws: LocationSettingError.self) { try LocationFilter(settings: .init(maximumSpeed: .nan)) }
        #expect(throws: LocationSettingError.self) { try LocationFilter(settings: .init(relocationCount: 0)) }
        do {
            _ = try LocationFilter(settings: .init(distanceFilter: .infinity))
            Issue.record("infinite distanceFilter accepted")
        } catch {
            #expect(error.name == "distanceFilter")
        }
    }
}
