/// A one-client TCP NMEA source for a real gpsd in a test's namespace
/// (`gpsd -N -n -S PORT tcp://127.0.0.1:29471`), as a Python script (standard library)
/// for `python3 -u - LOG`, run in the test's directory.
///
/// Why not gpsfake: it starts gpsd and feeds it at once, through a pty that needs a devpts
/// of its own, and sometimes takes seconds to come up on a busy machine; a command that
/// had been retrying gpsd with a doubling back-off meanwhile then met the feed late or not
/// at all. Here gpsd can start whenever the test wants, and the feed waits for it.
///
/// It accepts gpsd, waits for the file `waitFor` when given, then writes the log a line
/// every `lineInterval` seconds: once, or over and over for `seconds`. It then touches
/// `feeder-done`, waits for the file `holdUntil` when given, and closes the connection
/// (gpsd's fix then grows old). It touches `feeder-listening` once gpsd may connect.
public enum NMEAFeeder {
    private static let port = 29471

    /// Shell lines, run in the test's directory, that start the feeder on `log` in the
    /// background (its output in `feeder.log`) and wait until gpsd may connect to it.
    public static func start(log: String, lineInterval: Double, seconds: Double? = nil, waitFor: String? = nil,
                             holdUntil: String? = nil) -> String {
        """
        python3 -u - \(log) > feeder.log 2>&1 <<'FEEDER' &
        \(script(lineInterval: lineInterval, seconds: seconds, waitFor: waitFor, holdUntil: holdUntil))
        FEEDER
        while [ ! -e feeder-listening ]; do sleep 0.05; done
        """
    }

    /// The shell command that starts gpsd on 127.0.0.1:`gpsdPort` reading the feeder, in the
    /// background (its output in `gpsd.log`).
    public static func gpsd(port gpsdPort: Int) -> String {
        "gpsd -N -n -S \(gpsdPort) tcp://127.0.0.1:\(port) > gpsd.log 2>&1 &"
    }

    private static func script(lineInterval: Double, seconds: Double? = nil, waitFor: String? = nil,
                               holdUntil: String? = nil) -> String {
        """
        import os, socket, sys, time
        server = socket.socket()
        server.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        server.bind(("127.0.0.1", \(port)))
        server.listen(1)
        open("feeder-listening", "w").close()
        gpsd, _ = server.accept()
        wait_for = \(waitFor.map { "\"\($0)\"" } ?? "None")
        while wait_for and not os.path.exists(wait_for):
            time.sleep(0.05)
        lines = open(sys.argv[1], "rb").read().splitlines(keepends=True)
        end = time.time() + \(seconds.map { "\($0)" } ?? "0")
        once = \(seconds == nil ? "True" : "False")
        while True:
            for line in lines:
                gpsd.sendall(line)
                time.sleep(\(lineInterval))
                if not once and time.time() >= end:
                    break
            if once or time.time() >= end:
                break
        open("feeder-done", "w").close()
        hold_until = \(holdUntil.map { "\"\($0)\"" } ?? "None")
        while hold_until and not os.path.exists(hold_until):
            time.sleep(0.05)
        gpsd.close()
        """
    }
}
