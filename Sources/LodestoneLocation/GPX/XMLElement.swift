/// One element of a small XML document, with where it starts, for error messages.
///
/// Names are local names: a namespace prefix (`gpxtpx:speed`) is kept in
/// `qualifiedName` but GPX readers match on the local part, since files in the
/// wild bind the GPX namespace to various prefixes (or none).
struct XMLElement: Sendable {
    var qualifiedName: String
    var attributes: [(name: String, value: String)]
    var children: [XMLElement] = []
    /// The element's own character data (CDATA included), entities decoded.
    var text = ""
    var line: Int
    var column: Int

    var name: Substring {
        guard let colon = qualifiedName.lastIndex(of: ":") else { return qualifiedName[...] }
        return qualifiedName[qualifiedName.index(after: colon)...]
    }

    /// The value of the attribute with this (unprefixed) name.
    func attribute(_ name: String) -> String? {
        attributes.first { $0.name == name }?.value
    }

    /// The first child with this local name.
    func child(_ name: String) -> XMLElement? {
        children.first { $0.name == name }
    }

    /// Every element below this one, depth first.
    func descendants(named name: String) -> [XMLElement] {
        children.flatMap { ($0.name == name ? [$0] : []) + $0.descendants(named: name) }
    }
}
