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

    @Test(arguments: [
        ("WATCH", "a command starts with '?', e.g. ?WATCH={\"enable\":true};"),
        ("?FOO;", "unknown command ?FOO; known: ?WATCH ?POLL ?STEER ?DEVICES ?VERSION ?REGION ?TRACK"),
        ("?watch;", "a command name follows '?', e.g. ?POLL;"),
        ("?WATCH;", "?WATCH needs a JSON object, e.g. ?WATCH={…};"),
        ("?WATCH={\"enable\":true", "?WATCH: the argument is not valid JSON (unterminated object: expected ',' or '}')"),
        ("?WATCH=[1]", "?WATCH: the argument must be a JSON object, not an array"),
        ("?WATCH={\"enabled\":true}", "?WATCH: unknown key \"enabled\"; known: enable, headingFilter, heading, location, distanceFilter, desiredAccuracy, regions, track"),
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
