import Foundation
import LodestoneTestSupport
import Testing

/// `watch`, `record`, `devices` and `simulated-board` reject bad calls before touching
/// any sensor (the runs on simulated boards are in LodestoneIIOTests).
@Suite struct LiveCommandUsageTests {
    let scratch = TemporaryDirectory()

    @Test func badSourceOptionsAreUsageErrors() throws {
        let cases: [([String], String)] = [
            (["watch", "--mode", "fast"], "--mode must be auto, buffered or polled"),
            (["watch", "--board-rotation", "1, 0, 0; 0, 2, 0; 0, 0, 1"], "--board-rotation must be"),
            (["watch", "--rate", "0"], "--rate must be between"),
            (["watch", "--count", "0"], "--count needs a whole number ≥ 1"),
            (["record", "--duration", "5"], "missing -o FILE"),
            (["record", "-o", scratch.path("x.lslog"), "--duration", "-1"], "--duration must be between"),
            (["simulated-board"], "missing LAYOUT"),
            (["simulated-board", "nokia3310"], "unknown LAYOUT 'nokia3310'"),
            (["devices", "extra"], "unexpected argument 'extra'"),
        ]
        for (arguments, message) in cases {
            let r = try CommandRunner.run(arguments)
            #expect(r.status == 2, "\(arguments): exit \(r.status), \(r.stderr)")
            #expect(r.stderr.contains(message), "\(arguments): \(r.stderr)")
            #expect(r.stdout.isEmpty)
        }
    }

    @Test func recordRefusesAnUnwritablePathBeforeOpeningSensors() throws {
        let path = scratch.path("no/such/dir/x.lslog")
        let r = try CommandRunner.run(["record", "-o", path, "--uri", "ip:192.0.2.1"])
        #expect(r.status == 3, "\(r.stderr)")
        #expect(r.stderr.contains(path) && r.stderr.contains("choose another -o FILE"), "\(r.stderr)")
    }

    @Test func helpListsTheLiveCommands() throws {
        let help = try CommandRunner.run(["--help"])
        for name in ["watch", "record", "devices", "simulated-board"] {
            #expect(help.stdout.contains("  \(name) "), "\(name) missing from lodestone --help")
        }
        let watch = try CommandRunner.run(["help", "watch"])
        for option in ["--uri URI", "--magn DEV", "--accel DEV", "--gyro DEV", "--mode MODE", "--rate HZ", "--board-rotation ROT",
                       "--heading-filter DEG", "--forward AXIS", "--no-smoothing", "--count N"] {
            #expect(watch.stdout.contains(option), "watch help lacks \(option)")
        }
        let record = try CommandRunner.run(["help", "record"])
        #expect(record.stdout.contains("--uri URI") && record.stdout.contains("--heading-filter DEG") && record.stdout.contains("--duration SECONDS"))
    }
}
