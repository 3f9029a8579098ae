#if canImport(Glibc)
import Glibc
#endif

/// Starting and inspecting child processes (for `simulated-board` and `bench`).
enum ChildProcess {
    /// This executable's path.
    static func selfPath() throws -> String {
        var buffer = [CChar](repeating: 0, count: 4096)
        let n = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        guard n > 0 else { throw CommandFailure(.failure, "cannot find this executable (/proc/self/exe)") }
        return String(decoding: buffer[..<n].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// Starts `argv` (found on PATH) with default signal handling and an empty
    /// signal mask; `stdout` and `stderr`, when given, become its standard output and error.
    static func spawn(_ argv: [String], stdout: Int32? = nil, stderr: Int32? = nil) throws -> pid_t {
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for s in [SIGINT, SIGTERM, SIGPIPE] { sigaddset(&defaults, s) }
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        var none = sigset_t()
        sigemptyset(&none)
        posix_spawnattr_setsigmask(&attributes, &none)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK))
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        if let stdout { posix_spawn_file_actions_adddup2(&actions, stdout, 1) }
        if let stderr { posix_spawn_file_actions_adddup2(&actions, stderr, 2) }
        var cArgs = argv.map { strdup($0) } + [nil]
        defer { cArgs.forEach { free($0) } }
        var pid: pid_t = 0
        let r = posix_spawnp(&pid, argv[0], &actions, &attributes, &cArgs, environ)
        guard r == 0 else { throw CommandFailure(.failure, "cannot start \(argv[0]): \(String(cString: strerror(r)))") }
        return pid
    }

    /// The first child of `pid` (as seen from here), e.g. the program `unshare --fork` runs.
    static func firstChild(of pid: pid_t) -> pid_t? {
        guard let text = readText("/proc/\(pid)/task/\(pid)/children") else { return nil }
        return text.split(separator: " ").first.flatMap { pid_t(String($0)) }
    }

    /// The whole text of a small file (/proc entries), or nil.
    static func readText(_ path: String) -> String? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            let n = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, 4096) }
            if n <= 0 { break }
            bytes += chunk[..<n]
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The executable path of a running process.
    static func executable(of pid: pid_t) -> String? {
        var buffer = [CChar](repeating: 0, count: 4096)
        let n = readlink("/proc/\(pid)/exe", &buffer, buffer.count - 1)
        guard n > 0 else { return nil }
        return String(decoding: buffer[..<n].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
