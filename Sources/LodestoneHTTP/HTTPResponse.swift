/// The few responses the live view sends, always with `Connection: close` except the stream.
enum HTTPResponse {
    /// The page may use nothing from outside: no other origin, no plugin, no frame.
    static let securityHeaders = """
        Content-Security-Policy: default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; \
        img-src data:; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'\r
        X-Content-Type-Options: nosniff\r
        Referrer-Policy: no-referrer\r
        Cache-Control: no-store\r

        """

    static func page(_ body: [UInt8], includeBody: Bool) -> [UInt8] {
        let head = "HTTP/1.1 200 OK\r\nContent-Type: text/html; charset=utf-8\r\nContent-Length: \(body.count)\r\n"
            + securityHeaders + "Connection: close\r\n\r\n"
        return Array(head.utf8) + (includeBody ? body : [])
    }

    /// The start of an event stream; events follow as `data:` lines.
    static let streamHead: [UInt8] = Array(("HTTP/1.1 200 OK\r\nContent-Type: text/event-stream; charset=utf-8\r\n"
        + "Cache-Control: no-store\r\nX-Content-Type-Options: nosniff\r\nConnection: keep-alive\r\n\r\n"
        + "retry: 2000\n\n").utf8)

    static func error(_ status: Int, _ reason: String, _ message: String, extra: String = "") -> [UInt8] {
        let body = message + "\n"
        let head = "HTTP/1.1 \(status) \(reason)\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Length: \(body.utf8.count)\r\n"
            + extra + "Connection: close\r\n\r\n"
        return Array((head + body).utf8)
    }

    /// One JSON object as a server-sent event.
    static func event(_ json: String) -> [UInt8] {
        var bytes = Array("data: ".utf8)
        var body = json.utf8[...]
        while let last = body.last, last == 0x0A || last == 0x0D { body = body.dropLast() }
        // A JSON object from our writer has no raw newline inside; one would end the event early.
        bytes += body.lazy.map { $0 == 0x0A || $0 == 0x0D ? 0x20 : $0 }
        bytes += [0x0A, 0x0A]
        return bytes
    }

    static let heartbeat: [UInt8] = Array(": keep-alive\n\n".utf8)
}
