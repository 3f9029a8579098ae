import Foundation
import LodestoneTestSupport
import Testing
@testable import LodestoneCalibrationStore

@Suite struct AtomicFileTests {
    @Test func writesAndReplacesLeavingNoTemporaryFile() throws {
        let dir = TemporaryDirectory()
        let target = dir.path("profile.json")
        try AtomicFile.write(Array("first\n".utf8), to: target)
        #expect(dir.read("profile.json") == "first\n")
        try AtomicFile.write(Array("second, longer\n".utf8), to: target, options: .init(chunkSize: 3))
        #expect(dir.read("profile.json") == "second, longer\n")
        #expect(dir.contents() == ["profile.json"])
        var info = stat()
        #expect(stat(target, &info) == 0)
        #expect(info.st_mode & 0o777 == 0o644 & ~currentUmask())
    }

    @Test func aBareNameIsWrittenInTheWorkingDirectory() {
        #expect(AtomicFile.split("x.json") == (".", "x.json"))
        #expect(AtomicFile.split("/x.json") == ("/", "x.json"))
        #expect(AtomicFile.split("a/b/x.json") == ("a/b", "x.json"))
    }

    @Test func failuresNameTheFileAndLeaveTheOldOneAlone() throws {
        let dir = TemporaryDirectory()
        let missing = dir.path("no-such-dir/p.json")
        #expect {
            try AtomicFile.write([1, 2, 3], to: missing)
        } throws: { error in
            let e = error as? AtomicFileError
            return e?.code == ENOENT && e!.description.contains(missing) && e!.description.contains("create the directory")
        }
        // The target is a directory: rename fails, the directory and its content survive.
        let target = dir.path("taken")
        try FileManager.default.createDirectory(atPath: target + "/inside", withIntermediateDirectories: true)
        #expect(throws: AtomicFileError.self) { try AtomicFile.write([1], to: target) }
        #expect(FileManager.default.fileExists(atPath: target + "/inside"))
        #expect(dir.contents() == ["taken"])   // no temporary file left behind
    }

    @Test func temporariesOfDeadProcessesAreRemovedOthersKept() throws {
        let dir = TemporaryDirectory()
        // A PID that cannot be running: above the kernel's pid_max.
        let dead = dir.path(".p.json.tmp-99999999")
        // PID 1 always runs; its temporary is not ours to remove.
        let alive = dir.path(".p.json.tmp-1")
        let otherTarget = dir.path(".q.json.tmp-99999999")
        for f in [dead, alive, otherTarget] { #expect(FileManager.default.createFile(atPath: f, contents: Data("half".utf8))) }
        try AtomicFile.write(Array("{}\n".utf8), to: dir.path("p.json"))
        #expect(dir.contents() == [".p.json.tmp-1", ".q.json.tmp-99999999", "p.json"])
    }

    private func currentUmask() -> mode_t {
        let m = umask(0)
        umask(m)
        return m
    }
}
