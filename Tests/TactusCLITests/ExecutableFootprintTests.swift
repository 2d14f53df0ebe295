import Testing

@Suite("What the tactus executable loads")
struct ExecutableFootprintTests {
    /// Foundation (libFoundation, libFoundationEssentials, their ICU data) cost
    /// the running `tactus` about 3 MB of RssAnon, all locked by mlockall: its
    /// modules use Glibc instead (TactusCore/System). The dynamic loader's own
    /// trace (LD_DEBUG=libs) lists every library it initialises, linked or dlopened.
    @Test func theExecutableLoadsNoFoundationLibrary() throws {
        let result = try TactusProcess.run(["--version"], environment: ["LD_DEBUG": "libs"])
        #expect(result.status == 0)
        let initialised = result.standardError.split(separator: "\n").filter { $0.contains("calling init:") }
        #expect(initialised.contains { $0.hasSuffix("/libswiftCore.so") })
        #expect(initialised.filter { $0.contains("Foundation") } == [])
    }
}
