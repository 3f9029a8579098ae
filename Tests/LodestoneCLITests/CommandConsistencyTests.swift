import Foundation
import LodestoneTestSupport
import Testing

/// What every command shares: one exit-code table (`serve` included), "did you
/// mean" for a mistyped command or option, usage lines that say what each takes,
/// and the README's tables that list them.
@Suite struct CommandConsistencyTests {
    let scratch = TemporaryDirectory()

    /// The command names as `lodestone --help` lists them.
    static func commandNames() throws -> [String] {
        let help = try CommandRunner.run(["--help"]).stdout
        let section = help.components(separatedBy: "Commands:\n").last?.components(separatedBy: "\n\n").first ?? ""
        return section.split(separator: "\n").compactMap { $0.split(separator: " ").first.map(String.init) }
    }

    @Test func aMistypedCommandGetsTheNearestName() throws {
        let typo = try CommandRunner.run(["replya", "demo.lslog"])
        #expect(typo.status == 2)
        #expect(typo.stderr.contains("unknown command 'replya'; did you mean 'replay'?"), "\(typo.stderr)")
        let help = try CommandRunner.run(["help", "evalute"])
        #expect(help.status == 2 && help.stderr.contains("did you mean 'evaluate'?"), "\(help.stderr)")
        let far = try CommandRunner.run(["xyzzy"])
        #expect(far.status == 2 && far.stderr.contains("unknown command 'xyzzy'") && !far.stderr.contains("did you mean"), "\(far.stderr)")
    }

    @Test func everyCommandRefusesAnUnknownOptionWithTwoAndTheNearestName() throws {
        let names = try Self.commandNames()
        #expect(names.count >= 12 && names.contains("serve") && names.contains("replay"), "\(names)")
        for name in names {
            let r = try CommandRunner.run([name, "--no-such-option"])
            #expect(r.status == 2, "\(name): exit \(r.status): \(r.stderr)")
            #expect(r.stderr.contains("unknown option '--no-such-option'"), "\(name): \(r.stderr)")
        }
        let typo = try CommandRunner.run(["serve", "--sockt", "/tmp/x.sock"])
        #expect(typo.status == 2 && typo.stderr.contains("did you mean --socket?"), "\(typo.stderr)")
    }

    /// The same fault gives the same code whichever command meets it.
    @Test func missingFilesAreThreeAndBadContentIsOneInEveryCommand() throws {
        let missing = scratch.path("missing.csv")
        let bad = scratch.file("bad.csv", "time,accel_x,accel_y,accel_z,mag_x,mag_y,mag_z\n0,0,0,9.8,20,0,-40\nx,1,2\n")
        let badConfig = scratch.file("bad.json", #"{"source": "#)
        let unwritable = scratch.path("no-such-dir/out.csv")
        let inaccessible: [([String], String)] = [
            (["replay", missing], missing), (["evaluate", missing], missing), (["calibrate", "--from", missing], missing),
            (["serve", "--config", scratch.path("missing.json")], "missing.json"),
            (["serve", "--source", "replay:\(missing)", "--socket", scratch.path("a.sock")], missing),
            (["simulate", "-o", unwritable], unwritable), (["record", "-o", unwritable], unwritable),
        ]
        for (arguments, named) in inaccessible {
            let r = try CommandRunner.run(arguments)
            #expect(r.status == 3, "\(arguments): exit \(r.status): \(r.stderr)")
            #expect(r.stderr.contains(named), "\(arguments): the error names the file: \(r.stderr)")
        }
        for arguments in [["replay", bad], ["calibrate", "--from", bad], ["serve", "--config", badConfig]] {
            let r = try CommandRunner.run(arguments)
            #expect(r.status == 1, "\(arguments): exit \(r.status): \(r.stderr)")
            #expect(r.stderr.contains(arguments.last!), "\(arguments): the error names the file: \(r.stderr)")
        }
    }

    /// `--help` prints the table the README documents, code for code.
    @Test func theHelpAndTheReadmeShowTheSameTable() throws {
        let help = try CommandRunner.run(["--help"]).stdout
        let helpCodes = help.components(separatedBy: "Exit codes (every command):\n").last?
            .split(separator: "\n").compactMap { Int($0.split(separator: " ").first ?? "") } ?? []
        #expect(helpCodes == [0, 1, 2, 3, 4, 130], "\(help)")
        let readme = try String(contentsOf: SharedData.packageRoot.appendingPathComponent("README.md"), encoding: .utf8)
        let section = readme.components(separatedBy: "## Exit codes\n").last?.components(separatedBy: "\n## ").first ?? ""
        let readmeCodes = section.split(separator: "\n").compactMap { line -> Int? in
            guard line.hasPrefix("| ") else { return nil }
            return Int(line.dropFirst(2).prefix { $0 != " " })
        }
        #expect(readmeCodes == helpCodes, "README's exit codes: \(readmeCodes)")
    }

    /// The README's command table names every command `--help` lists, and no other.
    @Test func theReadmeListsEveryCommand() throws {
        let readme = try String(contentsOf: SharedData.packageRoot.appendingPathComponent("README.md"), encoding: .utf8)
        let section = readme.components(separatedBy: "## Commands\n").last?.components(separatedBy: "\n## ").first ?? ""
        let listed = section.split(separator: "\n").compactMap { line -> String? in
            guard line.hasPrefix("| `") else { return nil }
            return line.dropFirst(3).prefix { $0 != " " && $0 != "`" }.description
        }
        #expect(listed.sorted() == (try Self.commandNames()).sorted(), "README: \(listed)")
    }

    /// The usage line shows FILE as optional where the command runs without one.
    @Test func usageLinesSayWhatIsOptional() throws {
        let replay = try CommandRunner.run(["help", "replay"]).stdout
        #expect(replay.hasPrefix("Usage: lodestone replay [FILE] [options]\n"), "\(replay.prefix(80))")
        let evaluate = try CommandRunner.run(["help", "evaluate"]).stdout
        #expect(evaluate.hasPrefix("Usage: lodestone evaluate FILE... [options]\n"), "\(evaluate.prefix(80))")
        let none = try CommandRunner.run(["evaluate"])
        #expect(none.status == 2 && none.stderr.contains("missing FILE"), "\(none.stderr)")
    }
}
