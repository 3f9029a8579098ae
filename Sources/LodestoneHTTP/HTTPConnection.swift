/// One visitor of the live view: a request being read, a reply being written, or a stream.
struct HTTPConnection {
    enum Phase: Equatable {
        case request
        case reply
        case stream
    }

    let fd: Int32
    var phase = Phase.request
    /// The request head read so far.
    var input: [UInt8] = []
    /// Bytes to write, from `written` on.
    var output: [UInt8] = []
    var written = 0
    /// The next event of the ring this stream has not taken.
    var cursor: UInt64 = 0
    let opened: Double
    /// When the socket last took a byte (or the stream had nothing to send).
    var lastProgress: Double
    /// When the stream last wrote anything, for the heartbeat.
    var lastWrite: Double

    init(fd: Int32, now: Double) {
        self.fd = fd
        opened = now
        lastProgress = now
        lastWrite = now
    }

    var hasPendingOutput: Bool { written < output.count }

    /// Replaces what was written with `bytes`.
    mutating func setOutput(_ bytes: [UInt8]) {
        output = bytes
        written = 0
    }
}
