/// A small, strict reader of XML 1.0 documents into an ``XMLElement`` tree, for
/// GPX: elements, attributes, character data, CDATA, the five predefined
/// entities and character references; comments, processing instructions and
/// the XML declaration are skipped. A DOCTYPE is refused: GPX has none, and
/// entity declarations are the way to make a small file expand without bound.
/// Errors carry the line and column (1-based) of the fault.
struct XMLReader {
    struct Failure: Error, Sendable, Equatable {
        var line: Int
        var column: Int
        var message: String
    }

    /// Deeper nesting than this is refused (GPX needs 6 levels, extensions a few more).
    static let maximumDepth = 64

    private let bytes: [UInt8]
    private var index = 0
    private var line = 1
    private var lineStart = 0

    private init(_ bytes: [UInt8]) {
        self.bytes = bytes
    }

    /// The root element of `bytes` (UTF-8, an optional byte-order mark first).
    static func parse(_ bytes: [UInt8]) throws(Failure) -> XMLElement {
        var reader = XMLReader(bytes)
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { reader.index = 3 }
        try reader.skipMisc()
        guard reader.index < bytes.count else { throw reader.failure("the document has no root element") }
        let root = try reader.element(depth: 0)
        try reader.skipMisc()
        guard reader.index == bytes.count else { throw reader.failure("content after the end of the root element </\(root.qualifiedName)>") }
        return root
    }

    // MARK: Positions and errors

    private var column: Int { index - lineStart + 1 }

    private func failure(_ message: String) -> Failure {
        Failure(line: line, column: column, message: message)
    }

    private func peek(_ offset: Int = 0) -> UInt8? {
        index + offset < bytes.count ? bytes[index + offset] : nil
    }

    private mutating func advance() {
        if bytes[index] == 0x0A {
            line += 1
            lineStart = index + 1
        }
        index += 1
    }

    private func starts(with literal: StaticString) -> Bool {
        literal.withUTF8Buffer { lit in
            index + lit.count <= bytes.count && (0..<lit.count).allSatisfy { bytes[index + $0] == lit[$0] }
        }
    }

    /// Advances past `literal`, which must be next.
    private mutating func expect(_ literal: StaticString, _ what: String) throws(Failure) {
        guard starts(with: literal) else { throw failure("expected \(what)") }
        for _ in 0..<literal.utf8CodeUnitCount { advance() }
    }

    /// Advances to just past `terminator`; refuses the end of input.
    private mutating func skip(past terminator: StaticString, what: String) throws(Failure) {
        let (startLine, startColumn) = (line, column)
        while index < bytes.count {
            if starts(with: terminator) {
                for _ in 0..<terminator.utf8CodeUnitCount { advance() }
                return
            }
            advance()
        }
        throw Failure(line: startLine, column: startColumn, message: "\(what) is not closed")
    }

    private static func isSpace(_ b: UInt8) -> Bool { b == 0x20 || b == 0x09 || b == 0x0A || b == 0x0D }

    private mutating func skipSpace() {
        while let b = peek(), Self.isSpace(b) { advance() }
    }

    /// Whitespace, comments and processing instructions outside the root.
    private mutating func skipMisc() throws(Failure) {
        while true {
            skipSpace()
            if starts(with: "<?") {
                try skip(past: "?>", what: "a processing instruction")
            } else if starts(with: "<!--") {
                try skip(past: "-->", what: "a comment")
            } else if starts(with: "<!DOCTYPE") {
                throw failure("a DOCTYPE is not allowed (GPX has none, and its entities could expand without bound)")
            } else {
                return
            }
        }
    }

    // MARK: Elements

    private mutating func element(depth: Int) throws(Failure) -> XMLElement {
        guard depth < Self.maximumDepth else { throw failure("elements are nested more than \(Self.maximumDepth) deep") }
        let (startLine, startColumn) = (line, column)
        try expect("<", "'<' to start an element")
        let name = try self.name()
        var element = XMLElement(qualifiedName: name, attributes: [], line: startLine, column: startColumn)
        while true {
            let hadSpace = peek().map(Self.isSpace) ?? false
            skipSpace()
            if starts(with: "/>") {
                advance(); advance()
                return element
            }
            if peek() == 0x3E {
                advance()
                break
            }
            guard peek() != nil else { throw failure("the start tag <\(name)> is cut short") }
            guard hadSpace else { throw failure("expected a space, '>' or '/>' in the start tag <\(name)>") }
            let attribute = try self.attribute()
            if element.attributes.contains(where: { $0.name == attribute.name }) {
                throw failure("attribute \(attribute.name) appears twice in <\(name)>")
            }
            element.attributes.append(attribute)
        }
        try content(of: &element, depth: depth)
        return element
    }

