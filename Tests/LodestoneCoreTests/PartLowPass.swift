import LodestoneCore

/// A part's digital low-pass filter, as tests read a signal through it: two
/// first-order stages, each `x += (a − x)·dt/(dt + 1/(2π·cutoff))`, started on
/// the first value. `times` are the values' times, s; `cutoff` in Hz.
enum PartLowPass {
    static func filter(_ values: [Vector3], times: [Double], cutoff: Double) -> [Vector3] {
        guard var first = values.first else { return values }
        var second = first, previous = times[0]
        return zip(values, times).map { value, time in
            let dt = time - previous
            previous = time
            let k = dt / (dt + 1 / (2 * Double.pi * cutoff))
            first += (value - first) * k
            second += (first - second) * k
            return second
        }
    }
}
