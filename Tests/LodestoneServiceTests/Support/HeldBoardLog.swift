import Foundation
import LodestoneCore
import LodestoneSimulation

extension TestLogs {
    /// The field of ``held(_:_:seconds:hz:)``: 20 µT north, 40 µT down (44.72 µT, dip 63.43°).
    static let heldField = Vector3(0, 20, -40)

    /// A board held still at `attitude` (heading, pitch nose up, roll right side down):
    /// the log holds the field and gravity as the board's axes see them, no noise.
    static func held(_ path: String, _ attitude: BoardAttitude, seconds: Double, hz: Double = 100) {
        let toBody = attitude.quaternion.conjugate
        let b = toBody.rotate(heldField), g = toBody.rotate(Vector3(0, 0, 9.81))
        let row = "\(g.x),\(g.y),\(g.z),\(b.x),\(b.y),\(b.z)\n"
        var text = header + "\n"
        for i in 0...Int(seconds * hz) { text += "\(Double(i) / hz)," + row }
        _ = FileManager.default.createFile(atPath: path, contents: Data(text.utf8))
    }
}
