/// The folding that makes name search case- and accent-insensitive: "Zürich",
/// "ZURICH" and "zurich" share the key `zurich`, "Saint-Étienne" and
/// "saint etienne" share `saint etienne`, "St. Louis" and "st louis" `st louis`.
///
/// Letters: ASCII is lower-cased; other letters use the table's `#fold` lines
/// (Unicode compatibility decomposition without combining marks, case-folded, and
/// ø→o, æ→ae, ß→ss… for letters Unicode does not decompose), computed by the
/// table's generator because the standard library has no decomposition; letters
/// not in the table are lower-cased. Combining marks, apostrophes and full stops
/// vanish; other punctuation and spaces become one space.
enum PlaceSearchKey {
    static func fold(_ text: String, using folds: [UInt32: String]) -> [UInt8] {
        var key: [UInt8] = []
        key.reserveCapacity(text.utf8.count)
        var pendingSpace = false
        func emit(_ scalar: Unicode.Scalar) {
            if scalar.isASCII {
                let b = UInt8(scalar.value)
                switch b {
                case 0x41...0x5A: put(b | 0x20)
                case 0x61...0x7A, 0x30...0x39: put(b)
                case 0x27, 0x2E, 0x60: break
                default: pendingSpace = true
                }
                return
            }
            switch scalar.properties.generalCategory {
            case .nonspacingMark, .enclosingMark, .spacingMark, .modifierLetter, .initialPunctuation, .finalPunctuation:
                return
            case .spaceSeparator, .dashPunctuation, .otherPunctuation, .openPunctuation, .closePunctuation, .connectorPunctuation:
                pendingSpace = true
                return
            default:
                for b in scalar.properties.lowercaseMapping.utf8 { put(b) }
            }
        }
        func put(_ b: UInt8) {
            if pendingSpace, !key.isEmpty { key.append(0x20) }
            pendingSpace = false
            key.append(b)
        }
        for scalar in text.unicodeScalars {
            if let folded = folds[scalar.value] {
                for s in folded.unicodeScalars { emit(s) }
            } else {
                emit(scalar)
            }
        }
        return key
    }
}
