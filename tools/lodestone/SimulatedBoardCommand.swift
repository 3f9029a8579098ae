import Foundation
import LodestoneCommandLine
import LodestoneCore
import LodestoneIIO
import LodestoneSimulatedBoard
import LodestoneSimulation

/// `lodestone simulated-board`: run a command on a simulated IIO board, no hardware needed.
enum SimulatedBoardCommand: Command {
    static let name = "simulated-board"
    static let summary = "Run a command with a simulated IIO board in place of /sys (root; for trying Lodestone without hardware)."
    static let usage = "simulated-board LAYOUT [options] [-- COMMAND [ARG…]]"
    static var discussion: String {
        """
        Writes a fake sysfs tree copying a real board's drivers, binds it over /sys and
        its FIFOs over /dev/iio:deviceN in private mount, network and PID namespaces,
        and runs COMMAND there (default: this lodestone's 'watch'). The board holds
        the attitude given (and turns at --spin); its sensors report the Earth field
        (20 µT north, 44 µT down) and gravity as that attitude and the board's drivers
        dictate, with ±1 count of dither. With --backend ip, iiod serves the board at
        ip:127.0.0.1 inside the namespace. Needs root (CAP_SYS_ADMIN), util-linux
        unshare, and for ip, iproute2 and iiod. Exits with COMMAND's exit code (128 + N if signal N ended it).
        Layouts:
        \(SimulatedLayout.all.map { "  \($0.id): \($0.summary)" }.joined(separator: "\n"))
        Example: sudo lodestone simulated-board mpu9250 --heading 30 --pitch 10 -- lodestone watch --heading-filter 0 --count 5
        """
    }
    static let options: [CommandLineOption] = [
        .value("heading", "DEG", "Heading of the board's +y axis (default 0)."),
        .value("pitch", "DEG", "Nose-up pitch (default 0)."),
        .value("roll", "DEG", "Right-side-down roll (default 0)."),
        .value("spin", "DEG/S", "Turn about the vertical at this rate (default 0: still)."),
        .value("board-rotation", "DEG", "The board is mounted turned this much about z (then tell watch: --board-rotation DEG)."),
        .value("noise", "COUNTS", "Peak dither added to raw counts (default 1)."),
        .value("backend", "NAME", "local (default) or ip (iiod at ip:127.0.0.1)."),
        .value("vanish-every", "S", "Every S seconds the first part (device) vanishes, as on unplugging it (default: never; tools/soak)."),
        .value("vanish-for", "S", "How long it stays away (default 3)."),
    ]

    static func run(_ arguments: CommandLineArguments) throws -> ExitCode {
        let positionals = arguments.positionals
        guard let layoutID = positionals.first else {
            throw UsageError("missing LAYOUT; one of \(SimulatedLayout.all.map(\.id).joined(separator: ", "))")
        }
        guard let layout = SimulatedLayout.named(layoutID) else {
            throw UsageError("unknown LAYOUT '\(layoutID)'; use one of \(SimulatedLayout.all.map(\.id).joined(separator: ", "))")
        }
        let heading = try arguments.double("heading") ?? 0
        let pitch = try arguments.double("pitch", in: -90...90) ?? 0
        let roll = try arguments.double("roll", in: -180...180) ?? 0
        let spin = try arguments.double("spin") ?? 0
        let rotation = try arguments.double("board-rotation") ?? 0
        let noise = try arguments.double("noise", in: 0...1e6) ?? 1
        let vanishEvery = try arguments.double("vanish-every", in: 1...86_400)
        let vanishFor = try arguments.double("vanish-for", in: 0.1...3600) ?? 3
        guard let backend = SimulatedBoard.Backend(rawValue: arguments.string("backend") ?? "local") else {
            throw UsageError("--backend must be local or ip")
        }
        var command = Array(positionals.dropFirst())
        if command.isEmpty {
            command = [try ChildProcess.selfPath(), "watch"] + (backend == .ip ? ["--uri", "ip:127.0.0.1"] : [])
        }
        // Ctrl-C reaches the command through the terminal: here it is ignored, and we clean up
        // after the command ends. SIGTERM is passed on to the command. Set before any other
        // thread exists (the namespace check and the feeder start some), so all inherit the mask.
        signal(SIGINT, SIG_IGN)
        var term = sigset_t()
        sigemptyset(&term)
        sigaddset(&term, SIGTERM)
        pthread_sigmask(SIG_BLOCK, &term, nil)
        if let problem = SimulatedBoard.namespaceProblem(ip: backend == .ip) {
            throw CommandFailure(.inaccessible, "simulated-board: \(problem)")
        }

        let board = try SimulatedBoard(layout: layout, attitude: BoardAttitude(heading: heading, pitch: pitch, roll: roll).quaternion,
                                       boardRotation: BoardRotation.aboutZ(degrees: rotation), noise: noise)
        board.start()
        Console.note("lodestone: SIMULATED board \(layout.id) (\(layout.summary)), heading \(heading)°, pitch \(pitch)°, roll \(roll)°"
                     + (spin != 0 ? ", turning \(spin)°/s" : "") + (backend == .ip ? ", served by iiod at ip:127.0.0.1" : ""))

        let pid: pid_t
        do {
            pid = try ChildProcess.spawn(board.namespaceCommand(backend: backend, program: command))
        } catch {
            board.remove()
            throw error
        }
        let t0 = Date()
        var status: Int32 = 0
        while waitpid(pid, &status, WNOHANG) == 0 {
            var pending = sigset_t()
            sigpending(&pending)
            if sigismember(&pending, SIGTERM) == 1 {
                var sig: Int32 = 0
                sigwait(&term, &sig)
                if let inner = ChildProcess.firstChild(of: pid) { kill(inner, SIGTERM) }
            }
            if let every = vanishEvery {
                // Away for `vanishFor` seconds at the end of each period of `every`.
                let phase = Date().timeIntervalSince(t0).truncatingRemainder(dividingBy: every)
                board.setVanished(phase >= every - min(vanishFor, every / 2), part: 0)
            }
            if spin != 0 {
                let attitude = BoardAttitude(heading: heading + spin * Date().timeIntervalSince(t0), pitch: pitch, roll: roll).quaternion
                board.setAttitude(attitude, angularRate: attitude.conjugate.rotate(Vector3(0, 0, -spin * Angle.radiansPerDegree)))
            }
            usleep(10_000)
        }
        board.remove()
        // The command's own exit code, whatever it is; 128 + N when it died of signal N.
        exit((status & 0x7f) == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f))
    }
}
