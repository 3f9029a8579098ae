/// A network address as `HOST:PORT`, for listeners and for gpsd.
///
/// `HOST` may be a name, an IPv4 address or a bracketed IPv6 address
/// (`[::1]:2947`). Either part may be left out where a default exists:
/// `localhost` means `localhost:2947` for gpsd, `:10110` means the default
/// host (loopback for listeners).
public struct Endpoint: Hashable, Sendable, CustomStringConvertible {
    public var host: String
    public var port: UInt16

    public init(host: String, port: UInt16) {
        self.host = host
        self.port = port
    }

    public var description: String {
        host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)"
    }

    /// Parses `HOST:PORT`, `HOST`, `:PORT` or `PORT`; nil with a reason when malformed.
    /// `anyPort` allows port 0, with which a listener gets a free port from the system.
    public static func parse(_ text: String, defaultHost: String, defaultPort: UInt16?, anyPort: Bool = false) -> Result<Endpoint, ParseError> {
        func bad(_ why: String) -> Result<Endpoint, ParseError> {
            .failure(ParseError(message: "'\(text)' is not HOST:PORT (\(why))"))
        }
        var host: Substring
        var portText: Substring?
        if text.hasPrefix("[") {
            guard let close = text.firstIndex(of: "]") else { return bad("an IPv6 address needs a closing ']'") }
            host = text[text.index(after: text.startIndex)..<close]
            let rest = text[text.index(after: close)...]
            if !rest.isEmpty {
                guard rest.hasPrefix(":") else { return bad("expected ':' after ']'") }
                portText = rest.dropFirst()
            }
        } else if text.allSatisfy(\.isNumber), !text.isEmpty {
            host = Substring(defaultHost)
            portText = Substring(text)
        } else if let colon = text.lastIndex(of: ":") {
            guard text.firstIndex(of: ":") == colon else { return bad("put an IPv6 address in brackets, e.g. [::1]:2947") }
            host = text[..<colon]
            portText = text[text.index(after: colon)...]
        } else {
            host = Substring(text)
        }
        if host.isEmpty { host = Substring(defaultHost) }
        guard host.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "." || $0 == "-" || $0 == ":" || $0 == "_" || $0 == "%" }) else {
            return bad("the host has characters a host name cannot have")
        }
        let port: UInt16
        if let portText {
            guard let p = UInt16(portText), p > 0 || anyPort else { return bad("the port must be a number 1–65535") }
            port = p
        } else if let defaultPort {
            port = defaultPort
        } else {
            return bad("a port is needed")
        }
        return .success(Endpoint(host: String(host), port: port))
    }

    /// Why a text is not an endpoint, as a sentence.
    public struct ParseError: Error, Equatable, Sendable {
        public var message: String
    }

    /// Whether the host is a loopback name or address.
    public var isLoopback: Bool {
        host == "localhost" || host == "::1" || host.hasPrefix("127.")
    }
}