    /// Character data and child elements up to the end tag of `element`.
    private mutating func content(of element: inout XMLElement, depth: Int) throws(Failure) {
        var text: [UInt8] = []
        while true {
            guard let b = peek() else {
                throw failure("the document ends inside <\(element.qualifiedName)> opened at line \(element.line), column \(element.column)")
            }
            if b == 0x26 {
                try reference(into: &text)
            } else if b != 0x3C {
                text.append(b)
                advance()
            } else if starts(with: "</") {
                advance(); advance()
                let name = try self.name()
                skipSpace()
                guard name == element.qualifiedName else {
                    throw failure("</\(name)> does not close <\(element.qualifiedName)> opened at line \(element.line), column \(element.column)")
                }
                try expect(">", "'>' to end </\(name)>")
                element.text = try decodeUTF8(text)
                return
            } else if starts(with: "<!--") {
                try skip(past: "-->", what: "a comment")
            } else if starts(with: "<![CDATA[") {
                let start = index + 9
                try skip(past: "]]>", what: "a CDATA section")
                text += bytes[start..<(index - 3)]
            } else if starts(with: "<?") {
                try skip(past: "?>", what: "a processing instruction")
            } else {
                element.children.append(try self.element(depth: depth + 1))
            }
        }
    }

    private mutating func attribute() throws(Failure) -> (name: String, value: String) {
        let name = try self.name()
        skipSpace()
        try expect("=", "'=' after attribute \(name)")
        skipSpace()
        guard let quote = peek(), quote == 0x22 || quote == 0x27 else {
            throw failure("the value of attribute \(name) must be in quotes")
        }
        advance()
        var value: [UInt8] = []
        while true {
            guard let b = peek() else { throw failure("the value of attribute \(name) is not closed") }
            if b == quote {
                advance()
                break
            }
            if b == 0x3C { throw failure("'<' is not allowed in the value of attribute \(name)") }
            if b == 0x26 {
                try reference(into: &value)
            } else {
                // Attribute-value normalisation: each whitespace character becomes a space.
                value.append(Self.isSpace(b) ? 0x20 : b)
                advance()
            }
        }
        return (name, try decodeUTF8(value))
    }

    /// A name: letters, digits and `_ - . :`, plus any non-ASCII byte (UTF-8 letters).
    private mutating func name() throws(Failure) -> String {
        let start = index
        while let b = peek(), b >= 0x80 || (b >= 0x30 && b <= 0x39) || ((b | 0x20) >= 0x61 && (b | 0x20) <= 0x7A)
            || b == 0x5F || b == 0x2D || b == 0x2E || b == 0x3A {
            advance()
        }
        guard index > start, let first = bytes[start...].first, !(first >= 0x30 && first <= 0x39), first != 0x2D, first != 0x2E else {
            throw failure("expected a name")
        }
        return try decodeUTF8(Array(bytes[start..<index]))
    }

    /// `&lt;` `&gt;` `&amp;` `&quot;` `&apos;` `&#N;` `&#xH;`.
    private mutating func reference(into out: inout [UInt8]) throws(Failure) {
        advance()
        let start = index
        while let b = peek(), b != 0x3B {
            guard index - start < 12 else { throw failure("an entity reference is not closed with ';'") }
            advance()
        }
        guard peek() == 0x3B else { throw failure("an entity reference is not closed with ';'") }
        let name = String(decoding: bytes[start..<index], as: UTF8.self)
        advance()
        switch name {
        case "lt": out.append(0x3C)
        case "gt": out.append(0x3E)
        case "amp": out.append(0x26)
        case "quot": out.append(0x22)
        case "apos": out.append(0x27)
        default:
            var code: UInt32?
            if name.hasPrefix("#x") {
                code = UInt32(name.dropFirst(2), radix: 16)
            } else if name.hasPrefix("#") {
                code = UInt32(name.dropFirst(), radix: 10)
            }
            guard let code, let scalar = Unicode.Scalar(code), code != 0 else {
                throw failure("unknown entity &\(name); (GPX uses only &lt; &gt; &amp; &quot; &apos; and character references)")
            }
            out += Array(String(Character(scalar)).utf8)
        }
    }

    private func decodeUTF8(_ bytes: [UInt8]) throws(Failure) -> String {
        guard let text = String(validating: bytes, as: UTF8.self) else { throw failure("the text is not valid UTF-8") }
        return text
    }
}
