import Testing
@testable import LodestoneGeomagnetism

/// The benchmark entry point evaluates what it says it does. No timing is
/// asserted here: speed targets are checked by `lodestone bench` in release.
@Suite struct GeomagneticBenchmarkTests {
    @Test(arguments: [GeomagneticModel.wmm2025, .wmmhr2025])
    func checksumIsTheSumOfTheDeclinations(model: GeomagneticModel) throws {
        let result = GeomagneticBenchmark.run(model: model, points: 50, seed: 7)
        var sum = 0.0
        for p in GeomagneticBenchmark.samplePoints(count: 50, seed: 7, validity: model.validity) {
            #expect((-90...90).contains(p.0) && (-1...850).contains(p.2) && model.validity.contains(p.3))
            sum += try model.elements(latitude: p.0, longitude: p.1, height: p.2, decimalYear: p.3).declination
        }
        #expect(result.checksum == sum)
        #expect(result.points == 50 && result.model == model.name)
        #expect(result.nanosecondsPerPoint > 0 && result.cpuNanosecondsPerPoint >= 0)
    }

    @Test func loadTimeIsMeasured() {
        #expect(GeomagneticBenchmark.coefficientLoadNanoseconds(highResolution: false, repetitions: 1) > 0)
    }
}
