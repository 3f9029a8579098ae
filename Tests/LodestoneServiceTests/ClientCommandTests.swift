import Testing
@testable import LodestoneService

@Suite struct ClientCommandTests {
    @Test func parsesGpsdStyleCommands() throws {
        #expect(try ClientCommand.parse(#"?WATCH={"enable":true,"headingFilter":5};"#) == .watch(.init(enable: true, headingFilter: 5)))
        #expect(try ClientCommand.parse(#"  ?WATCH={"enable":false}"#) == .watch(.init(enable: false, headingFilter: nil)))
        #expect(try ClientCommand.parse(#"?WATCH={};"#) == .watch(.init(enable: true, headingFilter: nil)))
        #expect(try ClientCommand.parse("?POLL;") == .poll)
        #expect(try ClientCommand.parse("?POLL\r") == .poll)
        #expect(try ClientCommand.parse("?DEVICES;") == .devices)
        #expect(try ClientCommand.parse("?VERSION;") == .version)
        #expect(try ClientCommand.parse(#"?STEER={"lat":52.5,"lon":13.4,"tolerance":10,"arrivalRadius":25};"#)
                == .steer(.init(latitude: 52.5, longitude: 13.4, tolerance: 10, arrivalRadius: 25)))
        #expect(try ClientCommand.parse(#"?STEER={"enable":false};"#) == .steer(nil))
        #expect(try ClientCommand.parse("   ") == nil)
        #expect(try ClientCommand.parse("") == nil)
    }

    /// gpsd's clients: `gpspipe -w`, `cgps` and Python's `gps` send json; `gpspipe -r` nmea;
    /// keys that mean nothing here are accepted.
    @Test func gpsdWatchKeysMakeAGpsdClient() throws {
        func gpsd(_ line: String) throws -> GPSDWatchRequest? {
            guard case .watch(let w)? = try ClientCommand.parse(line) else { return nil }
            return w.gpsd
        }
        #expect(try gpsd(#"?WATCH={"enable":true,"json":true};"#) == GPSDWatchRequest(json: true, nmea: false))
        #expect(try gpsd(#"?WATCH={"enable":true,"nmea":true};"#) == GPSDWatchRequest(json: false, nmea: true))
        #expect(try gpsd(#"?WATCH={"enable":true,"scaled":true,"raw":1,"device":"/dev/ttyUSB0"};"#) == GPSDWatchRequest(json: true, nmea: false))
        #expect(try gpsd(#"?WATCH={"enable":true,"json":true,"nmea":true,"pps":false,"timing":false,"split24":true};"#)
                == GPSDWatchRequest(json: true, nmea: true))
        #expect(try gpsd(#"?WATCH={"enable":true,"json":true,"headingFilter":3};"#) == GPSDWatchRequest(json: true, nmea: false))
        #expect(try gpsd(#"?WATCH={"enable":true,"headingFilter":3};"#) == nil)
        #expect(throws: ClientCommand.Failure("?WATCH: json must be true or false, not a number")) { try gpsd(#"?WATCH={"json":1}"#) }
        #expect(throws: ClientCommand.Failure("?WATCH: device must be a string, not a number")) { try gpsd(#"?WATCH={"device":2}"#) }
    }

    @Test(arguments: [
        ("WATCH", "a command starts with '?', e.g. ?WATCH={\"enable\":true};"),
        ("?FOO;", "unknown command ?FOO; known: ?WATCH ?POLL ?STEER ?DEVICES ?VERSION ?REGION ?TRACK"),
        ("?watch;", "a command name follows '?', e.g. ?POLL;"),
        ("?WATCH;", "?WATCH needs a JSON object, e.g. ?WATCH={…};"),
        ("?WATCH={\"enable\":true", "?WATCH: the argument is not valid JSON (unterminated object: expected ',' or '}')"),
        ("?WATCH=[1]", "?WATCH: the argument must be a JSON object, not an array"),
        ("?WATCH={\"enabled\":true}", "?WATCH: unknown key \"enabled\"; known: enable, headingFilter, heading, location, distanceFilter, desiredAccuracy, regions, track, json, nmea, raw, scaled, split24, pps, timing, device, remote"),
        ("?WATCH={\"enable\":1}", "?WATCH: enable must be true or false, not a number"),
        ("?WATCH={\"headingFilter\":-1}", "?WATCH: headingFilter must be a number of degrees ≥ 0, not -1.0"),
        ("?POLL={}", "?POLL takes no argument"),
        ("?POLL x", "unexpected text after ?POLL in '?POLL x'; arguments follow '=' as a JSON object"),
        ("?STEER={\"lat\":52}", "?STEER needs lat and lon of the target, e.g. ?STEER={\"lat\":52.5,\"lon\":13.4}; (or {\"enable\":false} to stop)"),
        ("?STEER={\"lat\":91,\"lon\":0}", "?STEER: lat must be between -90 and 90 degrees, not 91.0"),
        ("?STEER={\"lat\":\"52\",\"lon\":0}", "?STEER: lat must be a number, not a string"),
    ])
    func malformedCommandsGetAClearMessage(line: String, message: String) {
        #expect(throws: ClientCommand.Failure(message)) { try ClientCommand.parse(line) }
    }
}
