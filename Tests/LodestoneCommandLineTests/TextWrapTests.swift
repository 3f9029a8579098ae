import LodestoneCommandLine
import Testing

@Suite struct TextWrapTests {
    @Test func aLabelledLineContinuesUnderItsValue() {
        let line = "  next      aim the board's bottom face/front edge (−z +y) at magnetic north and down (up south of the magnetic equator)"
        let lines = TextWrap.wrap(line, width: 79)
        #expect(lines == ["  next      aim the board's bottom face/front edge (−z +y) at magnetic north",
                          "            and down (up south of the magnetic equator)"])
        #expect(lines.allSatisfy { $0.count <= 79 })
        // Nothing is lost: the words are the same, in the same order.
        #expect(lines.joined(separator: " ").split(separator: " ") == line.split(separator: " "))
    }

    @Test func shortLinesAndUnlabelledLines() {
        #expect(TextWrap.wrap("  coverage  45 %", width: 79) == ["  coverage  45 %"])
        #expect(TextWrap.wrap("Turn the board slowly through every orientation", width: 20)
            == ["Turn the board", "slowly through every", "orientation"])
        #expect(TextWrap.wrap(["ab cd", "ef"], width: 2) == ["ab", "cd", "ef"])
    }

    @Test func aWordLongerThanTheRoomIsBrokenAtTheWidth() {
        let lines = TextWrap.wrap("  fit       not yet: /a/very/long/path/that/does/not/fit", width: 30)
        #expect(lines.allSatisfy { $0.count <= 30 }, "\(lines)")
        let withoutSpaces = { (s: String) in s.filter { $0 != " " } }
        #expect(withoutSpaces(lines.joined()) == "fitnotyet:/a/very/long/path/that/does/not/fit")
    }
}
