import Testing
@testable import LodestoneLocation

@Suite struct GPXReaderTests {
    @Test func writeThenReadGivesTheSameDocument() throws {
        let document = GPXSchemaTests.fullDocument
        let back = try GPXReader.read(GPXWriter.write(document))
        #expect(back == document)
    }

    /// A course that rounds to 360.00 is written as 0.00.
    @Test func courseNeverReads360() throws {
        let text = GPXWriter.write(GPXDocument(tracks: [GPXTrack(segments: [[GPXPoint(latitude: 0, longitude: 0, course: 359.996)]])]))
        #expect(text.contains("<gpxtpx:course>0.00</gpxtpx:course>"))
    }

    @Test func trackLocationsAreTheTimedTrackPoints() throws {
        let fixes = GPXSchemaTests.fullDocument.trackLocations
        #expect(fixes.count == 3)
        #expect(fixes[0] == Location(latitude: 52.5, longitude: 13.4, altitude: -1.25, horizontalAccuracy: 3.5, verticalAccuracy: 6,
                                     speed: 4.5, course: 359.99, timestamp: 1_780_000_001.125))
    }

    /// GPX 1.0 (speed and course as elements, name and time in <gpx>), comments, CDATA,
    /// entities, a prefixed GPX namespace and another app's extensions.
    @Test func readsFilesFromOtherWriters() throws {
        let gpx10 = """
            <?xml version="1.0"?>
            <!-- exported by an old logger -->
            <gpx version="1.0" creator="old" xmlns="http://www.topografix.com/GPX/1/0">
              <name><![CDATA[Trip <1> & more]]></name>
              <time>2004-05-06T07:08:09+02:00</time>
              <trk><name>T&#233;st &amp; co</name><trkseg>
                <trkpt lat=' 46.1 ' lon="7.2"><ele>1000</ele><time>2004-05-06T05:08:10Z</time><course>90.5</course><speed>2.5</speed></trkpt>
                <trkpt lat="46.2" lon="7.3"/>
              </trkseg></trk>
            </gpx>
            """
        let old = try GPXReader.read(gpx10)
        #expect(old.name == "Trip <1> & more")
        #expect(old.time == 1_083_820_089)
        #expect(old.tracks[0].name == "Tést & co")
        let first = old.tracks[0].segments[0][0]
        #expect(first == GPXPoint(latitude: 46.1, longitude: 7.2, elevation: 1000, time: 1_083_820_090, speed: 2.5, course: 90.5))
        #expect(old.tracks[0].segments[0][1].time == nil)
        #expect(old.trackLocations.count == 1)

        let prefixed = """
            <g:gpx xmlns:g="http://www.topografix.com/GPX/1/1" version="1.1" creator="x"
                   xmlns:ns3="http://www.garmin.com/xmlschemas/TrackPointExtension/v1">
              <g:wpt lat="1" lon="2"><g:name>W</g:name><g:sym>Flag</g:sym></g:wpt>
              <g:rte><g:rtept lat="3" lon="4"/></g:rte>
              <g:trk><g:trkseg><g:trkpt lat="5" lon="6"><g:time>2020-01-01T00:00:00.5Z</g:time>
                <g:extensions><ns3:TrackPointExtension><ns3:hr>120</ns3:hr><ns3:speed>3.25</ns3:speed></ns3:TrackPointExtension></g:extensions>
              </g:trkpt></g:trkseg></g:trk>
            </g:gpx>
            """
        let other = try GPXReader.read(prefixed)
        #expect(other.waypoints == [GPXPoint(latitude: 1, longitude: 2, name: "W")])
        #expect(other.routes[0].points == [GPXPoint(latitude: 3, longitude: 4)])
        #expect(other.tracks[0].segments[0][0] == GPXPoint(latitude: 5, longitude: 6, time: 1_577_836_800.5, speed: 3.25))
    }

    @Test(arguments: [
        ("", 1, 1, "not well-formed XML: the document has no root element"),
        ("<gpx version=\"1.1\">\n  <trk>\n", 3, 1, "not well-formed XML: the document ends inside <trk> opened at line 2, column 3"),
        ("<gpx>\n <trk>\n  <trkseg>\n </trk>", 4, 7, "not well-formed XML: </trk> does not close <trkseg> opened at line 3, column 3"),
        ("<gpx>\n<wpt lat=\"1\" lon=\"2\"/>\n<wpt lon=\"2\"/></gpx>", 3, 1, "<wpt> has no lat attribute"),
        ("<gpx>\n\n <wpt lat=\"abc\" lon=\"2\"/></gpx>", 3, 2, "lat 'abc' in <wpt> is not a finite number"),
        ("<gpx><wpt lat=\"91\" lon=\"2\"/></gpx>", 1, 6, "<wpt> lat=\"91\" is outside [-90, 90] degrees"),
        ("<gpx><wpt lat=\"1\" lon=\"-180.5\"/></gpx>", 1, 6, "<wpt> lon=\"-180.5\" is outside [-180, 180] degrees"),
        ("<gpx><wpt lat=\"NaN\" lon=\"1\"/></gpx>", 1, 6, "lat 'NaN' in <wpt> is not a finite number"),
        ("<gpx>\n<trk><trkseg><trkpt lat=\"1\" lon=\"2\">\n<time>yesterday</time></trkpt></trkseg></trk></gpx>", 3, 1,
         "<time> 'yesterday' is not an ISO 8601 date and time such as 2026-03-14T09:26:53Z"),
        ("<gpx><wpt lat=\"1\" lon=\"2\"><ele>high</ele></wpt></gpx>", 1, 27, "<ele> 'high' is not a finite number"),
        ("<kml></kml>", 1, 1, "the root element is <kml>, not <gpx>: is this a GPX file?"),
        ("<gpx version=\"2.0\"></gpx>", 1, 1, "GPX version 2.0 is not supported (1.1 and 1.0 are)"),
        ("<!DOCTYPE gpx [<!ENTITY a \"b\">]><gpx/>", 1, 1, "not well-formed XML: a DOCTYPE is not allowed"),
        ("<gpx><name>&nbsp;</name></gpx>", 1, 18, "not well-formed XML: unknown entity &nbsp;"),
        ("<gpx></gpx><gpx></gpx>", 1, 12, "not well-formed XML: content after the end of the root element </gpx>"),
        ("<gpx a=\"1\" a=\"2\"></gpx>", 1, 17, "not well-formed XML: attribute a appears twice in <gpx>"),
        ("<gpx a=1></gpx>", 1, 8, "not well-formed XML: the value of attribute a must be in quotes"),
        ("<gpx><!-- open", 1, 6, "not well-formed XML: a comment is not closed"),
    ])
    func badFilesAreRefusedWithTheirLine(text: String, line: Int, column: Int, message: String) {
        do {
            _ = try GPXReader.read(text)
            Issue.record("accepted: \(text)")
        } catch {
            #expect(error.line == line && error.column == column, "\(error)")
            #expect(error.message.hasPrefix(message), "\(error)")
            #expect(error.description.hasPrefix("line \(line), column \(column): "))
        }
    }

    @Test func invalidUTF8IsRefused() {
        var bytes = Array("<gpx><name>".utf8)
        bytes += [0xC3, 0x28]
        bytes += Array("</name></gpx>".utf8)
        #expect(throws: GPXError.self) { try GPXReader.read(bytes: bytes) }
    }

    @Test func deepNestingIsRefused() {
        let deep = String(repeating: "<a>", count: 100) + String(repeating: "</a>", count: 100)
        #expect(throws: GPXError.self) { try GPXReader.read("<gpx>" + deep + "</gpx>") }
    }
}
