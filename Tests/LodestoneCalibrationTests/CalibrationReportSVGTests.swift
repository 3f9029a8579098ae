import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import LodestoneCore
import Testing
import LodestoneSimulation
@testable import LodestoneCalibration

@Suite struct CalibrationReportSVGTests {
    final class Counter: NSObject, XMLParserDelegate {
        var elements: [String: Int] = [:]
        var texts: [String] = []
        func parser(_ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?,
                    attributes: [String: String] = [:]) {
            elements[name, default: 0] += 1
        }
        func parser(_ parser: XMLParser, foundCharacters string: String) { texts.append(string) }
    }

    static func parse(_ svg: String) -> (ok: Bool, counter: Counter) {
        let parser = XMLParser(data: Data(svg.utf8))
        let counter = Counter()
        parser.delegate = counter
        return (parser.parse(), counter)
    }

    @Test func wellFormedWithAllParts() throws {
        var rng = RandomSource(seed: 61)
        let sensor = DistortedMagnetometer.random(&rng, symmetric: true)
        let raw = (0..<600).map { _ in sensor.read(rng.attitude(), &rng) }
        let fit = try CalibrationFitter(settings: .magnetometer).fit(raw, expectedMagnitude: 50)
        let svg = CalibrationReportSVG.render(raw: raw, fit: fit, title: "Test <&> report", notes: ["note \"quoted\""])
        let (ok, counter) = Self.parse(svg)
        #expect(ok)
        // 100 coverage cells + map frame + 6 panel frames + page background.
        #expect(counter.elements["rect"] == 108)
        // Six panels × 600 samples.
        #expect(counter.elements["circle"] == 3600)
        // The two polar caps, too thin to see on the map, drawn again as discs.
        #expect(counter.elements["ellipse"] == 2)
        let text = counter.texts.joined()
        #expect(text.contains("Test <&> report"))
        #expect(text.contains("Model: full"))
        #expect(text.contains("Fit error: \(CalibrationReportSVG.n(fit.fitErrorPercent, 2)) %"))
        #expect(text.contains("Coverage: \(CalibrationReportSVG.n(fit.coveragePercent, 0)) %"))
        #expect(text.contains("expected 50.00"))
        #expect(text.contains("+z cap: "))
        #expect(text.contains("−z cap: "))
    }

    @Test func rejectedFitDrawsRawOnly() {
        let raw = (0..<200).map { Vector3(30 * cos(Double($0) * 0.1), 30 * sin(Double($0) * 0.1), -20) }
        let svg = CalibrationReportSVG.render(raw: raw, fit: nil, notes: ["refused: " + String(repeating: "word ", count: 40)])
        let (ok, counter) = Self.parse(svg)
        #expect(ok)
        #expect(counter.elements["circle"] == 600)
        #expect(counter.texts.joined().contains("No calibration"))
    }

    @Test func thinsLargeInputs() {
        let raw = (0..<20_000).map { Vector3(40 * cos(Double($0)), 40 * sin(Double($0)), Double($0 % 80) - 40) }
        let svg = CalibrationReportSVG.render(raw: raw, fit: nil, maximumPoints: 1000)
        #expect(Self.parse(svg).counter.elements["circle"] == 3000)
    }

    @Test func numberFormatting() {
        #expect(CalibrationReportSVG.n(-0.04) == "0.0")
        #expect(CalibrationReportSVG.n(-1.25, 2) == "-1.25")
        #expect(CalibrationReportSVG.n(0.5, 0) == "1" || CalibrationReportSVG.n(0.5, 0) == "0")
        #expect(CalibrationReportSVG.n(123.456, 1) == "123.5")
        #expect(CalibrationReportSVG.n(0.0072, 3) == "0.007")
        #expect(CalibrationReportSVG.wrap("aaa bbb ccc", width: 7) == ["aaa bbb", "  ccc"])
    }
}
