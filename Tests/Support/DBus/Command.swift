import Foundation

/// A one-shot command (busctl, gdbus), its exit status and output.
public struct Command {
    public var status: Int32
    public var stdout: String
    public var stderr: String

    public static func run(_ arguments: [String], as user: ClientUser? = nil, timeout: Double = 15) -> Command {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = (user?.wrapper ?? []) + arguments
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = FileHandle.nullDevice
        do { try process.run() } catch { return Command(status: -1, stdout: "", stderr: "\(error)") }
        let deadline = Deadline(timeout)
        // Read while it runs: a full pipe would block the child.
        let outData = Collected(), errData = Collected()
        let group = DispatchGroup()
        for (pipe, sink) in [(out, outData), (err, errData)] {
            group.enter()
            DispatchQueue.global().async {
                sink.data = pipe.fileHandleForReading.readDataToEndOfFile()
                group.leave()
            }
        }
        while process.isRunning, !deadline.hasPassed { usleep(5_000) }
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
        group.wait()
        return Command(status: process.terminationStatus, stdout: String(decoding: outData.data, as: UTF8.self),
                       stderr: String(decoding: errData.data, as: UTF8.self))
    }
}

/// Bytes one reader thread fills; read after the group is done.
private final class Collected: @unchecked Sendable {
    var data = Data()
}
