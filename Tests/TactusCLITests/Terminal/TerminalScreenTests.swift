import Testing
@testable import TactusCLI

@Suite("Terminal screen: only the rows that changed are rewritten, in one write")
struct TerminalScreenTests {
    let esc = "\u{1B}"
    var clear: String { "\(esc)[?1049h\(esc)[?25l\(esc)[0m\(esc)[2J" }
    func row(_ n: Int, _ text: String) -> String { "\(esc)[\(n);1H\(esc)[2K\(text)\(esc)[0m" }

    @Test func theFirstFrameClearsAndDrawsEveryRow() {
        var screen = TerminalScreen()
        #expect(screen.update(to: ["a", "", "c"]) == clear + row(1, "a") + row(2, "") + row(3, "c"))
    }

    @Test func aChangedRowIsTheOnlyOneWritten() {
        var screen = TerminalScreen()
        _ = screen.update(to: ["tempo 120", "beat [X] x x x", "force"])
        #expect(screen.update(to: ["tempo 120", "beat X [x] x x", "force"]) == row(2, "beat X [x] x x"))
    }

    @Test func anUnchangedFrameWritesNothing() {
        var screen = TerminalScreen()
        _ = screen.update(to: ["a", "b"])
        #expect(screen.update(to: ["a", "b"]) == "")
    }

    @Test func rowsNoLongerUsedAreErased() {
        var screen = TerminalScreen()
        _ = screen.update(to: ["a", "b", "c"])
        #expect(screen.update(to: ["a"]) == "\(esc)[2;1H\(esc)[2K\(esc)[3;1H\(esc)[2K")
    }

    @Test func afterAResizeEverythingIsDrawnAgainOnACleanScreen() {
        var screen = TerminalScreen()
        _ = screen.update(to: ["a", "b"])
        screen.invalidate()
        #expect(screen.update(to: ["a", "b"]) == clear + row(1, "a") + row(2, "b"))
    }
}
