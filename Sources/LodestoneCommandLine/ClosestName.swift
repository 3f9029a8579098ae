/// The "did you mean" of unknown options and config keys.
public enum ClosestName {
    /// The name in `names` nearest to `name` (ignoring case), when it is near
    /// enough to be a likely typo.
    public static func closest(to name: String, among names: some Sequence<String>) -> String? {
        let scored = names.map { ($0, editDistance(name, $0)) }.min { $0.1 < $1.1 }
        guard let (best, d) = scored, d <= max(2, name.count / 3) else { return nil }
        return best
    }

    /// Levenshtein distance, ignoring case.
    public static func editDistance(_ a: String, _ b: String) -> Int {
        let a = Array(a.lowercased()), b = Array(b.lowercased())
        guard !a.isEmpty, !b.isEmpty else { return max(a.count, b.count) }
        var row = Array(0...b.count)
        for i in 1...a.count {
            var previous = row[0]
            row[0] = i
            for j in 1...b.count {
                let next = min(row[j] + 1, row[j - 1] + 1, previous + (a[i - 1] == b[j - 1] ? 0 : 1))
                previous = row[j]
                row[j] = next
            }
        }
        return row[b.count]
    }
}
