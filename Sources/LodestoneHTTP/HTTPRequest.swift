/// The head of an HTTP/1.x request: what the live view needs of it and nothing more.
struct HTTPRequest: Equatable, Sendable {
    var method: String
    /// The path, without the query.
    var path: String
    var host: String?

    enum Failure: Error, Equatable {
        case malformed(String)
        case unsupportedVersion
    }

    /// Where the head ends (after the blank line) in `bytes`, or nil while it is incomplete.
    static func headEnd(_ bytes: [UInt8]) -> Int? {
        var i = 0
        while i + 1 < bytes.count {
            if bytes[i] == 0x0A {
                if bytes[i + 1] == 0x0A { return i + 2 }
                if bytes[i + 1] == 0x0D, i + 2 < bytes.count, bytes[i + 2] == 0x0A { return i + 3 }
            }
            i += 1
        }
        return nil
    }

    /// Parses a complete head (RFC 9112: request line, header fields, blank line).
    static func parse(_ head: ArraySlice<UInt8>) -> Result<HTTPRequest, Failure> {
        let lines = head.split(separator: 0x0A, omittingEmptySubsequences: false).map { line -> Substring in
            var l = Substring(decoding: line, as: UTF8.self)
            if l.hasSuffix("\r") { l = l.dropLast() }
            return l
        }
        guard let requestLine = lines.first, !requestLine.isEmpty else { return .failure(.malformed("no request line")) }
        let parts = requestLine.split(separator: " ", omittingEmptySubsequences: false)
        guard parts.count == 3, !parts[0].isEmpty, parts[1].hasPrefix("/") || parts[1] == "*" else {
            return .failure(.malformed("the request line is not METHOD /path HTTP/1.1"))
        }
        guard parts[2] == "HTTP/1.1" || parts[2] == "HTTP/1.0" else { return .failure(.unsupportedVersion) }
        guard parts[0].allSatisfy({ $0.isASCII && $0.isUppercase }) else { return .failure(.malformed("the method is not a token")) }
        var host: String?
        for line in lines.dropFirst() where !line.isEmpty {
            guard let colon = line.firstIndex(of: ":"), colon != line.startIndex, !line.first!.isWhitespace else {
                return .failure(.malformed("a header line has no name"))
            }
            if line[..<colon].lowercased() == "host" {
                guard host == nil else { return .failure(.malformed("two Host headers")) }
                host = line[line.index(after: colon)...].strippingBlanks()
            }
        }
        let target = parts[1]
        let path = target.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false).first.map(String.init) ?? "/"
        return .success(HTTPRequest(method: String(parts[0]), path: path, host: host))
    }
}

extension Substring {
    /// Without the spaces and tabs around it (optional whitespace of a header field).
    func strippingBlanks() -> String {
        let blank: (Character) -> Bool = { $0 == " " || $0 == "\t" }
        return String(drop(while: blank).reversed().drop(while: blank).reversed())
    }
}
